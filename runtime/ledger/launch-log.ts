// This process's append-only launch log, `.usage/launches/<pid>-<start>-<id>.log`: one compact
// JSON line per record, each written by a single append on a file no other process writes, so
// counting needs no lock. Lines:
//   {"n":0,"owner":{…}}                           who writes the log (for the liveness check)
//   {"n":k,"b":1,"t":ms}                          a launch entered the fence (announcement)
//   {"n":k,"x":b}                                 that launch did not count (rejected, fence closed)
//   {"n":k,"l":b,"path","name","fp","at"[,"u"]}   that launch counted; `u` {"c":calls[,"t":time]}
//                                                 the launches the recipe carried from pi-actors
//   {"n":k,"c":1}                                 the log is closed (rotated); nothing follows
// `n` is the line number, increasing in append order, so a fold's watermark is one number.
// Each line is sealed: `<8 hex digits of the sha256 of the JSON> <JSON>`. Log lines are appended
// without an fsync, so after a power failure a line may hold garbage; a seal that does not match
// drops the line rather than counting a launch of a path the garbage made up. (Unsealed lines,
// written by earlier versions, are still read.)
import { join } from "node:path";
import { sha256Bytes } from "../crypto-sha256.js";
import { hasCode, type FileHandle, type FileSystem } from "../../adapters/fs/FileSystem.js";
import { decodeOwner, makeOwnerRecord, type OwnerRecord, type ProcessProbe } from "../../adapters/lock/owner.js";
import type { LaunchEntry } from "../../core/ledger/fold.js";
import { carriedUsage, type CarriedUsage } from "../../core/ledger/carried-usage.js";

export interface LaunchFields {
  readonly path: string;
  readonly name: string;
  readonly fp: string;
  readonly at: string;
}

const sealOf = (json: string): string => sha256Bytes(json).slice(0, 8);
const sealed = (record: Readonly<Record<string, unknown>>): string => {
  const json = JSON.stringify(record);
  return `${sealOf(json)} ${json}\n`;
};

/** The JSON of a log line whose seal matches (or of an unsealed line); undefined for garbage. */
function unsealed(line: string): string | undefined {
  if (line.startsWith("{")) return line;
  return line.length > 9 && line[8] === " " && line.slice(0, 8) === sealOf(line.slice(9)) ? line.slice(9) : undefined;
}

export class LaunchLog {
  private handle: FileHandle | undefined;
  private current: string | undefined;
  private line = 0;
  private tail: Promise<unknown> = Promise.resolve();
  /** launches between their begin line and their outcome line */
  inflight = 0;
  /** counted launches since this process last folded */
  sinceFold = 0;

  constructor(
    private readonly fs: FileSystem,
    private readonly dir: string,
    private readonly probe: ProcessProbe,
    private readonly now: () => number,
    private readonly newId: () => string,
  ) {}

  /** the id of the log this process appends to now, if it has one */
  get id(): string | undefined {
    return this.current;
  }

  get lines(): number {
    return this.line;
  }

  /** Creates this process's next log with its owner line and `first` (line 1) in one write:
   *  every launch of a command-line call opens a log, and each file system call is a round trip
   *  through the thread pool. The launches folder exists after the first launch under a root, so
   *  the log is opened at once and the folder made only when the open says it is missing. */
  private async open(first: Readonly<Record<string, unknown>>): Promise<void> {
    const start = this.probe.startTime(this.probe.pid) ?? "0";
    const id = `${this.probe.pid}-${start}-${this.newId()}`;
    const path = join(this.dir, `${id}.log`);
    let handle: FileHandle;
    try {
      handle = await this.fs.open(path, "a");
    } catch (e) {
      if (!hasCode(e, "ENOENT")) throw e;
      await this.fs.mkdir(this.dir, { recursive: true });
      handle = await this.fs.open(path, "a");
    }
    try {
      const owner = makeOwnerRecord(id, this.now(), this.probe);
      await handle.write(sealed({ n: 0, owner }) + sealed({ n: 1, ...first }));
    } catch (e) {
      await handle.close().catch(() => undefined);
      throw e;
    }
    this.current = id;
    this.line = 1;
    this.handle = handle;
  }

