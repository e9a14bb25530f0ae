// Texts of async runs (`async: true` recipes): the answer of the starting call,
// `inspect target=run:<id> view=status|tail` and `message to=run:<id> type=control.kill`.
// Everything here renders facts the run store has already read; nothing is looked up.
import { oneLine, preview } from "./compact-text.js";

export type RunState = "running" | "succeeded" | "failed" | "killed";

/** One run as the store reads it from `<runs>/<run_id>/`. */
export interface RunView {
  readonly run_id: string;
  readonly tool: string;
  readonly status: RunState;
  readonly pid: number | null;
  readonly pgid: number | null;
  readonly exit_code: number | null;
  readonly started_at: string | null;
  readonly ended_at: string | null;
  readonly correlation_id?: string;
  readonly signal?: string;
  /** why the run could not start, or why its status is not what its file says */
  readonly error?: string;
  /** the file said "running" but nothing of the run is alive any more */
  readonly stale?: boolean;
  readonly run_dir: string;
  readonly stdout_path: string;
  readonly stderr_path: string;
  /** the text the run's tool call would have answered in the foreground (when finished) */
  readonly result_text?: string;
}

export interface RunTail {
  readonly lines: number;
  readonly stdout: readonly string[];
  readonly stderr: readonly string[];
}

const orDash = (v: string | number | null | undefined): string => (v === null || v === undefined ? "-" : String(v));

/** `run <id> tool=<t> status=<s> exit=<n> started=<iso> ended=<iso> pid=<p>` */
export function runStatusLine(run: RunView): string {
  return [
    `run ${run.run_id}`,
    `tool=${preview(run.tool, 64)}`,
    `status=${run.status}`,
    `exit=${orDash(run.exit_code)}`,
    `started=${orDash(run.started_at)}`,
    `ended=${orDash(run.ended_at)}`,
    `pid=${orDash(run.pid)}`,
  ].join(" ");
}

export const runNextActions = (runId: string, running: boolean): readonly string[] =>
  running
    ? [`inspect target=run:${runId} view=status`, `inspect target=run:${runId} view=tail`, `message to=run:${runId} type=control.kill`]
    : [`inspect target=run:${runId} view=tail`];

function detailLines(run: RunView): string[] {
  const lines = [`run_id: ${run.run_id}`, `run_dir: ${run.run_dir}`, `stdout: ${run.stdout_path}`, `stderr: ${run.stderr_path}`];
  if (run.correlation_id !== undefined) lines.push(`correlation_id: ${run.correlation_id}`);
  if (run.signal !== undefined) lines.push(`signal: ${run.signal}`);
  if (run.error !== undefined) lines.push(`error: ${oneLine(run.error)}`);
  return lines;
}

/** What an async tool call answers at once. */
export function runStartedText(run: RunView): string {
  return [runStatusLine(run), ...detailLines(run), `next: ${runNextActions(run.run_id, true).join(" | ")}`].join("\n");
}

/** `inspect target=run:<id> view=status` */
export function runStatusText(run: RunView): string {
  const lines = [runStatusLine(run), ...detailLines(run)];
  if (run.result_text !== undefined && run.result_text.trim() !== "") lines.push("result:", run.result_text.replace(/^\n+/, ""));
  lines.push(`next: ${runNextActions(run.run_id, run.status === "running").join(" | ")}`);
  return lines.join("\n");
}

function section(name: string, lines: readonly string[], wanted: number): string[] {
  if (lines.length === 0) return [`--- ${name}: (empty) ---`];
  const count = (n: number): string => `${n} line${n === 1 ? "" : "s"}`;
  const shown = lines.length < wanted ? count(lines.length) : `last ${count(wanted)}`;
  return [`--- ${name} (${shown}) ---`, ...lines];
}

/** `inspect target=run:<id> view=tail [lines=N]` */
export function runTailText(run: RunView, tail: RunTail): string {
  return [runStatusLine(run), ...section("stdout", tail.stdout, tail.lines), ...section("stderr", tail.stderr, tail.lines)].join("\n");
}

export type KillOutcome = "killed" | "not_running";

/** `message to=run:<id> type=control.kill` */
export function runKillText(run: RunView, outcome: KillOutcome): string {
  const head =
    outcome === "killed"
      ? `to=run:${run.run_id} type=control.kill message=sent delivered=true status=${run.status}`
      : `to=run:${run.run_id} type=control.kill message=not_sent reason=run_${run.status}`;
  return `${head}\n${runStatusLine(run)}`;
}
