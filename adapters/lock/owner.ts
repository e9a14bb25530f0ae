// The owner record of a lock and the one question asked about it: is its owner provably dead?
//
// A pid alone proves nothing once the process is gone (pids are reused), so the record also
// carries the process start time (/proc/<pid>/stat field 22, clock ticks since boot) and the
// boot id. A lock is reclaimed only on proof; every doubt counts as "alive", because stealing a
// live owner's lock breaks mutual exclusion while waiting for a doubtful one only costs a timeout.
import { readFileSync, readlinkSync } from "node:fs";
import { hostname } from "node:os";

export interface OwnerRecord {
  readonly pid: number;
  /** unique per acquisition; release removes the lock only while it still holds this token */
  readonly token: string;
  /** /proc/<pid>/stat field 22; absent where there is no /proc */
  readonly start_time?: string;
  /** /proc/sys/kernel/random/boot_id; absent where there is no /proc */
  readonly boot_id?: string;
  /** the pid namespace (readlink /proc/self/ns/pid); absent where there is no /proc */
  readonly pid_ns?: string;
  readonly hostname: string;
  /** ISO 8601 */
  readonly acquired_at: string;
}

/** What the liveness check needs to know about processes; injectable so tests can fake a host. */
export interface ProcessProbe {
  readonly pid: number;
  hostname(): string;
  bootId(): string | undefined;
  /** this process's pid namespace; undefined when unreadable (or not probed: fake hosts) */
  pidNamespace?(): string | undefined;
  /** undefined when unreadable: no /proc, no such pid, or the process just exited */
  startTime(pid: number): string | undefined;
  /** kill(pid, 0): "gone" only on ESRCH; EPERM means a process exists */
  signalZero(pid: number): "exists" | "gone" | "unknown";
}

/** Field 22 of a /proc/<pid>/stat line. Field 2 (comm) may hold spaces and parentheses, so
 *  fields are counted from after its last ")". */
export function parseStartTime(statLine: string): string | undefined {
  const close = statLine.lastIndexOf(")");
  if (close < 0) return undefined;
  const fields = statLine.slice(close + 1).trim().split(/\s+/);
  // fields[0] is field 3 (state), so field 22 is at index 19
  const value = fields[19];
  return value !== undefined && /^\d+$/.test(value) ? value : undefined;
}

const readProc = (path: string): string | undefined => {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
};

let cachedBootId: string | undefined | null = null;
let cachedPidNs: string | undefined | null = null;
// this process's own start time, read once: every lock it takes writes it into the owner record,
// and a process's start time never changes (the crash properties took thousands of locks a run,
// and reading /proc/self/stat was 1 s of their 48 s of CPU)
let ownStartTime: string | undefined | null = null;

export const nodeProcessProbe: ProcessProbe = {
  pid: process.pid,
  hostname: () => hostname(),
  bootId: () => {
    if (cachedBootId === null) cachedBootId = readProc("/proc/sys/kernel/random/boot_id")?.trim() || undefined;
    return cachedBootId;
  },
  pidNamespace: () => {
    if (cachedPidNs === null) {
      try {
        cachedPidNs = readlinkSync("/proc/self/ns/pid");
      } catch {
        cachedPidNs = undefined;
      }
    }
    return cachedPidNs;
  },
  startTime: (pid) => {
    if (pid === process.pid && ownStartTime !== null) return ownStartTime;
    const line = readProc(`/proc/${pid}/stat`);
    const start = line === undefined ? undefined : parseStartTime(line);
    // an own start time that could not be read is asked again next time
    if (pid === process.pid && start !== undefined) ownStartTime = start;
    return start;
  },
  signalZero: (pid) => {
    try {
      process.kill(pid, 0);
      return "exists";
    } catch (e) {
      const code = (e as { code?: unknown }).code;
      return code === "ESRCH" ? "gone" : code === "EPERM" ? "exists" : "unknown";
    }
  },
};

export function makeOwnerRecord(token: string, acquiredAtMs: number, probe: ProcessProbe = nodeProcessProbe): OwnerRecord {
  const startTime = probe.startTime(probe.pid);
  const bootId = probe.bootId();
  const pidNs = probe.pidNamespace?.();
  return {
    pid: probe.pid,
    token,
    ...(startTime === undefined ? {} : { start_time: startTime }),
    ...(bootId === undefined ? {} : { boot_id: bootId }),
    ...(pidNs === undefined ? {} : { pid_ns: pidNs }),
    hostname: probe.hostname(),
    acquired_at: new Date(acquiredAtMs).toISOString(),
  };
}

/** One line of compact JSON and a newline. */
export const encodeOwner = (record: OwnerRecord): string => `${JSON.stringify(record)}\n`;

const isPid = (u: unknown): u is number => typeof u === "number" && Number.isSafeInteger(u) && u > 0;
const optString = (u: unknown): boolean => u === undefined || typeof u === "string";

/** The record, or undefined for anything that is not a complete record (missing, half-written,
 *  foreign). A pid must be positive: kill(0) or kill(-n) would probe a process group. */
export function decodeOwner(text: string): OwnerRecord | undefined {
  let u: unknown;
  try {
    u = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof u !== "object" || u === null) return undefined;
  const r = u as Record<string, unknown>;
  if (!isPid(r["pid"]) || typeof r["token"] !== "string" || r["token"] === "") return undefined;
  if (typeof r["hostname"] !== "string" || typeof r["acquired_at"] !== "string") return undefined;
  if (!optString(r["start_time"]) || !optString(r["boot_id"]) || !optString(r["pid_ns"])) return undefined;
  return {
    pid: r["pid"],
    token: r["token"],
    ...(typeof r["start_time"] === "string" ? { start_time: r["start_time"] } : {}),
    ...(typeof r["boot_id"] === "string" ? { boot_id: r["boot_id"] } : {}),
    ...(typeof r["pid_ns"] === "string" ? { pid_ns: r["pid_ns"] } : {}),
    hostname: r["hostname"],
    acquired_at: r["acquired_at"],
  };
}

/**
 * True only on proof. The boot id is asked first: a record from another boot of this machine is
 * dead whatever its host name says (a host name may change across the reboot, and a lock must
 * not become permanent because of it). An unreadable boot id, ours or the record's, proves
 * nothing and the question falls to the pid. The pid may only be probed when it names a process
 * of our pid namespace: the same namespace on the same boot, or, for records without a
 * namespace, the same host name. Otherwise (containers sharing a kernel and a folder but not
 * their pids) nothing is provable and the lock is kept. Then: the pid does not exist (ESRCH),
 * or it now belongs to a process with another start time.
 *
 * A lock folder on a network file system shared by several machines is not supported: another
 * machine's boot id differs, so its live locks would look dead here.
 */
export function isOwnerProvablyDead(record: OwnerRecord, probe: ProcessProbe = nodeProcessProbe): boolean {
  const bootId = probe.bootId();
  const sameBoot = record.boot_id !== undefined && bootId !== undefined;
  if (sameBoot && record.boot_id !== bootId) return true;
  const pidNs = probe.pidNamespace?.();
  const comparablePids =
    sameBoot && record.pid_ns !== undefined && pidNs !== undefined ? record.pid_ns === pidNs : record.hostname === probe.hostname();
  if (!comparablePids) return false;
  const signal = probe.signalZero(record.pid);
  if (signal === "gone") return true;
  if (signal === "unknown" || record.start_time === undefined) return false;
  const startTime = probe.startTime(record.pid);
  // unreadable here usually means the process exited between the two probes: the next poll sees ESRCH
  return startTime !== undefined && startTime !== record.start_time;
}
