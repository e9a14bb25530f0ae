// What a run's status.json says about its processes, and whether they are still the run's: the
// read side of adapters/process/detached.ts, kept apart so that reading runs (the run store,
// `inspect`) does not load the code that spawns and signals them.
import { groupAlive } from "./group.js";
import { checkIdentity, identityFrom, type ProcessIdentity } from "./identity.js";

/** The recorded identities of a run's supervisor and of its command (the group leader). Loose
 *  input, since status.json is read by several places; undefined where no pid is recorded. */
export const recordedSupervisor = (s: Readonly<Record<string, unknown>>): ProcessIdentity | undefined =>
  identityFrom(s["supervisor_pid"], s["supervisor_start_time"], s["boot_id"]);
export const recordedCommand = (s: Readonly<Record<string, unknown>>): ProcessIdentity | undefined =>
  identityFrom(s["pgid"], s["start_time"], s["boot_id"]);

/** Whether the run's process group is still the run's: its leader is the recorded process, or
 *  the leader is gone and the group still has members (a group id is not given to a new process
 *  while its group exists). A leader pid that now names another process, or one that cannot be
 *  checked, is never the run's. */
export function runGroupIsOurs(leader: ProcessIdentity): boolean {
  const state = checkIdentity(leader);
  return state === "same" || (state === "gone" && groupAlive(leader.pid) && checkIdentity(leader) === "gone");
}
