// Bounded capture of one output stream.
//
// Memory holds at most the limit plus one chunk, whatever the process prints. Up to the limit
// everything is kept; on the first byte past it the whole stream so far goes to a spill file and
// from then on every chunk is appended there, so the file always has the complete output while
// memory keeps only the tail. Reading is paused while the file catches up (async iteration
// gives that backpressure for free), so a fast writer cannot pile chunks up in memory.
//
// The spill file is bounded too: a command that reads the folder its own output is saved in (a
// recursive grep of the working directory when the agent dir lies inside it) would otherwise feed
// on its own output until the disk is full. Past the bound the file is removed and only the tail
// is kept, so the result says the full output could not be saved instead of pointing at a part.
import { open, rm, type FileHandle } from "node:fs/promises";
import type { Readable } from "node:stream";

export interface CaptureOptions {
  readonly limitBytes: number;
  /** called once, on overflow: where the complete stream goes (its folder must exist);
   *  rejecting means the stream is not spilled, only its tail is kept */
  readonly spillPath: () => Promise<string>;
  /** the most bytes the spill file may hold (default DEFAULT_SPILL_LIMIT_BYTES) */
  readonly spillLimitBytes?: number;
  /** sees every chunk as it arrives (live progress); what it throws is ignored */
  readonly onChunk?: (chunk: Uint8Array) => void;
}

export interface Captured {
  /** the whole stream, or its last `limitBytes` starting on a UTF-8 boundary */
  readonly tail: Uint8Array;
  readonly totalBytes: number;
  readonly truncated: boolean;
  /** the complete stream, when truncated and the spill file was written in full */
  readonly file?: string;
  /** the most bytes held in memory at once (the bound the capture promises) */
  readonly peakRetainedBytes: number;
}

export const DEFAULT_SPILL_LIMIT_BYTES = 256 * 1024 * 1024;

/** Reads `stream` to its end (or its first error) and never rejects. */
export async function captureStream(stream: Readable, options: CaptureOptions): Promise<Captured> {
  // A limit that is not a finite number must not turn into "keep everything".
  const limit = Number.isFinite(options.limitBytes) ? Math.max(0, Math.floor(options.limitBytes)) : 0;
  const spillLimit = options.spillLimitBytes ?? DEFAULT_SPILL_LIMIT_BYTES;
  const chunks: Buffer[] = [];
  let retained = 0;
  let peak = 0;
  let total = 0;
  let spill: Spill | undefined;
  let spillFailed = false;

  try {
    for await (const value of stream) {
      const chunk = typeof value === "string" ? Buffer.from(value) : (value as Buffer);
      if (options.onChunk !== undefined) {
        try {
          options.onChunk(chunk);
        } catch {
          // a watcher of the output must not change what is captured
        }
      }
      total += chunk.length;
      chunks.push(chunk);
      retained += chunk.length;
      peak = Math.max(peak, retained);
      if (total > spillLimit && !spillFailed) {
        spillFailed = true;
        if (spill !== undefined) await spill.discard();
      }
      if (total > limit && !spillFailed) {
        if (spill === undefined) {
          // Nothing has been dropped yet, so `chunks` is the whole stream so far.
          spill = await openSpill(options.spillPath);
          if (spill === undefined || !(await spill.writeAll(chunks))) spillFailed = true;
        } else if (!(await spill.writeAll([chunk]))) {
          spillFailed = true;
        }
      }
      if (total > limit) {
        while (chunks.length > 1 && retained - (chunks[0]?.length ?? 0) >= limit) retained -= chunks.shift()?.length ?? 0;
      }
    }
  } catch {
    // A broken pipe ends the capture; what was read so far is the result.
  }

  const file = spill === undefined ? undefined : await spill.close();
  const truncated = total > limit;
  const all = Buffer.concat(chunks);
  const tail = truncated ? fromUtf8Boundary(all.subarray(Math.max(0, all.length - limit))) : all;
  return {
    tail,
    totalBytes: total,
    truncated,
    ...(file !== undefined && !spillFailed ? { file } : {}),
    peakRetainedBytes: peak,
  };
}

/** Drops the continuation bytes (10xxxxxx) a cut may have left at the start, at most three. */
export function fromUtf8Boundary(bytes: Uint8Array): Uint8Array {
  let start = 0;
  while (start < 3 && start < bytes.length && ((bytes[start] ?? 0) & 0xc0) === 0x80) start += 1;
  return bytes.subarray(start);
}

interface Spill {
  writeAll(chunks: readonly Uint8Array[]): Promise<boolean>;
  close(): Promise<string | undefined>;
  /** closes and removes the file (it will not hold the complete stream) */
  discard(): Promise<void>;
}

async function openSpill(spillPath: () => Promise<string>): Promise<Spill | undefined> {
  let path: string;
  let handle: FileHandle;
  try {
    path = await spillPath();
    handle = await open(path, "w", 0o600);
  } catch {
    return undefined;
  }
  let ok = true;
  return {
    async writeAll(chunks) {
      try {
        for (const chunk of chunks) {
          let offset = 0;
          while (offset < chunk.length) offset += (await handle.write(chunk, offset, chunk.length - offset)).bytesWritten;
        }
      } catch {
        ok = false;
      }
      return ok;
    },
    async close() {
      try {
        await handle.close();
      } catch {
        ok = false;
      }
      return ok ? path : undefined;
    },
    async discard() {
      ok = false;
      await handle.close().catch(() => undefined);
      await rm(path, { force: true }).catch(() => undefined);
    },
  };
}
