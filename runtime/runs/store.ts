// The run store: `<agent>/tmp/pi-recipes/runs/<run_id>/` holds one async run.
//
//   run.json     what to run (written once, before the run starts; read by the worker)
//   status.json  the run's fate, kept current by the supervisor and replaced atomically
//   stdout.log   everything the run's commands printed, as they print it; stderr.log their stderr,
//                appended step by step (both kept whether the run finishes, fails or is killed)
//   result.json  the text the call would have answered in the foreground (once finished)
//
// Every read goes through the FileSystem port the host built, so the store runs over memfs and
// the crash harness in tests as it does over the disk.
import { join } from "node:path";
import { type FileSystem } from "../../adapters/fs/FileSystem.js";
import { recordedCommand, recordedSupervisor, runGroupIsOurs } from "../../adapters/process/recorded.js";
import { checkIdentity, type ProcessIdentity } from "../../adapters/process/identity.js";
import type { Json } from "../../core/model.js";
import type { RunState, RunView } from "../../core/views/run-views.js";
import { runIdProblem } from "./run-id.js";

export const RUN_FILES = {
  spec: "run.json",
  status: "status.json",
  stdout: "stdout.log",
  stderr: "stderr.log",
  result: "result.json",
  /** each command's process group, as the worker starts it (runtime/runs/run-worker.ts) */
  groups: "groups",
} as const;

export const runsRootOf = (tmpRoot: string): string => join(tmpRoot, "runs");
export const runDirOf = (runsRoot: string, runId: string): string => join(runsRoot, runId);

/** `run.json`: everything the detached worker needs, since it shares nothing with its starter. */
export interface RunSpec {
  readonly run_id: string;
  readonly tool: string;
  /** the recipe file */
  readonly path: string;
  /** the recipe's resolved template graph */
  readonly template: Json;
  /** the assembled, normalized values (run_id, correlation_id, transport_context stripped) */
  readonly values: Readonly<Record<string, unknown>>;
  /** keys of `values` that are recipe-authored (they may hold placeholders of their own) */
  readonly authored: readonly string[];
  readonly cwd: string;
  readonly home: string;
  readonly tmp_root: string;
  /** the children's environment; absent: the worker's, which is the starter's */
  readonly env?: Readonly<Record<string, string>>;
  readonly kill_grace_ms: number;
  readonly max_parallel_branches?: number;
  readonly correlation_id?: string;
  readonly created_at: string;
  /** present: every step runs in this sandbox, and a worker that cannot read it runs nothing */
  readonly sandbox?: unknown;
  /** how the starting process accounted the launch (runtime/accounting.ts); a worker runs no
   *  record without it. Optional here so that the views still read records written before it. */
  readonly accounting?: string;
  /** the process that wrote this record and starts the run's supervisor (absent in records
   *  written before it was kept) */
  readonly starter?: ProcessIdentity;
}

/** `result.json`, written by the worker when the run ends on its own. */
export interface RunResult {
  readonly ok: boolean;
  readonly text: string;
  readonly code: number;
  readonly details: Readonly<Record<string, unknown>>;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

const decoder = new TextDecoder("utf-8");

/** The file's JSON; undefined when it is missing, unreadable or not (yet) valid JSON: a run's
 *  files are written while it is being created and read by anyone at any time. */
async function readJson(fs: FileSystem, path: string): Promise<unknown> {
  try {
    return JSON.parse(decoder.decode(await fs.readFile(path))) as unknown;
  } catch {
    return undefined;
  }
}

export async function readRunSpec(fs: FileSystem, runDir: string): Promise<RunSpec | undefined> {
  const v = await readJson(fs, join(runDir, RUN_FILES.spec));
  if (!isRecord(v) || typeof v["run_id"] !== "string" || typeof v["tool"] !== "string" || !isRecord(v["values"])) return undefined;
  if (typeof v["cwd"] !== "string" || typeof v["home"] !== "string" || typeof v["tmp_root"] !== "string" || !Array.isArray(v["authored"])) return undefined;
  return v as unknown as RunSpec;
}

const STATES: readonly string[] = ["running", "succeeded", "failed", "killed"];
const stateOf = (s: Record<string, unknown>): RunState => (STATES.includes(String(s["status"])) ? (s["status"] as RunState) : "running");
const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);
const str = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);

/** A "running" status whose supervisor and process group are both gone will never change: the
 * run died with its machine or was killed from outside. It is shown, and pruned, as failed. A
 * recorded pid that now names another process (pid reuse) counts as gone; one that cannot be
 * checked counts as alive. */
function staleRunning(status: Record<string, unknown>): boolean {
  const supervisor = recordedSupervisor(status);
  const supervisorState = supervisor === undefined ? "gone" : checkIdentity(supervisor);
  if (supervisorState === "same" || supervisorState === "unknown") return false;
  const command = recordedCommand(status);
  return command === undefined || !runGroupIsOurs(command);
}