  /** Appends one record after every earlier one; resolves with its line number. A failed write
   *  abandons the log (its last line may be torn), so the next record starts a fresh one. */
  append(record: Readonly<Record<string, unknown>>): Promise<number> {
    // appends run one after another (`tail`), so a log is never opened twice at once
    const run = async (): Promise<number> => {
      const handle = this.handle;
      if (handle === undefined) {
        await this.open(record);
        return 1;
      }
      const n = this.line + 1;
      try {
        await handle.write(sealed({ n, ...record }));
      } catch (e) {
        this.abandon();
        throw e;
      }
      this.line = n;
      return n;
    };
    const result = this.tail.then(run, run);
    this.tail = result.catch(() => undefined);
    return result;
  }

  private abandon(): void {
    const h = this.handle;
    this.handle = undefined;
    this.current = undefined;
    void h?.close().catch(() => undefined);
  }

  /** Closes the handle (at exit, or when a test is done); the log stays open for appends by a
   *  later `append`, which starts a new file. */
  async close(): Promise<void> {
    await this.tail;
    const h = this.handle;
    this.handle = undefined;
    this.current = undefined;
    await h?.close().catch(() => undefined);
  }

  /** Closes the log for good (a final `c` line) so a fold may delete it; the next launch opens
   *  a new one. Only while no launch is between its begin and outcome lines. */
  async rotate(): Promise<void> {
    if (this.handle === undefined || this.inflight > 0) return;
    await this.append({ c: 1 }).catch(() => undefined);
    this.abandon();
  }
}

// ---- reading logs (any process's) ----

export interface ParsedLog {
  readonly id: string;
  readonly owner: OwnerRecord | undefined;
  readonly closed: boolean;
  readonly launches: readonly LaunchEntry[];
  /** begin lines without an outcome: launches inside the fence right now (or abandoned), with
   *  the time they began */
  readonly open: ReadonlyMap<number, number>;
}

const isCount = (u: unknown): u is number => typeof u === "number" && Number.isSafeInteger(u) && u >= 0;

/** The carried usage of a launch line (`u`), in the form carriedUsage accepts. */
function carriedOf(u: unknown): CarriedUsage | undefined {
  if (typeof u !== "object" || u === null || Array.isArray(u)) return undefined;
  const { c, t } = u as Record<string, unknown>;
  return carriedUsage({ calls: c, ...(typeof t === "string" ? { last_called: t } : {}) });
}

/** The `u` field of a launch line for the carried usage, or nothing. */
export const carriedField = (carried: CarriedUsage | undefined): Readonly<Record<string, unknown>> =>
  carried === undefined ? {} : { u: { c: carried.calls, ...(carried.last_called === undefined ? {} : { t: carried.last_called }) } };

/** Parses a log's text; lines that are not complete records (a torn last line) are skipped. */
export function parseLog(id: string, text: string): ParsedLog {
  let owner: OwnerRecord | undefined;
  let closed = false;
  const launches: LaunchEntry[] = [];
  const open = new Map<number, number>();
  for (const line of text.split("\n")) {
    const json = line === "" ? undefined : unsealed(line);
    if (json === undefined) continue;
    let r: Record<string, unknown>;
    try {
      const u: unknown = JSON.parse(json);
      if (typeof u !== "object" || u === null || Array.isArray(u)) continue;
      r = u as Record<string, unknown>;
    } catch {
      continue;
    }
    const n = r["n"];
    if (!isCount(n)) continue;
    if (n === 0 && r["owner"] !== undefined) owner = decodeOwner(JSON.stringify(r["owner"]));
    else if (r["b"] !== undefined) open.set(n, isCount(r["t"]) ? r["t"] : 0);
    else if (isCount(r["x"])) open.delete(r["x"]);
    else if (isCount(r["l"])) {
      open.delete(r["l"]);
      const { path, name, fp, at } = r;
      if (typeof path === "string" && typeof name === "string" && typeof fp === "string" && typeof at === "string") {
        const carried = carriedOf(r["u"]);
        launches.push({ log: id, seq: n, key: path, name, fingerprint: fp, at, ...(carried === undefined ? {} : { carried }) });
      }
    } else if (r["c"] !== undefined) closed = true;
  }
  return { id, owner, closed, launches, open };
}

export const LOG_SUFFIX = ".log";
