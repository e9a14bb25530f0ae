// The Lock port over lock files: `<lockRoot>/<sha256(canonical path)>.lock`, one line of owner
// record (see owner.ts).
//
// Acquire. The record is written to a private temp file first and then hard-linked to the lock
// name: link is create-exclusive and atomic, so a lock file never exists without its complete
// record. Where the file system refuses hard links, the lock falls back to open("wx") + write,
// and a crash between the two leaves a lock without a readable record. Such a lock counts as
// alive for `unownedGraceMs` (default 2 s) from its mtime and is reclaimable after that;
// without the grace period a crash there would block its key forever, and without it a slow
// writer could be robbed. A lock file that bears our own token is ours, whatever path led to it.
//
// Reclaim. Only a lock whose owner is provably dead (owner.ts) is removed, never one that is
// merely old: a slow owner keeps its lock. Removal happens inside a boundary, the file
// `<lock>.reclaim` (created the same way), so that two reclaimers cannot both judge the same dead
// lock and the later one remove the replacement the earlier one's winner just created. Inside,
// the lock is re-read, must be unchanged, is renamed aside to a unique name, checked once more and
// only then deleted; if it turns out not to be the lock judged dead it is linked back. A boundary
// left by a reclaimer that died inside it is cleared by the same rule.
//
// In-process. Callers in one process queue per key before touching the file, so they take turns
// without polling each other; the timeout covers the queue and the file together.
//
// Where. The lock root is always given by the caller and lives beside the data it guards (the
// hosts use `<recipe root>/.locks`, see runtime/agent-paths.ts), never in the OS temp folder:
// processes with different TMPDIRs (systemd PrivateTmp, sandboxes) must still meet on one file.
//
// Several local users. The lock folder gets the permission bits of the folder it is created in,
// sticky included (adapters/fs/folder-modes.ts, lockFolderModeIn), so exactly the users who may
// write the data may take its locks, whatever their umask; lock records are
// world-readable, so every such user can judge whether an owner is dead. A folder
// they may not write gives a `LockAccessError` naming it, never an internal error. In a sticky
// folder (mode 1777, like /tmp) a user cannot remove another user's dead lock: that waits like a
// live one and the timeout names the holder.
//
// Stray temps. A process that died between writing its record temp and linking it (or between
// moving a dead lock aside and deleting it) leaves a dot-file. The first acquire of each Lock
// removes those whose owner record is provably dead, or unreadable and older than the grace
// period.
import { AsyncLocalStorage } from "node:async_hooks";
import { nodeCrypto } from "../node-crypto.js";
import { basename, dirname, join } from "node:path";
import { hasCode, type FileSystem, type FsError } from "../fs/FileSystem.js";
import { lockFolderModeIn, mkdirLikeParent } from "../fs/folder-modes.js";
import { makeNodeFileSystem } from "../fs/node.js";
import { canonicalLockPath, lockKey } from "./canonical-path.js";
import { DEFAULT_LOCK_POLL_MS, DEFAULT_LOCK_TIMEOUT_MS, LockAccessError, LockReentryError, LockTimeoutError, type HeldLock, type Lock, type LockOptions } from "./Lock.js";
import { decodeOwner, encodeOwner, isOwnerProvablyDead, makeOwnerRecord, nodeProcessProbe, type OwnerRecord, type ProcessProbe } from "./owner.js";

export interface FileLockOptions {
  readonly fs?: FileSystem;
  /** the folder of the lock files, beside the data they guard (never the OS temp folder) */
  readonly lockRoot: string;
  readonly probe?: ProcessProbe;
  /** how long a lock without a readable owner record counts as alive, from its mtime */
  readonly unownedGraceMs?: number;
  readonly newToken?: () => string;
}

export const DEFAULT_UNOWNED_GRACE_MS = 2000;

/** record temps and moved-aside dead locks: what a crash can leave in the lock root */
const STRAY_NAME = /^\..+\.(tmp|stale)$/;

/** Lock records must be readable by every user who may take the lock (see "Several local users"). */
const RECORD_MODE = 0o644;

