// node:crypto, loaded on first use rather than with the modules that hash or draw ids: loading it
// costs about 6 ms of a process's start (some twenty internal modules: ciphers, keys, webcrypto),
// and many commands never hash or draw an id (a warm `list`, --help). `require` is synchronous,
// so the callers stay synchronous.
import { createRequire } from "node:module";

type Crypto = typeof import("node:crypto");

let loaded: Crypto | undefined;

/** node:crypto, required the first time it is asked for */
export const nodeCrypto = (): Crypto => (loaded ??= createRequire(import.meta.url)("node:crypto") as Crypto);
