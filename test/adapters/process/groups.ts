// Test-side view of process groups, independent of the adapter's own group.ts.
import { execFileSync } from "node:child_process";

/** Live (non-zombie) members of a process group, as `ps` sees them. Zombies are left out:
 *  a killed shell's children are re-parented to PID 1, which may reap them seconds later. */
export function liveMembers(pgid: number): number[] {
  const table = execFileSync("ps", ["-eo", "pid=,pgid=,stat="], { encoding: "utf8" });
  return table
    .split("\n")
    .map((line) => line.trim().split(/\s+/))
    .filter(([, group, stat]) => Number(group) === pgid && stat !== undefined && !stat.startsWith("Z"))
    .map(([pid]) => Number(pid));
}

/** True when `kill(-pgid, 0)` finds no process at all. */
export function groupSignalable(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code !== "ESRCH";
  }
}

/** The group is gone: ESRCH, or only zombies remain (see liveMembers). */
export const groupGone = (pgid: number): boolean => !groupSignalable(pgid) || liveMembers(pgid).length === 0;

/** Waits until `check` holds. What a test asserts with it is that the thing happens, never how
 *  fast: the wait gives up only after 20 s, far beyond what a loaded machine needs. */
export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export const text = (bytes: Uint8Array): string => Buffer.from(bytes).toString("utf8");
