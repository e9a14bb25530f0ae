// The one SHA-256 of runtime/ (hex): file bytes for digests and journals, text for log seals.
// A leaf module, so that modules which ledger-context.ts itself imports (the launch log) can use it too.
import { hash } from "node:crypto";

// the one-shot `hash`, not a Hash object (docs/performance.md)
export const sha256Bytes = (data: Uint8Array | string): string => hash("sha256", data, "hex");
