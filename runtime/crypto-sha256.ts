// The one SHA-256 of runtime/ (hex): file bytes for digests and journals, text for log seals.
// A leaf module, so that modules which ledger-context.ts itself imports (the launch log) can use it too.
import { hash } from "node:crypto";

// the one-shot `hash` skips the Hash object: a third to a half of createHash's cost for the small
// inputs here (discovery digests every recipe file it compiles)
export const sha256Bytes = (data: Uint8Array | string): string => hash("sha256", data, "hex");