export const lockFilePath = (lockRoot: string, canonicalPath: string): string => join(lockRoot, `${lockKey(canonicalPath)}.lock`);

/** A lock file as read at one moment. */
interface Seen {
  readonly text: string;
  readonly record: OwnerRecord | undefined;
  readonly mtimeMs: number;
  readonly ino: number | undefined;
}

const sameLock = (a: Seen, b: Seen): boolean => a.text === b.text && a.mtimeMs === b.mtimeMs && a.ino === b.ino;

// garbage in a lock file is an unreadable record, not an error
const lenient = new TextDecoder("utf-8");

const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

/** Resolves true when `p` settles within `ms`, false otherwise; a `p` that has already settled
 *  wins even when no time is left. */
async function within(p: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<boolean>((done) => (timer = setTimeout(() => done(false), Math.max(0, ms))));
  try {
    return await Promise.race([p.then(() => true), expired]);
  } finally {
    clearTimeout(timer);
  }
}

/** One turn per caller and key, in arrival order. `leave` is idempotent; a caller that gives up
 *  while still queued leaves too, and the next one then waits for the one before it. */
function makeQueue() {
  const tails = new Map<string, Promise<void>>();
  return (key: string): { ready: Promise<void>; leave: () => void } => {
    const ready = tails.get(key) ?? Promise.resolve();
    let leave = (): void => undefined;
    const mine = new Promise<void>((done) => (leave = done));
    const tail = ready.then(() => mine);
    tails.set(key, tail);
    void tail.then(() => {
      if (tails.get(key) === tail) tails.delete(key);
    });
    return { ready, leave };
  };
}

interface HeldInChain {
  readonly canonicalPath: string;
  active: boolean;
}

// Hard links fail this way on file systems without them (FAT, some FUSE and network mounts).
const linkUnsupported = (e: unknown): boolean => hasCode(e, "EPERM", "UNKNOWN", "EINVAL");

