// The last lines of a log that may be large and still growing: only its end is read.
import { closeSync, fstatSync, openSync, readSync } from "node:fs";

export const DEFAULT_TAIL_LINES = 40;
export const MAX_TAIL_LINES = 1000;
/** how much of a log's end is read at most; longer lines are cut at the front */
const TAIL_WINDOW_BYTES = 256 * 1024;

/** The last `lines` lines of `path` (no trailing empty line); [] when it is missing or empty. */
export function tailLines(path: string, lines: number): string[] {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return [];
  }
  try {
    const size = fstatSync(fd).size;
    const length = Math.min(size, TAIL_WINDOW_BYTES);
    const buffer = Buffer.alloc(length);
    let read = 0;
    while (read < length) {
      const n = readSync(fd, buffer, read, length - read, size - length + read);
      if (n === 0) break;
      read += n;
    }
    let text = buffer.subarray(0, read).toString("utf8");
    // a window that starts mid-file starts mid-line (perhaps mid-character): drop that piece
    if (length < size) text = text.slice(text.indexOf("\n") + 1);
    const all = text.split("\n");
    if (all[all.length - 1] === "") all.pop();
    return all.slice(-lines);
  } catch {
    return [];
  } finally {
    closeSync(fd);
  }
}

/** `lines=` as given (a number, or a numeric text from a host): 1..MAX, default 40. */
export function tailLinesParam(value: unknown): number | { readonly error: string } {
  if (value === undefined || value === null) return DEFAULT_TAIL_LINES;
  const n = typeof value === "number" ? value : typeof value === "string" && /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < 1) return { error: `lines must be a positive integer (at most ${MAX_TAIL_LINES})` };
  return Math.min(n, MAX_TAIL_LINES);
}
