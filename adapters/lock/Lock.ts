// The Lock port: mutual exclusion across processes (and across async callers of one process),
// keyed by the canonical identity of a path (see canonical-path.ts), so a real path and a symlink
// alias of it exclude each other while unrelated paths never wait on each other.
//
// Re-entrancy: a lock is not re-entrant. `withLock` on a key that the same async context already
// holds through `withLock` rejects at once with `LockReentryError` instead of waiting for itself.
// A second `acquire` of a key this process already holds (outside that tracking, e.g. from an
// unrelated callback) simply queues behind the holder; if the holder is waiting for it, the
// waiter times out with a `LockTimeoutError` naming this process's own pid, never hangs.

export interface LockOptions {
  /** total wait, the in-process queue included; default 5000 ms */
  readonly timeoutMs?: number;
  /** the longest pause between two attempts; the backoff starts at 1 ms and doubles up to it.
   *  Default 25 ms. */
  readonly pollMs?: number;
}

export interface HeldLock {
  /** the path as the caller gave it */
  readonly path: string;
  readonly canonicalPath: string;
  /** removes the lock if this holder still owns it; idempotent */
  release(): Promise<void>;
}

export interface Lock {
  acquire(path: string, options?: LockOptions): Promise<HeldLock>;
  /** acquire, run `fn`, release in every case */
  withLock<A>(path: string, fn: () => A | Promise<A>, options?: LockOptions): Promise<A>;
}

export const DEFAULT_LOCK_TIMEOUT_MS = 5000;
export const DEFAULT_LOCK_POLL_MS = 25;

export interface LockHolder {
  readonly pid: number;
  /** ISO 8601 */
  readonly acquiredAt: string;
}

export class LockTimeoutError extends Error {
  override readonly name = "LockTimeoutError";
  readonly code = "ELOCKTIMEOUT";
  readonly path: string;
  readonly canonicalPath: string;
  readonly timeoutMs: number;
  /** undefined when the lock holds no readable owner record (or was freed at that instant) */
  readonly holder: LockHolder | undefined;

  constructor(path: string, canonicalPath: string, timeoutMs: number, holder: LockHolder | undefined, ownPid: number) {
    super(`Timed out after ${timeoutMs} ms waiting for the lock on ${path}; ${describeHolder(holder, ownPid)}`);
    this.path = path;
    this.canonicalPath = canonicalPath;
    this.timeoutMs = timeoutMs;
    this.holder = holder;
  }
}

const describeHolder = (holder: LockHolder | undefined, ownPid: number): string =>
  holder === undefined
    ? "held by an owner without a readable record"
    : `held by pid ${holder.pid}${holder.pid === ownPid ? " (this process)" : ""} since ${holder.acquiredAt}`;

export class LockReentryError extends Error {
  override readonly name = "LockReentryError";
  readonly code = "ELOCKREENTRY";
  readonly path: string;

  constructor(path: string) {
    super(`The lock on ${path} is already held by this call chain; locks are not re-entrant`);
    this.path = path;
  }
}

/** The lock folder may not be written by this user (permissions, a read-only mount). */
export class LockAccessError extends Error {
  override readonly name = "LockAccessError";
  readonly code = "ELOCKACCESS";
  readonly lockRoot: string;

  constructor(lockRoot: string, cause: unknown) {
    const detail = cause instanceof Error ? cause.message : String(cause);
    super(`Cannot take a lock in ${lockRoot}: this user may not write that folder (${detail}); the lock folder has the permissions of the folder it is in`, { cause });
    this.lockRoot = lockRoot;
  }
}
