// The last lines of a log that may be large and still growing: only its end is read.
import type { FileSystem } from "../../adapters/fs/FileSystem.js";

export const DEFAULT_TAIL_LINES = 40;
export const MAX_TAIL_LINES = 1000;
/** how much of a log's end is read at most; longer lines are cut at the front */
const TAIL_WINDOW_BYTES = 256 * 1024;

/** The last `lines` lines of `path` (no trailing empty line); [] when it is missing or empty. */
export async function tailLines(fs: FileSystem, path: string, lines: number): Promise<string[]> {
  let bytes: Uint8Array;
  let cut: boolean;
  try {
    const size = (await fs.stat(path)).size;
    const length = Math.min(size, TAIL_WINDOW_BYTES);
    bytes = await fs.readAt(path, size - length, length);
    cut = length < size;
  } catch {
    return [];
  }
  let text = decoder.decode(bytes);
  // a window that starts mid-file starts mid-line (perhaps mid-character): drop that piece
  if (cut) text = text.slice(text.indexOf("\n") + 1);
  const all = text.split("\n");
  if (all[all.length - 1] === "") all.pop();
  return all.slice(-lines);
}

const decoder = new TextDecoder("utf-8");

/** `lines=` as given (a number, or a numeric text from a host): 1..MAX, default 40. */
export function tailLinesParam(value: unknown): number | { readonly error: string } {
  if (value === undefined || value === null) return DEFAULT_TAIL_LINES;
  const n = typeof value === "number" ? value : typeof value === "string" && /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < 1) return { error: `lines must be a positive integer (at most ${MAX_TAIL_LINES})` };
  return Math.min(n, MAX_TAIL_LINES);
}
