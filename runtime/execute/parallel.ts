// A parallel node: every branch gets the same stdin, at most `concurrency` run at once, and the
// results are joined in array order (docs/templates.md, "How a template runs").
import * as E from "fp-ts/lib/Either.js";
import type { ObjectNode, ProgramNode } from "../../core/tool/program.js";
import type { FailureScope } from "../../core/template/controls.js";
import { resolveConcurrency, resolveFailure, resolveMinSuccessful } from "../../core/template/controls.js";
import type { Context } from "../../core/template/context.js";
import { controlScope } from "../../core/template/context.js";
import { QUORUM_NOT_MET, lastChars, renderCommands } from "../../core/template/report.js";
import { appendLine } from "./leaf.js";
import { EMPTY_BYTES, bytesOf, synthetic, text, widest } from "./results.js";
import type { BranchReport, NodeResult, Run, SoftQuorum } from "./run-state.js";
import { alsoEndedBy, must, TemplateError } from "./run-state.js";
import type { TemplateFailure } from "../../core/template/failure.js";

export type ExecNode = (node: ProgramNode, context: Context, stdin: Uint8Array | undefined, run: Run, isRoot: boolean) => Promise<NodeResult>;

export const ALL_UNUSABLE = "all parallel branches failed or produced empty output";
const EVIDENCE_CHARS = 1000;

export const fanoutMessage = (n: number, max: number): string =>
  `Command template parallel fanout ${n} exceeds limit ${max}; set PI_RECIPES_MAX_PARALLEL_BRANCHES (or the older PI_ACTORS_MAX_PARALLEL_BRANCHES) to override intentionally.`;

const branchLabel = (branch: ProgramNode, index: number): string =>
  branch.kind === "object" && branch.label !== undefined ? branch.label : `branch ${index + 1}`;

const status = (r: NodeResult): BranchReport["status"] => (r.code === 0 ? "done" : r.killed ? "timeout" : "failed");

function branchReport(label: string, r: NodeResult, stdout: Uint8Array): BranchReport {
  const st = status(r);
  const out = text(stdout);
  // a branch whose complete output could not be read back is not evidence anyone can use
  const usable = st === "done" && stdout.length > 0 && r.stdoutUnreadable === undefined;
  const reason: BranchReport["failureReason"] =
    st === "done" ? (usable ? undefined : "empty_output") : r.killed ? "timeout_or_killed" : r.stderr.trim() === "" ? "nonzero_exit_empty_stderr" : "nonzero_exit";
  return {
    code: r.code,
    command: renderCommands(r.commands),
    ...(reason === undefined ? {} : { failureReason: reason }),
    killed: r.killed,
    label,
    status: st,
    ...(r.stderr === "" ? {} : { stderr: lastChars(r.stderr, EVIDENCE_CHARS) }),
    stderrBytes: r.stderrBytes,
    stderrCapturedBytes: r.stderrCapturedBytes,
    ...(r.stderrFile === undefined ? {} : { stderrFile: r.stderrFile }),
    ...(r.stderrTruncated ? { stderrTruncated: true } : {}),
    ...(out === "" ? {} : { stdout: lastChars(out, EVIDENCE_CHARS) }),
    stdoutBytes: stdout.length,
    stdoutCapturedBytes: r.stdoutCapturedBytes,
    ...(r.stdoutFile === undefined ? {} : { stdoutFile: r.stdoutFile }),
    ...(r.stdoutTruncated ? { stdoutTruncated: true } : {}),
    usable,
  };
}

function joinSection(report: BranchReport, stdout: Uint8Array, stderr: string): string {
  const head = `--- branch: ${report.label} status: ${report.status} ---`;
  if (report.status === "done") return `${head}\n${text(stdout)}`;
  let section = `${head}\nexit: ${report.code}`;
  if (stdout.length > 0) section += `\nrejected_stdout: ${text(stdout)}`;
  if (stderr !== "") section += `\nstderr: ${lastChars(stderr, EVIDENCE_CHARS)}`;
  return section;
}

/** Runs `count` jobs with at most `width` at once; results in job order. A job that throws (a
 *  template error, the run's command limit) ends the pool: no further job starts, `halt` ends the
 *  running ones, and the first error is thrown once every one of them has settled, so no branch
 *  goes on starting processes after the call has answered. */
async function pool<T>(count: number, width: number, job: (index: number) => Promise<T>, halt: () => void): Promise<T[]> {
  const results = new Array<T>(count);
  let next = 0;
  let thrown: { readonly error: unknown } | undefined;
  const worker = async (): Promise<void> => {
    while (next < count && thrown === undefined) {
      const i = next;
      next += 1;
      try {
        results[i] = await job(i);
      } catch (error) {
        if (thrown === undefined) {
          thrown = { error };
          halt();
        }
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(width, count)) }, worker));
  if (thrown !== undefined) throw thrown.error;
  return results;
}

