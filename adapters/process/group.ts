// Process and process-group liveness and termination (POSIX).
//
// A killed child's own children are re-parented to PID 1 and stay zombies until PID 1 reaps
// them, which some init processes do late (seconds). A zombie still answers `kill(pid, 0)`,
// so on Linux a process or group counts as alive only while /proc shows a member that is not
// a zombie; elsewhere `kill(…, 0)` is the whole answer.
import { readdirSync, readFileSync } from "node:fs";

const HAS_PROC = process.platform === "linux";

/** Sends a signal to every member of a group; false when the group is gone. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/** True while a process exists that is not a zombie (a process we may not signal counts). */
export function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (!answers(pid)) return false;
  if (!HAS_PROC) return true;
  const stat = procStat(pid);
  return stat === undefined ? answers(pid) : stat.state !== "Z";
}

/** True while the group has a member that is not a zombie. */
export function groupAlive(pgid: number): boolean {
  if (!Number.isInteger(pgid) || pgid <= 0) return false;
  if (!answers(-pgid)) return false;
  if (!HAS_PROC) return true;
  return procGroupHasLiveMember(pgid);
}

/** Polls until the group is gone or `timeoutMs` passes; true when gone. */
export async function waitGroupGone(pgid: number, timeoutMs: number): Promise<boolean> {
  return waitUntil(() => !groupAlive(pgid), timeoutMs);
}

export async function waitUntil(done: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + (Number.isFinite(timeoutMs) ? Math.max(0, timeoutMs) : 0);
  let pause = 5;
  for (;;) {
    if (done()) return true;
    if (Date.now() >= deadline) return false;
    await sleep(Math.min(pause, Math.max(1, deadline - Date.now())));
    pause = Math.min(pause * 2, 25);
  }
}

/** How long we wait for SIGKILL to take effect before giving up on a group. */
const AFTER_KILL_MS = 2000;

/**
 * SIGTERM to the whole group, SIGKILL after `graceMs` if a member is still alive, then wait
 * (bounded) for the group to be gone. True when no live member remains.
 */
export async function killGroup(pgid: number, graceMs: number): Promise<boolean> {
  if (!signalGroup(pgid, "SIGTERM")) return true;
  if (await waitGroupGone(pgid, Math.max(0, graceMs))) return true;
  signalGroup(pgid, "SIGKILL");
  return waitGroupGone(pgid, AFTER_KILL_MS);
}

function answers(target: number): boolean {
  try {
    process.kill(target, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

interface ProcStat {
  readonly state: string;
  readonly pgrp: number;
}

function procStat(pid: number): ProcStat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "latin1");
    // The command name is in parentheses and may itself contain spaces or ')'.
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return { state: fields[0] ?? "", pgrp: Number(fields[2]) };
  } catch {
    return undefined;
  }
}

function procGroupHasLiveMember(pgid: number): boolean {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return true;
  }
  for (const entry of entries) {
    const first = entry.charCodeAt(0);
    if (first < 48 || first > 57) continue;
    const stat = procStat(Number(entry));
    if (stat !== undefined && stat.pgrp === pgid && stat.state !== "Z") return true;
  }
  return false;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
