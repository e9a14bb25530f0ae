// From a finished run to what the agent sees: the text, truncated with the full body saved under
// `<agent>/tmp/pi-recipes/outputs/`, and the details object (docs/templates.md, "How a template
// runs").
import { join } from "node:path";
import { hasCode, type FileSystem } from "../../adapters/fs/FileSystem.js";
import { randomIds } from "../../adapters/clock/Clock.js";
import type { Json } from "../../core/model.js";
import { failure, success, type CommandResult } from "../../core/result.js";
import { leaves } from "../../core/template/graph.js";
import {
  collapseFailures, continuedFailureLines, failureReason, finalText, listedCommands, partialStreams, renderCommands, successBody, truncateBody, truncateFailure, truncateFailureBytes, truncateSuccessBytes, MAX_OUTPUT_BYTES, type Truncated,
} from "../../core/template/report.js";
import { compileTemplate } from "../../core/compile/compile-template.js";
import { warningTexts } from "../../core/compile/recipe-warning.js";
import type { Execution } from "./execute.js";
import { text } from "./results.js";
import { narrowOwnFolder, PRIVATE_FILE, PRIVATE_FOLDER } from "./private-folder.js";
import { isUtf8 } from "node:buffer";
import type { BranchReport, NodeResult, Trace } from "./run-state.js";

interface ReportOf {
  /** the tool name (or `spawn`), also the saved file's prefix */
  readonly tool: string;
  /** what ran: the recipe path for a recipe, the inline template otherwise */
  readonly template: Json;
  /** the graph, for warnings and to tell one-step templates from many */
  readonly graph: Json;
}

/** Where a truncated output's full text is saved: `<tmpRoot>/outputs/`, written through `fs`;
 *  without a tmpRoot it is not saved. */
export type ReportTarget = ReportOf & ({ readonly tmpRoot: string; readonly fs: FileSystem } | { readonly tmpRoot?: undefined });

/** Characters a file name can safely hold; the rest (hyphens included) become `_`. */
export const sanitizeFilePart = (name: string): string => name.replace(/[^A-Za-z0-9_]/g, "_") || "tool";

// A saved output holds whatever the command printed, secrets included: like an async run's
// folder, `outputs/`, each folder in it and each file are this user's alone (0700, 0600),
// whatever the umask (runtime/execute/private-folder.ts says which folders are narrowed).
export { PRIVATE_FILE, PRIVATE_FOLDER } from "./private-folder.js";

/** A new folder `<prefix><random id>` of this call's own (mkdir is the atomic claim), private. */
async function freshDir(fs: FileSystem, prefix: string): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    const dir = `${prefix}${randomIds.next()}`;
    try {
      await fs.mkdir(dir);
      await fs.chmod?.(dir, PRIVATE_FOLDER);
      return dir;
    } catch (e) {
      if (!hasCode(e, "EEXIST") || attempt >= 8) throw e;
    }
  }
}

/** Where the full text went, or why it could not be saved (the error's own words: the path and
 *  the cause, such as a folder this user may not write or a full disk). */
type Saved = { readonly path: string } | { readonly error: string };

