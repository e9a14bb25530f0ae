// Supervisor of one detached run: `node supervisor.mjs <runDir>`.
//
// Whoever starts an `async` run may be gone long before the run ends, and only a parent can
// learn a child's exit code. So this small process is the parent: it reads
// `<runDir>/command.json` ({command, args, cwd, env?, killGraceMs?, meta?}), starts the command in its
// own process group with stdout/stderr going straight to `stdout.log`/`stderr.log` (they
// survive even if this process is killed), and keeps `<runDir>/status.json` current, always
// replaced atomically so a reader never sees half a file. SIGTERM (or SIGINT/SIGHUP) here ends
// the command's whole group and records "killed".
//
// Every pid in status.json comes with its process's start time and the boot id, so that whoever
// signals the run later (control.kill, a stale-run check) can tell the run's process from a new
// process that got its pid after it died (adapters/process/identity.ts).
//
// Plain JavaScript on purpose: it runs with bare `node`, without a TypeScript build.
import { spawn } from "node:child_process";
import { closeSync, fsyncSync, openSync, readdirSync, readFileSync, renameSync, writeSync } from "node:fs";
import { join } from "node:path";

const runDir = process.argv[2];
if (runDir === undefined) {
  process.stderr.write("usage: supervisor.mjs <runDir>\n");
  process.exit(2);
}

// Field 22 of /proc/<pid>/stat, counted from after the last ")" of the command name (which may
// hold spaces and parentheses): the same reading as parseStartTime in adapters/lock/owner.ts.
function startTimeOf(pid) {
  try {
    const line = readFileSync(`/proc/${pid}/stat`, "latin1");
    const value = line.slice(line.lastIndexOf(")") + 1).trim().split(/\s+/)[19];
    return value !== undefined && /^\d+$/.test(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function bootId() {
  try {
    return readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim() || undefined;
  } catch {
    return undefined;
  }
}

let status = {
  status: "running",
  pid: null,
  pgid: null,
  exit_code: null,
  started_at: new Date().toISOString(),
  ended_at: null,
  supervisor_pid: process.pid,
  // JSON leaves out what is undefined (no /proc)
  supervisor_start_time: startTimeOf(process.pid),
  boot_id: bootId(),
};

function writeStatus(patch) {
  status = { ...status, ...patch };
  const tmp = join(runDir, `.status.json.${process.pid}.tmp`);
  const fd = openSync(tmp, "w", 0o644);
  try {
    writeSync(fd, `${JSON.stringify(status, null, 2)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, join(runDir, "status.json"));
}

function finish(patch) {
  writeStatus({ ...patch, ended_at: new Date().toISOString() });
  process.exit(0);
}

let spec;
try {
  spec = JSON.parse(readFileSync(join(runDir, "command.json"), "utf8"));
} catch (e) {
  finish({ status: "failed", exit_code: 1, error: `cannot read command.json: ${e.message}` });
}
// The starter's description of the run (its id, its tool) travels in every status written.
if (spec.meta !== null && typeof spec.meta === "object") status = { ...spec.meta, ...status };
const graceMs = typeof spec.killGraceMs === "number" && spec.killGraceMs >= 0 ? spec.killGraceMs : 5000;

let out;
let err;
let child;
try {
  out = openSync(join(runDir, "stdout.log"), "w", 0o600);
  err = openSync(join(runDir, "stderr.log"), "w", 0o600);
  child = spawn(spec.command, spec.args ?? [], {
    cwd: spec.cwd,
    env: spec.env ?? process.env,
    shell: false,
    detached: true,
    stdio: ["ignore", out, err],
  });
} catch (e) {
  failToStart(e);
} finally {
  // The child holds its own copies of the descriptors.
  if (out !== undefined) closeSync(out);
  if (err !== undefined) closeSync(err);
}

function failToStart(e) {
  try {
    const fd = openSync(join(runDir, "stderr.log"), "a", 0o600);
    writeSync(fd, `${e.message}\n`);
    closeSync(fd);
  } catch {
    // the status below still carries the message
  }
  finish({ status: "failed", exit_code: 1, error: e.message });
}

let killRequested = false;
let killing;

child.once("error", (e) => {
  if (child.pid === undefined) failToStart(e);
});
// the child cannot have been reaped yet (we are its parent and have not seen it exit), so its
// /proc entry is still the one we started
child.once("spawn", () => writeStatus({ status: "running", pid: child.pid, pgid: child.pid, start_time: startTimeOf(child.pid) }));
child.once("exit", async (code, signal) => {
  // Members the leader left behind belong to the run and end with it.
  if (groupAlive(child.pid)) await (killing ?? killGroup(child.pid));
  else if (killing !== undefined) await killing;
  // and so do the groups of the commands it started (each has one of its own): a leader killed
  // with SIGKILL could not end them
  await Promise.all(startedGroups().map((pgid) => killGroup(pgid)));
  const exitCode = code === null || (killRequested && code === 0) ? 1 : code;
  finish({
    status: killRequested ? "killed" : exitCode === 0 ? "succeeded" : "failed",
    exit_code: exitCode,
    ...(signal !== null ? { signal } : {}),
  });
});

for (const name of ["SIGTERM", "SIGINT", "SIGHUP"]) {
  process.on(name, () => {
    killRequested = true;
    if (child.pid !== undefined) killing ??= killGroup(child.pid);
  });
}

/** The process groups the child noted in the run's folder (a line each: the leader's pid and its
 *  start time) that are still those groups: the leader is the process noted, or it is gone and
 *  the group still has members (an id is not given to a new group while the old one exists). A
 *  pid that now names another process is never signalled. */
function startedGroups() {
  let text;
  try {
    text = readFileSync(join(runDir, "groups"), "latin1");
  } catch {
    return [];
  }
  const out = [];
  for (const line of text.split("\n")) {
    const [pid, start] = line.split(" ");
    const pgid = Number(pid);
    if (!Number.isSafeInteger(pgid) || pgid <= 1 || pgid === child.pid || out.includes(pgid)) continue;
    const leader = startTimeOf(pgid);
    const ours = leader === undefined ? groupAlive(pgid) : start !== undefined && start !== "" && leader === start && groupAlive(pgid);
    if (ours) out.push(pgid);
  }
  return out;
}

async function killGroup(pgid) {
  if (!signalGroup(pgid, "SIGTERM")) return;
  if (await waitGone(pgid, graceMs)) return;
  signalGroup(pgid, "SIGKILL");
  await waitGone(pgid, 2000);
}

function signalGroup(pgid, sig) {
  try {
    process.kill(-pgid, sig);
    return true;
  } catch {
    return false;
  }
}

async function waitGone(pgid, ms) {
  const deadline = Date.now() + ms;
  while (groupAlive(pgid)) {
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return true;
}

// Same rule as group.ts: zombies waiting for a late-reaping PID 1 do not count as alive.
function groupAlive(pgid) {
  try {
    process.kill(-pgid, 0);
  } catch (e) {
    if (e.code !== "EPERM") return false;
  }
  if (process.platform !== "linux") return true;
  let entries;
  try {
    entries = readdirSync("/proc");
  } catch {
    return true;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const text = readFileSync(`/proc/${entry}/stat`, "latin1");
      const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) === pgid && fields[0] !== "Z") return true;
    } catch {
      // the process ended while we looked
    }
  }
  return false;
}
