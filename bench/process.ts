// Timing whole processes: wall time from spawn to exit, and the child's peak resident memory
// (reported by a preloaded module at exit, so any command can be measured the same way).
//
// The child's stdout goes to a file, not to a pipe read by this process: node reads a pipe at about
// 15 ms a megabyte here (`cat` of the 11 MB `inspect --json` answer through spawnSync: 170 ms,
// against 20 ms for `cat | cat`), so an 11 MB answer timed through a pipe measured this reader
// as much as the command (docs/performance.md, "What the discovery rows time").
import { spawnSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { median } from "./stats.js";

const here = dirname(fileURLToPath(import.meta.url));
const MAXRSS = join(here, "maxrss.cjs");
const MARK = "\u0000pi-recipes-bench maxrss ";

export interface ProcessSample {
  readonly ms: number;
  /** peak resident set size, MiB */
  readonly mib: number;
  /** user + system CPU time, ms */
  readonly cpu: number;
  /** the process's own measurement, when it prints a number (milliseconds) */
  readonly reported: number;
}

export interface ProcessCommand {
  readonly args: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  /** runs untimed before each timed run (e.g. removing a cache for a cold run) */
  readonly before?: () => void;
}

/** one folder for the children's stdout files, removed when this process exits */
let outDir: string | undefined;
function stdoutFile(): string {
  if (outDir === undefined) {
    const dir = mkdtempSync(join(tmpdir(), "pi-recipes-bench-out-"));
    process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
    outDir = dir;
  }
  return join(outDir, "stdout");
}

export function runProcess(cmd: ProcessCommand): ProcessSample {
  cmd.before?.();
  const file = stdoutFile();
  const fd = openSync(file, "w");
  let r: ReturnType<typeof spawnSync>;
  let ms: number;
  try {
    const t0 = process.hrtime.bigint();
    r = spawnSync(process.execPath, ["--require", MAXRSS, ...cmd.args], { env: cmd.env, stdio: ["ignore", fd, "pipe"], encoding: "utf8", maxBuffer: 1 << 30 });
    ms = Number(process.hrtime.bigint() - t0) / 1e6;
  } finally {
    closeSync(fd);
  }
  const stderr = String(r.stderr);
  if (r.status !== 0) throw new Error(`node ${cmd.args.join(" ")} failed (${r.status}): ${stderr}`);
  const at = stderr.lastIndexOf(MARK);
  const m = at < 0 ? null : /^(\d+) cpu (\d+)/.exec(stderr.slice(at + MARK.length));
  // only a number's worth of the output is read (the reported rows print one)
  const head = Buffer.alloc(64);
  const rd = openSync(file, "r");
  let n: number;
  try {
    n = readSync(rd, head, 0, head.length, 0);
  } finally {
    closeSync(rd);
  }
  return { ms, mib: m === null ? NaN : Number(m[1]) / 1024, cpu: m === null ? NaN : Number(m[2]) / 1000, reported: Number.parseFloat(head.subarray(0, n).toString("utf8")) };
}

/** Medians of `runs` timed runs of each command, interleaved so a busy machine slows all alike;
 *  one untimed warm-up run each first. */
export function compareProcesses(runs: number, cmds: readonly ProcessCommand[]): ProcessSample[] {
  for (const c of cmds) runProcess(c);
  const samples = cmds.map(() => [] as ProcessSample[]);
  for (let i = 0; i < runs; i++) cmds.forEach((c, k) => samples[k]!.push(runProcess(c)));
  return samples.map((s) => ({
    ms: median(s.map((x) => x.ms)),
    mib: median(s.map((x) => x.mib)),
    cpu: median(s.map((x) => x.cpu)),
    reported: median(s.map((x) => x.reported)),
  }));
}
