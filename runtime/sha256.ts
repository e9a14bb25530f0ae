// The one SHA-256 of runtime/ (hex): file bytes for digests and journals, text for log seals.
// A leaf module, so that modules which context.ts itself imports (the launch log) can use it too.
import { createHash } from "node:crypto";

export const sha256Bytes = (data: Uint8Array | string): string => createHash("sha256").update(data).digest("hex");
