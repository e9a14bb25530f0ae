// Runs that outlive the process that starts them (`async: true` recipes).
//
// `startDetached` is the bare form: a new session and process group, output straight into
// files, nothing tying it to us. Nobody can learn its exit code, though, so real runs use
// `startSupervised`: a tiny detached node process (supervisor.mjs) parents the command and
// records its fate in `status.json`.
import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, existsSync, openSync } from "node:fs";
import { readText, writeFileAtomic } from "../fs/FileSystem.js";
import { makeNodeFileSystem } from "../fs/node.js";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { killGroup } from "./group.js";
import { childEnvironment } from "./child-env.js";
import { checkIdentity } from "./identity.js";
import { recordedCommand, recordedSupervisor, runGroupIsOurs } from "./recorded.js";
import { spawned } from "./node-runner.js";
import { DEFAULT_KILL_GRACE_MS } from "./ProcessRunner.js";

export { groupAlive, isAlive, killGroup } from "./group.js";
export { recordedCommand, recordedSupervisor, runGroupIsOurs } from "./recorded.js";

// the run's files (command.json, status.json) go through the FileSystem port
const fs = makeNodeFileSystem();

export type Started<T> = ({ readonly ok: true } & T) | { readonly ok: false; readonly error: string };

export interface DetachedSpec {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  /** the complete environment; absent means ours */
  readonly env?: Readonly<Record<string, string>>;
}

export interface DetachedRun {
  readonly pid: number;
  /** the run's process group (it leads it, so pgid = pid) */
  readonly pgid: number;
}

/** Starts `command` in its own session with stdout/stderr written to the two files (truncated). */
export async function startDetached(spec: DetachedSpec & { readonly stdoutPath: string; readonly stderrPath: string }): Promise<Started<DetachedRun>> {
  let out: number | undefined;
  let err: number | undefined;
  let child: ChildProcess;
  try {
    out = openSync(spec.stdoutPath, "w", 0o600);
    err = openSync(spec.stderrPath, "w", 0o600);
    child = spawn(spec.command, [...spec.args], {
      cwd: spec.cwd,
      env: childEnvironment(spec.env),
      shell: false,
      detached: true,
      stdio: ["ignore", out, err],
    });
  } catch (e) {
    return { ok: false, error: errorMessage(e) };
  } finally {
    // The child got its own copies at spawn time.
    if (out !== undefined) closeSync(out);
    if (err !== undefined) closeSync(err);
  }
  const failure = await spawned(child);
  child.unref();
  if (failure !== undefined) return { ok: false, error: failure.message };
  const pid = child.pid ?? 0;
  return { ok: true, pid, pgid: pid };
}

export type SupervisedState = "running" | "succeeded" | "failed" | "killed";

/** `<runDir>/status.json`, as the supervisor writes it. */
export interface SupervisedStatus {
  readonly status: SupervisedState;
  /** the command's pid and process group; null when it never started */
  readonly pid: number | null;
  readonly pgid: number | null;
  readonly exit_code: number | null;
  readonly started_at: string;
  readonly ended_at: string | null;
  readonly supervisor_pid: number;
  /** the identities of the two pids (start time, boot id); absent where there is no /proc */
  readonly supervisor_start_time?: string;
  readonly start_time?: string;
  readonly boot_id?: string;
  readonly signal?: string;
  /** why the command could not start */
  readonly error?: string;
}

export interface SupervisedSpec extends DetachedSpec {
  /** created if missing; receives command.json, status.json, stdout.log, stderr.log, supervisor.log */
  readonly runDir: string;
  /** time between SIGTERM and SIGKILL when the run is killed (default 5000) */
  readonly killGraceMs?: number;
  /** fields copied into every status.json (e.g. the run id), so the file describes the run alone */
  readonly meta?: Readonly<Record<string, string | number | boolean>>;
}

/** How long the supervisor may take to record that the command started. */
const START_TIMEOUT_MS = 10_000;