export async function runParallel(
  node: ObjectNode,
  branches: readonly ProgramNode[],
  context: Context,
  stdin: Uint8Array | undefined,
  run: Run,
  exec: ExecNode,
  isRoot = false,
): Promise<NodeResult> {
  const n = branches.length;
  const step = node.label;
  if (n > run.fanoutLimit) throw new TemplateError(fanoutMessage(n, run.fanoutLimit), step);
  const scope = controlScope(context, run.runtime);
  const check = <A>(r: E.Either<TemplateFailure, A>): A => must(r, step);
  const concurrency = check(resolveConcurrency(node.concurrency, scope, n));
  const minimum = check(resolveMinSuccessful(node.min_successful, scope, n));
  const own = check(resolveFailure(node.failure));

  // the branches run under a signal of their own as well, fired when one of them throws
  const halting = new AbortController();
  const branchRun = alsoEndedBy(run, halting.signal);
  const results = await pool(n, concurrency, (i) => exec(branches[i]!, context, stdin, branchRun, false), () => halting.abort());
  const reports: BranchReport[] = [];
  const sections: string[] = [];
  const stderrs: string[] = [];
  let rootFailure: NodeResult | undefined;
  results.forEach((r, i) => {
    const branch = branches[i]!;
    // a skipped branch contributes empty output (not the stdin it would pass on in a sequence)
    const stdout = r.skipped ? EMPTY_BYTES : r.stdout;
    const report = branchReport(branchLabel(branch, i), r, stdout);
    reports.push(report);
    sections.push(joinSection(report, stdout, r.stderr));
    if (r.stderr !== "") stderrs.push(r.stderr);
    if (r.code !== 0) {
      run.trace.nonCritical.push({ code: r.code, command: report.command, killed: r.killed });
      const branchFailure = branch.kind === "object" ? resolveFailure(branch.failure) : E.right<string, FailureScope>("continue");
      const effective = widest(r.scope, r.critical ? "root" : undefined, E.isRight(branchFailure) ? branchFailure.right : undefined, own);
      if (effective === "root" && rootFailure === undefined) rootFailure = r;
    }
  });
  run.trace.branches.push(...reports);

  const usable = reports.filter((b) => b.usable).length;
  const done = reports.filter((b) => b.status === "done").length;
  const unmet = minimum !== undefined && usable < minimum;
  const quorum: SoftQuorum = {
    coverage: n === 0 ? 0 : done / n,
    degraded: usable < n,
    done,
    expected: n,
    failed: n - done,
    usable: minimum === undefined ? usable > 0 : usable >= minimum,
  };
  run.trace.softQuorum = quorum;
  const commands = results.flatMap((r) => r.commands);
  if (rootFailure !== undefined) return { ...rootFailure, commands, scope: "root", critical: true };

  if (minimum !== undefined) {
    const state = usable < minimum ? "insufficient_data" : usable === n ? "complete" : "degraded";
    sections.unshift(`--- parallel_status: ${state} usable: ${usable} expected: ${n} minimum: ${minimum} ---`);
  }
  const join = bytesOf(sections.join("\n"));
  const joinedStderr = stderrs.join("\n");
  const anyFailed = reports.some((b) => b.status !== "done");
  // what the node was for did not happen: its quorum was missed, or (without one) every branch failed
  const missed = minimum === undefined ? n > 0 && done === 0 : unmet;
  // the root has nothing after it to go on to: a miss there fails the call, whatever `failure`
  // says (as a root sequence of one step does), so a result never reads as success for it
  const escalate = own === "root" ? unmet : own === "branch" ? (minimum === undefined ? anyFailed || usable === 0 : unmet) : isRoot && missed;
  const firstFailedCode = results.find((r) => r.code !== 0)?.code ?? 1;
  const quorumLine = unmet ? `${QUORUM_NOT_MET}: usable ${usable}/${n}, minimum ${minimum}` : undefined;
  if (!escalate) {
    // going on (`failure: continue`), the result still names the miss, as it names a failed step
    if (missed) {
      const why = quorumLine ?? `every branch failed (${n})`;
      run.continued.push({ command: step === undefined ? "parallel node" : `parallel node ${step}`, code: firstFailedCode, killed: false, stderr: why });
    }
    return synthetic(0, join, joinedStderr, { commands });
  }

  let stderr = joinedStderr;
  if (usable === 0) stderr = appendLine(stderr, ALL_UNUSABLE);
  if (quorumLine !== undefined) stderr = appendLine(stderr, quorumLine);
  const scopeNow = own === "continue" ? "root" : own;
  return synthetic(firstFailedCode, join, stderr, {
    commands,
    scope: scopeNow,
    critical: scopeNow === "root",
    ...(step === undefined ? {} : { failedStep: step }),
  });
}
