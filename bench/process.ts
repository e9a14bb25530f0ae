// Timing whole processes: wall time from spawn to exit, and the child's peak resident memory
// (reported by a preloaded module at exit, so any command can be measured the same way).
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { median } from "./stats.js";

const here = dirname(fileURLToPath(import.meta.url));
const MAXRSS = join(here, "maxrss.js");
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

export function runProcess(cmd: ProcessCommand): ProcessSample {
  cmd.before?.();
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ["--import", MAXRSS, ...cmd.args], { env: cmd.env, encoding: "utf8", maxBuffer: 1 << 30 });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`node ${cmd.args.join(" ")} failed (${r.status}): ${r.stderr}`);
  const at = r.stderr.lastIndexOf(MARK);
  const m = at < 0 ? null : /^(\d+) cpu (\d+)/.exec(r.stderr.slice(at + MARK.length));
  return { ms, mib: m === null ? NaN : Number(m[1]) / 1024, cpu: m === null ? NaN : Number(m[2]) / 1000, reported: Number.parseFloat(r.stdout) };
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
