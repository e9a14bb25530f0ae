// Is the process a record names still that process? A pid alone cannot say: once a run's process
// has died its pid may be given to any new process, and signalling that one would kill a
// stranger. So a run records, with each pid, the process's start time and the boot id (the same
// identity a lock owner records, adapters/lock/owner.ts), and nothing signals a recorded pid whose
// identity differs.
import { nodeProcessProbe, type ProcessProbe } from "../lock/owner.js";

export interface ProcessIdentity {
  readonly pid: number;
  /** /proc/<pid>/stat field 22; absent where there is no /proc */
  readonly start_time?: string;
  /** the boot the process ran in; absent where there is no /proc */
  readonly boot_id?: string;
}

/** "same": the recorded process (or, without /proc, a process with its pid: nothing better is
 *  knowable there); "gone": it no longer exists; "other": its pid now names another process;
 *  "unknown": it exists but its start time cannot be read now. */
export type Identity = "same" | "gone" | "other" | "unknown";

/** The identity of `pid` as this host sees it now; undefined fields where there is no /proc. */
export function identityOf(pid: number, probe: ProcessProbe = nodeProcessProbe): ProcessIdentity {
  const start = probe.startTime(pid);
  const boot = probe.bootId();
  return { pid, ...(start === undefined ? {} : { start_time: start }), ...(boot === undefined ? {} : { boot_id: boot }) };
}

export function checkIdentity(recorded: ProcessIdentity, probe: ProcessProbe = nodeProcessProbe): Identity {
  const boot = probe.bootId();
  if (recorded.boot_id !== undefined && boot !== undefined && recorded.boot_id !== boot) return "gone";
  const signal = probe.signalZero(recorded.pid);
  if (signal === "gone") return "gone";
  if (recorded.start_time === undefined) return signal === "exists" ? "same" : "unknown";
  const now = probe.startTime(recorded.pid);
  if (now === undefined) return probe.signalZero(recorded.pid) === "gone" ? "gone" : "unknown";
  return now === recorded.start_time ? "same" : "other";
}

/** A recorded identity from loosely typed JSON (a run's status file): undefined unless the pid is
 *  a positive integer. */
export function identityFrom(pid: unknown, startTime: unknown, bootId: unknown): ProcessIdentity | undefined {
  if (typeof pid !== "number" || !Number.isSafeInteger(pid) || pid <= 0) return undefined;
  return {
    pid,
    ...(typeof startTime === "string" && startTime !== "" ? { start_time: startTime } : {}),
    ...(typeof bootId === "string" && bootId !== "" ? { boot_id: bootId } : {}),
  };
}