export function makeFileLock(options: FileLockOptions): Lock {
  const fs = options.fs ?? makeNodeFileSystem();
  const root = options.lockRoot;
  const probe = options.probe ?? nodeProcessProbe;
  const graceMs = options.unownedGraceMs ?? DEFAULT_UNOWNED_GRACE_MS;
  const newToken = options.newToken ?? ((): string => nodeCrypto().randomUUID());
  const enterQueue = makeQueue();
  // The locks the current async context holds, to refuse re-entry. Node keeps a hook on every
  // promise the process creates for as long as an AsyncLocalStorage is enabled, and enabled it
  // stays, after its run too: in a process that took one lock, all later promise work paid for
  // the hook (a tenth of the test workers' own CPU, docs/performance.md). So it is disabled again
  // when no section of this lock is running: only an active entry ever refuses a lock, and every
  // entry is inactive by then.
  const chain = new AsyncLocalStorage<readonly HeldInChain[]>();
  let sectionsRunning = 0;

  async function look(file: string): Promise<Seen | undefined> {
    let st;
    try {
      st = await fs.stat(file);
    } catch (e) {
      if (hasCode(e, "ENOENT")) return undefined;
      throw e;
    }
    try {
      const text = lenient.decode(await fs.readFile(file));
      return { text, record: decodeOwner(text), mtimeMs: st.mtimeMs, ino: st.ino };
    } catch (e) {
      if (hasCode(e, "ENOENT")) return undefined;
      // a file we may not read (another user's, not made by this code) is a lock without a
      // readable record: the grace period decides, so it cannot block the key forever
      if (hasCode(e, "EACCES", "EPERM")) return { text: "", record: undefined, mtimeMs: st.mtimeMs, ino: st.ino };
      throw e;
    }
  }

  const denied = (e: unknown): e is FsError => hasCode(e, "EACCES", "EPERM");

  /** Creates the lock root with the permission bits of its parent (see "Several local users"). */
  async function ensureRoot(): Promise<void> {
    try {
      await mkdirLikeParent(fs, root, { recursive: true }, lockFolderModeIn);
    } catch (e) {
      if (denied(e)) throw new LockAccessError(root, e);
      throw e;
    }
  }

  /** Removes stray temps of dead processes; best effort, once per Lock (see acquireFile). */
  async function sweepStrays(): Promise<void> {
    const entries = await fs.readdir(root).catch(() => []);
    for (const entry of entries) {
      if (entry.kind !== "file" || !STRAY_NAME.test(entry.name)) continue;
      const path = join(root, entry.name);
      const seen = await look(path).catch(() => undefined);
      if (seen !== undefined && isStale(seen)) await fs.rm(path, { force: true }).catch(() => undefined);
    }
  }

  const isStale = (seen: Seen): boolean =>
    seen.record !== undefined ? isOwnerProvablyDead(seen.record, probe) : Date.now() - seen.mtimeMs > graceMs;

  async function writeTemp(tmp: string, text: string): Promise<void> {
    try {
      await fs.writeFile(tmp, text, { flag: "w", mode: RECORD_MODE });
    } catch (e) {
      if (denied(e)) throw new LockAccessError(root, e);
      if (!hasCode(e, "ENOENT")) throw e;
      // the lock root is missing (first use, or someone removed it)
      await ensureRoot();
      await fs.writeFile(tmp, text, { flag: "w", mode: RECORD_MODE });
    }
    // the umask may have taken read bits away
    if (fs.chmod !== undefined) await fs.chmod(tmp, RECORD_MODE).catch(() => undefined);
  }

  /** Creates `file` holding a fresh record with `token`; false when it already exists. */
  async function create(file: string, token: string): Promise<boolean> {
    const text = encodeOwner(makeOwnerRecord(token, Date.now(), probe));
    const tmp = join(dirname(file), `.${basename(file)}.${token}.tmp`);
    await writeTemp(tmp, text);
    try {
      await fs.link(tmp, file);
      return true;
    } catch (e) {
      if (hasCode(e, "EEXIST")) return false;
      // awaited here, so that its failure is not left unhandled while the temp is removed
      if (linkUnsupported(e)) return await createExclusive(file, token, text);
      throw e;
    } finally {
      await fs.rm(tmp, { force: true }).catch(() => undefined);
    }
  }

  async function createExclusive(file: string, token: string, text: string): Promise<boolean> {
    let handle;
    try {
      handle = await fs.open(file, "wx", RECORD_MODE);
    } catch (e) {
      if (hasCode(e, "EEXIST")) return false;
      if (denied(e)) throw new LockAccessError(root, e);
      throw e;
    }
    try {
      if (fs.chmod !== undefined) await fs.chmod(file, RECORD_MODE).catch(() => undefined);
      await handle.write(text);
    } catch (e) {
      // ours, or half-written; a complete record of another owner (who reclaimed it meanwhile) stays
      const record = (await look(file))?.record;
      if (record === undefined || record.token === token) await fs.rm(file, { force: true }).catch(() => undefined);
      throw e;
    } finally {
      await handle.close().catch(() => undefined);
    }
    // a writer slower than the grace period may have been reclaimed in the meantime
    return (await look(file))?.record?.token === token;
  }

  /** Removes `file` if it still holds our token. */
  async function removeIfOwned(file: string, token: string): Promise<void> {
    if ((await look(file))?.record?.token !== token) return;
    await fs.unlink(file).catch((e: unknown) => {
      if (!hasCode(e, "ENOENT")) throw e;
    });
  }

  /** Moves `file` aside and deletes it, unless what was moved is not `expected`: that goes back.
   *  False when this user may not move it (another user's file in a sticky folder). */
  async function removeAside(file: string, expected: Seen): Promise<boolean> {
    const aside = join(dirname(file), `.${basename(file)}.${newToken()}.stale`);
    try {
      await fs.rename(file, aside);
    } catch (e) {
      if (hasCode(e, "ENOENT")) return true;
      if (denied(e)) return false;
      throw e;
    }
    const moved = await look(aside);
    if (moved !== undefined && !sameLock(moved, expected)) await fs.link(aside, file).catch(() => undefined);
    await fs.rm(aside, { force: true });
    return true;
  }

  async function clearStaleBoundary(boundary: string): Promise<void> {
    const seen = await look(boundary);
    if (seen !== undefined && isStale(seen)) await removeAside(boundary, seen);
  }

  /** "mine": the lock bears our token; "gone": try again now; "held": wait. */
  async function reclaim(file: string, ownToken: string): Promise<"mine" | "gone" | "held"> {
    const seen = await look(file);
    if (seen === undefined) return "gone";
    if (seen.record?.token === ownToken) return "mine";
    if (!isStale(seen)) return "held";
    const boundary = `${file}.reclaim`;
    const boundaryToken = newToken();
    if (!(await create(boundary, boundaryToken))) {
      await clearStaleBoundary(boundary);
      return "held";
    }
    try {
      const again = await look(file);
      if (again === undefined) return "gone";
      if (!sameLock(seen, again) || !isStale(again)) return "held";
      return (await removeAside(file, again)) ? "gone" : "held";
    } finally {
      await removeIfOwned(boundary, boundaryToken);
    }
  }

  async function timeoutError(path: string, canonicalPath: string, file: string, timeoutMs: number): Promise<LockTimeoutError> {
    const record = (await look(file).catch(() => undefined))?.record;
    const holder = record === undefined ? undefined : { pid: record.pid, acquiredAt: record.acquired_at };
    return new LockTimeoutError(path, canonicalPath, timeoutMs, holder, probe.pid);
  }

  let rootReady = false;
  async function acquireFile(file: string, token: string, deadline: number, pollMs: number): Promise<boolean> {
    if (!rootReady) {
      await ensureRoot();
      await sweepStrays();
      rootReady = true;
    }
    for (let pause = 1; ; ) {
      if (await create(file, token)) return true;
      const state = await reclaim(file, token);
      if (state === "mine") return true;
      const left = deadline - Date.now();
      if (left <= 0) return false;
      if (state === "gone") continue;
      await sleep(Math.min(pause, left));
      pause = Math.min(pause * 2, pollMs);
    }
  }

  async function acquire(path: string, opts: LockOptions = {}): Promise<HeldLock> {
    const timeoutMs = opts.timeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
    const pollMs = Math.max(1, opts.pollMs ?? DEFAULT_LOCK_POLL_MS);
    const deadline = Date.now() + timeoutMs;
    const canonicalPath = await canonicalLockPath(fs, path);
    if (chain.getStore()?.some((h) => h.active && h.canonicalPath === canonicalPath)) throw new LockReentryError(path);
    const file = lockFilePath(root, canonicalPath);
    const turn = enterQueue(canonicalPath);
    try {
      const token = newToken();
      const got = (await within(turn.ready, deadline - Date.now())) && (await acquireFile(file, token, deadline, pollMs));
      if (!got) throw await timeoutError(path, canonicalPath, file, timeoutMs);
      let released = false;
      const release = async (): Promise<void> => {
        if (released) return;
        released = true;
        try {
          await removeIfOwned(file, token);
        } finally {
          turn.leave();
        }
      };
      return { path, canonicalPath, release };
    } catch (e) {
      turn.leave();
      throw e;
    }
  }

  async function withLock<A>(path: string, fn: () => A | Promise<A>, opts: LockOptions = {}): Promise<A> {
    const held = await acquire(path, opts);
    const entry: HeldInChain = { canonicalPath: held.canonicalPath, active: true };
    let result: A;
    sectionsRunning++;
    try {
      result = await chain.run([...(chain.getStore() ?? []), entry], fn);
    } catch (e) {
      entry.active = false;
      if (--sectionsRunning === 0) chain.disable();
      // the section's own error matters more than a failed release
      await held.release().catch(() => undefined);
      throw e;
    }
    entry.active = false;
    if (--sectionsRunning === 0) chain.disable();
    await held.release();
    return result;
  }

  return { acquire, withLock };
}