/** Starts the command under a detached supervisor; resolves once status.json exists. */
export async function startSupervised(spec: SupervisedSpec): Promise<Started<{ readonly supervisorPid: number; readonly status: SupervisedStatus }>> {
  const supervisor = supervisorPath();
  if (supervisor === undefined) return { ok: false, error: "supervisor.mjs not found next to the process adapter" };
  let log: number | undefined;
  let child: ChildProcess;
  try {
    await fs.mkdir(spec.runDir, { recursive: true });
    const command = { command: spec.command, args: spec.args, cwd: spec.cwd, env: spec.env === undefined ? undefined : childEnvironment(spec.env), killGraceMs: spec.killGraceMs ?? DEFAULT_KILL_GRACE_MS, meta: spec.meta };
    await writeAtomically(join(spec.runDir, "command.json"), `${JSON.stringify(command, null, 2)}\n`);
    log = openSync(join(spec.runDir, "supervisor.log"), "w", 0o600);
    child = spawn(process.execPath, [supervisor, spec.runDir], {
      cwd: spec.runDir,
      // the supervisor passes its own environment on to the command when the spec has none
      env: childEnvironment(),
      shell: false,
      detached: true,
      stdio: ["ignore", "ignore", log],
    });
  } catch (e) {
    return { ok: false, error: errorMessage(e) };
  } finally {
    if (log !== undefined) closeSync(log);
  }
  let exitedEarly = false;
  child.once("exit", () => (exitedEarly = true));
  const failure = await spawned(child);
  child.unref();
  if (failure !== undefined) return { ok: false, error: failure.message };

  let status: SupervisedStatus | undefined;
  const poll = async (): Promise<boolean> => (status = await readSupervisedStatus(spec.runDir)) !== undefined || exitedEarly;
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (!(await poll()) && Date.now() < deadline) await sleep(10);
  // The supervisor may write its final status and exit in one go, before our last look.
  status ??= await readSupervisedStatus(spec.runDir);
  if (status === undefined) {
    const why = (await readText(fs, join(spec.runDir, "supervisor.log")).catch(() => "")).trim();
    return { ok: false, error: why === "" ? "supervisor did not report a status" : why };
  }
  return { ok: true, supervisorPid: child.pid ?? status.supervisor_pid, status };
}

/** The run's current status.json, or undefined when it is missing or unreadable. */
export async function readSupervisedStatus(runDir: string): Promise<SupervisedStatus | undefined> {
  try {
    const value: unknown = JSON.parse(await readText(fs, join(runDir, "status.json")));
    return isStatus(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Asks the supervisor to end the run (SIGTERM; it kills the command's group and records
 * "killed") and waits for the final status. If the supervisor itself is gone, the command's
 * group is killed here and "killed" recorded on its behalf. A recorded pid whose process is not
 * the recorded one any more (its pid was reused) is never signalled.
 */
export async function killSupervised(runDir: string, graceMs: number = DEFAULT_KILL_GRACE_MS): Promise<SupervisedStatus | undefined> {
  const current = await readSupervisedStatus(runDir);
  if (current === undefined || current.status !== "running") return current;
  const loose = current as unknown as Readonly<Record<string, unknown>>;
  const supervisor = recordedSupervisor(loose);
  if (supervisor !== undefined && checkIdentity(supervisor) === "same") {
    process.kill(supervisor.pid, "SIGTERM");
    let latest: SupervisedStatus | undefined = current;
    const ended = async (): Promise<boolean> => {
      latest = (await readSupervisedStatus(runDir)) ?? latest;
      return latest?.status !== "running" || checkIdentity(supervisor) !== "same";
    };
    const deadline = Date.now() + graceMs + 3000;
    while (!(await ended()) && Date.now() < deadline) await sleep(10);
    const final = await readSupervisedStatus(runDir);
    if (final !== undefined && final.status !== "running") return final;
  }
  const command = recordedCommand(loose);
  if (command !== undefined && runGroupIsOurs(command)) await killGroup(command.pid, graceMs);
  const killed: SupervisedStatus = { ...current, status: "killed", exit_code: current.exit_code ?? 1, ended_at: new Date().toISOString() };
  await writeAtomically(join(runDir, "status.json"), `${JSON.stringify(killed, null, 2)}\n`);
  return killed;
}

/** supervisor.mjs sits next to this module in the repo; a build that compiles to dist/ may not
 *  copy it, so the source tree's copy is the fallback. */
function supervisorPath(): string | undefined {
  const candidates = [new URL("./supervisor.mjs", import.meta.url), new URL("../../../adapters/process/supervisor.mjs", import.meta.url)];
  for (const url of candidates) {
    const path = fileURLToPath(url);
    if (existsSync(path)) return path;
  }
  return undefined;
}

const writeAtomically = (path: string, text: string): Promise<void> => writeFileAtomic(fs, path, text, { mode: 0o600 });

function isStatus(u: unknown): u is SupervisedStatus {
  if (typeof u !== "object" || u === null) return false;
  const s = (u as { status?: unknown }).status;
  return s === "running" || s === "succeeded" || s === "failed" || s === "killed";
}

const errorMessage = (e: unknown): string => (e instanceof Error ? e.message : String(e));
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
