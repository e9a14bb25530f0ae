// The one SHA-256 of runtime/ (hex): file bytes for digests and journals, text for log seals.
// A leaf module, so that modules which ledger-context.ts itself imports (the launch log) can use it too.
import { nodeCrypto } from "../adapters/node-crypto.js";
import type { SnapshotFile } from "../core/model.js";

// the one-shot `hash`, not a Hash object (docs/performance.md)
export const sha256Bytes = (data: Uint8Array | string): string => nodeCrypto().hash("sha256", data, "hex");

/** The digest of a file discovery read (none for a file it could not read): what discovery is
 *  given to digest the bytes each recipe is compiled from. */
export const sha256Of = (file: SnapshotFile): string | undefined => (file.bytes === undefined ? undefined : sha256Bytes(file.bytes));
