// The detached body of an async run: `node run-worker.js <runDir>`, started by the supervisor
// (adapters/process/supervisor.mjs), which owns status.json and points our stdout/stderr at the
// run's logs. We run the recipe's whole template graph from `<runDir>/run.json`, exactly as a
// foreground call would. While it runs, every command's stdout goes to stdout.log as it is
// printed (so `inspect view=tail` shows progress) and each command's stderr is appended to
// stderr.log as it ends. The logs keep everything every command printed, whether the run
// finishes, fails or is killed: they are never replaced by the run's final stdout (in a sequence
// that is only the last step's, and nothing at all for a killed run). The answer a foreground call
// would have given goes to result.json; we exit with the run's code.
//
// The commands run in process groups of their own (the ProcessRunner's rule), so the
// supervisor's SIGTERM to our group would miss them: SIGTERM here aborts the run instead, and
// the runner ends each command's group before we exit.
//
// This file is a process entry, so it is its own composition root: it builds the node file
// system and process runner it runs with, as a host does, and hands them down.
import { join } from "node:path";
import { writeFileAtomic, type FileSystem } from "../../adapters/fs/FileSystem.js";
import { makeNodeFileSystem } from "../../adapters/fs/node.js";
import { nodeProcessRunner } from "../../adapters/process/node-runner.js";
import { confinedRunner, isPreparedSandbox } from "../../adapters/process/bwrap.js";
import { makeProcessRunner, type ProcessRunner } from "../../adapters/process/ProcessRunner.js";
import { authored, type Values } from "../../core/template/substitute.js";
import * as E from "fp-ts/lib/Either.js";
import { accountedEarlier } from "../accounting.js";
import { launch } from "../launch.js";
import { reportExecution } from "../execute/execution-report.js";
import { readRunSpec, RUN_FILES, type RunResult, type RunSpec } from "./store.js";
import { programOf } from "../../core/tool/program.js";

const STDOUT = process.stdout;
const STDERR = process.stderr;
// Our stdout and stderr are the run's log files (the supervisor opened them), and writes to a
// file are synchronous in Node, so what is written is in the log before we exit. A log that
// cannot be written reports an error event: it must not end the run.
for (const stream of [STDOUT, STDERR]) stream.on("error", () => undefined);

function write(stream: NodeJS.WriteStream, data: Uint8Array | string): void {
  stream.write(data);
}

/** Copies live stdout to stdout.log; a log we cannot write must not change the run's outcome. */
const liveStdout = (chunk: Uint8Array): void => {
  try {
    write(STDOUT, chunk);
  } catch {
    // the final stdout still replaces the log when the run ends
  }
};

/** Where each command's process group is noted as it starts (the runner writes it, see
 *  Invocation.groupLog): every command runs in a group of its own, so when this worker dies
 *  without ending them (killed with SIGKILL), the supervisor ends those groups from this list
 *  (adapters/process/supervisor.mjs). */
let groupLog: string | undefined;

/** The runner, with every command's stdout copied to our stdout (stdout.log) as it is printed,
 *  and its stderr appended to our stderr (stderr.log) as it ends. */
function loggingRunner(inner: ProcessRunner): ProcessRunner {
  return makeProcessRunner(`${inner.name}+log`, async (invocation) => {
    const result = await inner.run({ ...invocation, onStdout: liveStdout, ...(groupLog === undefined ? {} : { groupLog }) });
    try {
      if (result.stderr.length > 0) {
        write(STDERR, result.stderr);
        if (result.stderr[result.stderr.length - 1] !== 0x0a) write(STDERR, "\n");
      }
      if (result.stderrFile !== undefined) write(STDERR, `[stderr truncated; full stream: ${result.stderrFile}]\n`);
    } catch {
      // a log we cannot write must not change the run's outcome
    }
    return result;
  });
}

function runtimeValues(spec: RunSpec): Values {
  const fromRecipe = new Set(spec.authored);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(spec.values)) {
    Object.defineProperty(out, k, { value: fromRecipe.has(k) ? authored(v) : v, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

const writeResult = (fs: FileSystem, runDir: string, result: RunResult): Promise<void> =>
  writeFileAtomic(fs, join(runDir, RUN_FILES.result), `${JSON.stringify(result, null, 2)}\n`, { mode: 0o600 });

async function main(runDir: string | undefined): Promise<number> {
  if (runDir === undefined) {
    write(STDERR, "usage: run-worker <runDir>\n");
    return 2;
  }
  const fs = makeNodeFileSystem();
  const spec = await readRunSpec(fs, runDir);
  if (spec === undefined) {
    write(STDERR, `cannot read ${join(runDir, RUN_FILES.spec)}\n`);
    return 1;
  }
  // the launch was accounted by the process that started the run; a record that does not say so
  // did not come through the launch path, and nothing of it runs
  const accounted = accountedEarlier(spec.accounting);
  if (E.isLeft(accounted)) {
    write(STDERR, `${spec.tool}: ${join(runDir, RUN_FILES.spec)} ${accounted.left}: nothing ran\n`);
    return 1;
  }
  const abort = new AbortController();
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) process.on(signal, () => abort.abort());
  groupLog = join(runDir, RUN_FILES.groups);

  // a sandboxed run's steps run confined, or the run fails without running any of them
  let runner = loggingRunner(nodeProcessRunner);
  if (spec.sandbox !== undefined) {
    if (!isPreparedSandbox(spec.sandbox)) {
      write(STDERR, `${spec.tool} is sandboxed and its sandbox in ${join(runDir, RUN_FILES.spec)} is unreadable: nothing ran\n`);
      return 1;
    }
    runner = confinedRunner(runner, spec.sandbox);
  }
  const execution = await launch(accounted.right, programOf(spec.template), runtimeValues(spec), {
    runner,
    fs,
    place: { cwd: spec.cwd, home: spec.home },
    signal: abort.signal,
    killGraceMs: spec.kill_grace_ms,
    capturesRoot: join(runDir, "captures"),
    ...(spec.env === undefined ? {} : { env: spec.env }),
    ...(spec.max_parallel_branches === undefined ? {} : { maxParallelBranches: spec.max_parallel_branches }),
  });
  // a truncated final output is saved in the run's own folder, so it ages out with the run
  const report = await reportExecution(execution, { tool: spec.tool, template: spec.path, graph: spec.template, tmpRoot: runDir, fs });
  let code: number;
  if (execution.kind === "done") code = execution.result.code;
  else {
    code = 1;
    write(STDERR, `${report.text.replace(/^\n+/, "")}\n`);
  }
  // a run ended by control.kill must not look like a success, whatever its last command said
  if (abort.signal.aborted && code === 0) code = 1;
  const { template: _template, ...details } = report.details;
  await writeResult(fs, runDir, { ok: report.ok && code === 0, text: report.text, code, details }).catch(() => undefined);
  return code;
}

main(process.argv[2]).then(
  (code) => process.exit(Math.max(0, Math.min(255, code))),
  (e: unknown) => {
    try {
      write(STDERR, `run-worker: ${e instanceof Error ? e.stack ?? e.message : String(e)}\n`);
    } finally {
      process.exit(1);
    }
  },
);
