// Whether two reads of a file saw the same thing: the same size, times and bytes, or the same
// failure. Discovery compares a file it read before with a fresh read of it by this rule where the
// runtime cannot hand it the very same object (a file outside the recipe roots, read again for
// every pass: an import, a delegation target, a probe that found nothing).
import type { SnapshotFile } from "../model.js";

function sameBytes(a: Uint8Array | undefined, b: Uint8Array | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export const sameSnapshotFile = (a: SnapshotFile | undefined, b: SnapshotFile | undefined): boolean =>
  a === b ||
  (a !== undefined && b !== undefined && a.path === b.path && a.size === b.size && a.mtimeMs === b.mtimeMs && a.birthtimeMs === b.birthtimeMs &&
    a.readError === b.readError && a.readErrorCode === b.readErrorCode && sameBytes(a.bytes, b.bytes));