/** How long after a record is written its supervisor may still be on its way to recording a
 *  start, once the process that started it is gone (a supervisor spawned just before). */
export const STARTING_GRACE_MS = 10_000;

/** A record without a status whose starting process is gone, and not just now: the run never
 *  started (that process was killed between writing the record and the supervisor's first word),
 *  and nothing will ever start it. */
function neverStarted(spec: RunSpec | undefined, now: number): boolean {
  if (spec?.starter === undefined) return false;
  const written = Date.parse(spec.created_at);
  if (!Number.isFinite(written) || now - written < STARTING_GRACE_MS) return false;
  const starter = checkIdentity(spec.starter);
  return starter === "gone" || starter === "other";
}

/** The run as its files tell it now; undefined when there is no such run (or no valid id). */
export async function readRun(fs: FileSystem, runsRoot: string, runId: string): Promise<RunView | undefined> {
  if (runIdProblem(runId) !== undefined) return undefined;
  const dir = runDirOf(runsRoot, runId);
  const spec = await readRunSpec(fs, dir);
  const statusPath = join(dir, RUN_FILES.status);
  let status = await readJson(fs, statusPath);
  if (spec === undefined && !isRecord(status)) return undefined;
  let stale = isRecord(status) ? stateOf(status) === "running" && staleRunning(status) : neverStarted(spec, Date.now());
  if (stale) {
    // the supervisor records the run's end and then exits: between the read above and the look
    // at its process it may have done both, so the file is read again before "gone" counts
    const again = await readJson(fs, statusPath);
    if (isRecord(again) && (stateOf(again) !== "running" || !isRecord(status))) {
      status = again;
      stale = false;
    }
  }
  const s = isRecord(status) ? status : {};
  let state = stateOf(s);
  let error = str(s["error"]) ?? undefined;
  if (stale) {
    state = "failed";
    error ??= isRecord(status)
      ? "the run's supervisor ended without recording an exit"
      : "the run never started: the process that started it ended before the run's supervisor recorded a start";
  }
  const result = await readJson(fs, join(dir, RUN_FILES.result));
  const correlation = str(s["correlation_id"]) ?? spec?.correlation_id;
  const signal = str(s["signal"]);
  return {
    run_id: runId,
    tool: str(s["tool"]) ?? spec?.tool ?? "?",
    status: state,
    pid: num(s["pid"]),
    pgid: num(s["pgid"]),
    exit_code: num(s["exit_code"]),
    started_at: str(s["started_at"]) ?? spec?.created_at ?? null,
    ended_at: str(s["ended_at"]),
    ...(correlation === undefined ? {} : { correlation_id: correlation }),
    ...(signal === null ? {} : { signal }),
    ...(error === undefined ? {} : { error }),
    ...(stale ? { stale: true } : {}),
    run_dir: dir,
    stdout_path: join(dir, RUN_FILES.stdout),
    stderr_path: join(dir, RUN_FILES.stderr),
    ...(isRecord(result) && typeof result["text"] === "string" ? { result_text: result["text"] } : {}),
  };
}

export interface RunEntry {
  readonly run_id: string;
  readonly dir: string;
  /** undefined while the run is being created (no run.json or status.json yet) */
  readonly run: RunView | undefined;
  /** when the run ended, else started, else the folder's mtime (ms) */
  readonly timeMs: number;
}

const timeOf = (iso: string | null): number | undefined => {
  if (iso === null) return undefined;
  const t = Date.parse(iso);
  return Number.isNaN(t) ? undefined : t;
};

/** Every folder of the runs root that could be a run, newest first. */
export async function listRuns(fs: FileSystem, runsRoot: string): Promise<RunEntry[]> {
  let names: string[];
  try {
    names = (await fs.readdir(runsRoot)).map((e) => e.name);
  } catch {
    return []; // no runs root yet (the usual case before the first async run), or not readable
  }
  const entries: RunEntry[] = [];
  for (const name of names) {
    if (runIdProblem(name) !== undefined) continue;
    const dir = runDirOf(runsRoot, name);
    let mtimeMs: number;
    try {
      const st = await fs.stat(dir);
      if (st.kind !== "dir") continue;
      mtimeMs = st.mtimeMs;
    } catch {
      continue; // removed while we looked
    }
    const run = await readRun(fs, runsRoot, name);
    const timeMs = (run === undefined ? undefined : timeOf(run.ended_at) ?? timeOf(run.started_at)) ?? mtimeMs;
    entries.push({ run_id: name, dir, run, timeMs });
  }
  return entries.sort((a, b) => b.timeMs - a.timeMs || (a.run_id < b.run_id ? -1 : a.run_id > b.run_id ? 1 : 0));
}