async function saveFullOutput(target: ReportTarget, kind: string, body: string | Uint8Array): Promise<Saved> {
  if (target.tmpRoot === undefined) return { error: "no folder for saved outputs in this host" };
  try {
    const outputs = join(target.tmpRoot, "outputs");
    await target.fs.mkdir(outputs, { recursive: true });
    await narrowOwnFolder(target.fs, outputs);
    const dir = await freshDir(target.fs, join(outputs, "tool-output-"));
    const file = join(dir, `${sanitizeFilePart(target.tool)}-${kind}.txt`);
    await target.fs.writeFile(file, body, { flag: "wx", mode: PRIVATE_FILE });
    return { path: file };
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
}

const publicBranch = ({ usable: _usable, ...report }: BranchReport): Omit<BranchReport, "usable"> => report;

// Built by assignment in the order the keys have always had: it runs on every call, where a chain
// of conditional spreads costs more than the rest of the report.
function evidence(result: NodeResult, trace: Trace): Record<string, unknown> {
  const out: Record<string, unknown> = {
    // a process a signal ended has no exit code: null, never the 1 the text shows for it
    code: result.code !== 0 && result.noExitCode === true ? null : result.code,
    command: renderCommands(result.commands),
    killed: result.killed,
    stdoutBytes: result.stdoutBytes,
    stdoutCapturedBytes: result.stdoutCapturedBytes,
    stderrBytes: result.stderrBytes,
    stderrCapturedBytes: result.stderrCapturedBytes,
  };
  // `command` joins several with `&&` as it always has; the list says what ran, one by one
  if (result.commands.length > 1) {
    const { steps, more } = listedCommands(result.commands);
    out["steps"] = [...steps];
    if (more > 0) out["stepsLeftOut"] = more;
  }
  if (result.stdoutFile !== undefined) out["stdoutFile"] = result.stdoutFile;
  if (result.stderrFile !== undefined) out["stderrFile"] = result.stderrFile;
  if (result.stdoutTruncated) out["stdoutTruncated"] = true;
  if (result.stderrTruncated) out["stderrTruncated"] = true;
  if (trace.branches.length !== 0) out["branches"] = trace.branches.map(publicBranch);
  if (trace.nonCritical.length !== 0) {
    const nonCritical = collapseFailures(trace.nonCritical);
    if (nonCritical.length !== 0) out["nonCriticalFailures"] = nonCritical;
  }
  if (trace.softQuorum !== undefined) out["softQuorum"] = trace.softQuorum;
  if (trace.continued.length !== 0) out["continuedFailures"] = [...trace.continued];
  return out;
}

/** The text with a line for each step that failed while its sequence went on (after the body and
 * any truncation notice, so that truncating a long output never hides them). */
function withContinued(text: string, trace: Trace): string {
  return trace.continued.length === 0 ? text : `${text}\n\n${continuedFailureLines(trace.continued).join("\n")}`;
}

// The graph is the tool's own template on every call of that tool: its warnings are found once,
// keyed by the object, or by the text for a one-leaf template (bounded: spawned inline templates
// may each be new).
const warningsOf = new WeakMap<object, readonly string[]>();
const warningsOfText = new Map<string, readonly string[]>();
const TEXT_WARNINGS_LIMIT = 1024;
function graphWarnings(graph: Json): readonly string[] {
  if (typeof graph === "string") {
    let w = warningsOfText.get(graph);
    if (w === undefined) {
      if (warningsOfText.size >= TEXT_WARNINGS_LIMIT) warningsOfText.clear();
      warningsOfText.set(graph, (w = warningTexts(compileTemplate(graph).warnings)));
    }
    return w;
  }
  if (typeof graph !== "object" || graph === null) return warningTexts(compileTemplate(graph).warnings);
  let w = warningsOf.get(graph);
  if (w === undefined) warningsOf.set(graph, (w = warningTexts(compileTemplate(graph).warnings)));
  return w;
}

/** A step is named in failure texts only when the template has more than one: with one, the
 * tool is the step. */
export const namesSteps = (graph: Json): boolean => leaves(graph).length > 1;

/** The text of a call whose template its `when` skipped as a whole. */
export const NOTHING_RAN = "Nothing ran: the template's `when` condition is false (details.skipped).";

/** The text of an error that stopped the run before or between commands. */
export function errorText(message: string, step: string | undefined, graph: Json): string {
  return step !== undefined && namesSteps(graph) ? `${message}\nstep: ${step}` : message;
}

export function reportExecution(execution: Execution, target: ReportTarget): Promise<CommandResult> {
  try {
    const r = reportNow(execution, target);
    return r instanceof Promise ? r : Promise.resolve(r);
  } catch (e) {
    return Promise.reject(e);
  }
}

/** reportExecution without a promise when nothing is saved (the usual case: the call path takes
 * this one, so that a call pays for no promise it does not need). */
export function reportNow(execution: Execution, target: ReportTarget): CommandResult | Promise<CommandResult> {
  if (execution.kind === "error") {
    const details: Record<string, unknown> = { tool: target.tool, template: target.template, error: execution.message };
    if (execution.step !== undefined) details["step"] = execution.step;
    return failure(errorText(execution.message, execution.step, target.graph), details);
  }
  const { result, trace } = execution;
  // checked once (a stdout may be hundreds of MB): the report reads valid UTF-8 from its bytes
  const utf8 = result.stdout.length === 0 || isUtf8(result.stdout);
  const r = reportText(execution, target, evidence(result, trace), utf8);
  // bytes that are no UTF-8 text (a binary file, another encoding) reach the agent as U+FFFD:
  // the result says so, rather than passing the damaged text off as what the command printed
  if (utf8) return r;
  const note = notUtf8(result.stdout.length);
  return r instanceof Promise ? r.then(note) : note(r);
}

/** The note a result whose stdout is no UTF-8 text ends with, and its flag. */
export const NOT_UTF8 = "(stdout is not UTF-8 text: the bytes that are not show as U+FFFD (\uFFFD) above)";
/** What the note adds to a successful result that was cut: the sizes in its notice are of the
 *  decoded text, and the saved file holds the bytes. */
export const notUtf8Sizes = (bytes: number): string => `(the sizes above are of that text; the command printed ${bytes} bytes, and the saved file holds them as printed)`;
const notUtf8 = (bytes: number) => (r: CommandResult): CommandResult => ({
  ...r,
  text: `${r.text}\n\n${NOT_UTF8}${r.ok && r.details["truncated"] === true ? `\n${notUtf8Sizes(bytes)}` : ""}`,
  details: { ...r.details, stdoutNotUtf8: true },
});

function reportText(execution: Execution & { readonly kind: "done" }, target: ReportTarget, details: Record<string, unknown>, utf8: boolean): CommandResult | Promise<CommandResult> {
  const { result, trace } = execution;
  // a long output is reported from its bytes: only the part shown is decoded, and a saved output
  // is written from them (decoded whole, it is as large again in the heap, and once more when
  // written out); bytes that are no UTF-8 text are shown as their decoded text shows them
  const fromBytes = utf8 && result.stdout.length > MAX_OUTPUT_BYTES;
  if (result.code === 0) {
    // the whole template skipped by its `when`: "(no output)" would read as a command that ran
    if (result.skipped) {
      details["skipped"] = true;
      return succeeded(target, truncateBody(NOTHING_RAN), undefined, details, trace);
    }
    if (fromBytes) {
      const { truncated, body: range } = truncateSuccessBytes(result.stdout);
      if (truncated.truncated) return saveThenReport(target, "stdout", result.stdout.subarray(range.start, range.end), truncated, details, result, trace);
      return succeeded(target, truncated, undefined, details, trace);
    }
    // decoded once: a long output is as long again as a string
    const whole = successBody(text(result.stdout));
    const body = truncateBody(whole);
    // bytes that are no UTF-8 text are saved as the command printed them: their decoded text
    // (U+FFFD for each byte that is not) would be neither the output nor its size
    if (body.truncated) return saveThenReport(target, "stdout", utf8 ? whole : result.stdout, body, details, result, trace);
    return succeeded(target, body, undefined, details, trace);
  }
  const tail = result.failedStep !== undefined && namesSteps(target.graph) ? `\n\nstep: ${result.failedStep}` : "";
  const cut = fromBytes ? truncateFailureBytes(result.code, result.killed, result.stderr, result.stdout, tail, result.signal) : undefined;
  const body = cut ?? truncateFailure(result.code, result.killed, result.stderr, text(result.stdout), tail, result.signal);
  if (result.signal !== undefined && !result.killed) details["signal"] = result.signal;
  if (result.timeoutMs !== undefined) details["timeoutMs"] = result.timeoutMs;
  if (body.truncated) return saveThenReport(target, "error", body.full, body, details, result, trace);
  return failed(target, body, undefined, details, result, trace);
}

async function saveThenReport(
  target: ReportTarget, kind: "stdout" | "error", full: string | Uint8Array, body: Truncated, details: Record<string, unknown>, result: NodeResult, trace: Trace,
): Promise<CommandResult> {
  const saved = await saveFullOutput(target, kind, full);
  return kind === "stdout" ? succeeded(target, body, saved, details, trace, partialOf(result)) : failed(target, body, saved, details, result, trace);
}

/** The saved file's path in `details.fullOutputPath`, or why there is none in
 *  `details.fullOutputNotSaved`; the text for the notice. */
function noteSaved(saved: Saved | undefined, details: Record<string, unknown>): { readonly path?: string; readonly error?: string } {
  if (saved === undefined) return {};
  if ("path" in saved) {
    details["fullOutputPath"] = saved.path;
    return saved;
  }
  details["fullOutputNotSaved"] = saved.error;
  return saved;
}

/** What the saved text lacks: stdout read back from its spill file is whole, but one over the
 *  spill limit (no file) kept only its end, and stderr is never read back (its end is kept; its
 *  spill file, when there is one, holds all of it). */
const partialOf = (r: NodeResult): string | undefined =>
  !r.stdoutTruncated && !r.stderrTruncated
    ? undefined
    : partialStreams([
        { name: "stdout", truncated: r.stdoutTruncated === true && r.stdoutFile === undefined, bytes: r.stdoutBytes, kept: r.stdoutCapturedBytes },
        { name: "stderr", truncated: r.stderrTruncated === true, bytes: r.stderrBytes, kept: r.stderrCapturedBytes, file: r.stderrFile },
      ]);

function succeeded(target: ReportTarget, body: Truncated, saved: Saved | undefined, details: Record<string, unknown>, trace: Trace, partial?: string): CommandResult {
  const warnings = graphWarnings(target.graph);
  const { path, error } = noteSaved(saved, details);
  details["template"] = target.template;
  if (warnings.length !== 0) details["templateWarnings"] = [...warnings];
  details["tool"] = target.tool;
  details["truncated"] = body.truncated;
  return success(withContinued(finalText(body, path, partial, error), trace), details);
}

function failed(
  target: ReportTarget, body: Truncated, saved: Saved | undefined, details: Record<string, unknown>, result: NodeResult, trace: Trace,
): CommandResult {
  const { path, error } = noteSaved(saved, details);
  details["template"] = target.template;
  details["tool"] = target.tool;
  details["truncated"] = body.truncated;
  details["failureReason"] = failureReason(result.stderr, trace.branches, result.timeoutMs !== undefined);
  if (result.failedStep !== undefined) details["step"] = result.failedStep;
  return failure(withContinued(finalText(body, path, partialOf(result), error), trace), details);
}
