// The cost of one typed call besides its process: argument validation and normalization,
// resolution of the template, result reporting, with a runner that answers at once. Measured
// over many calls in one process; the target is per call. The calls go through `runChecked`, the one
// path every host takes (CLI, Pi, MCP), with an abort signal as the hosts pass one; only the
// usage ledger is left out (no ledger: every launch may run), because its accounting is a file
// operation of its own, measured by the `ledger` rows.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { instantRunner as instant } from "./instant-runner.js";
import { openRegistry } from "../runtime/registry.js";
import { makeNodeScanPort } from "../adapters/fs/scan.js";
import { runChecked, unaccountedLaunch } from "../runtime/verbs/call.js";
import { fmt, median } from "./stats.js";
import { makeNodeFileSystem } from "../adapters/fs/node.js";

const TARGET_US = 5;

export async function benchCallPath(baseDir: string): Promise<string[]> {
  const agentDir = join(baseDir, "agent-call");
  mkdirSync(join(agentDir, "recipes"), { recursive: true });
  writeFileSync(
    join(agentDir, "recipes", "typed.json"),
    JSON.stringify({
      description: "A typed tool",
      args: ["file:path", "count:int", "speed:number", "dry_run:bool", "mode:enum(check,fix)"],
      defaults: { speed: "1.5", dry_run: "false", mode: "check" },
      template: "tool --file {file} --count {count} --speed {speed} --dry-run {dry_run} --mode {mode}",
    }),
  );
  const registry = openRegistry({ env: { PI_CODING_AGENT_DIR: agentDir }, packagedRoot: null, compileCache: false, scan: makeNodeScanPort() });
  const tool = registry.discover().tools.find((t) => t.name === "typed");
  if (tool === undefined) throw new Error("the typed bench tool did not load");
  const signal = new AbortController().signal;
  const ctx = { paths: { cwd: baseDir, home: baseDir, tmpRoot: join(baseDir, "tmp") }, fs: makeNodeFileSystem(), runner: instant, signal };
  const params = { file: "a.txt", count: 3, speed: 2.5, dry_run: true, mode: "fix" };
  const batch = 2000;
  for (let i = 0; i < batch; i++) await runChecked(tool, params, ctx, unaccountedLaunch); // warm-up
  const samples: number[] = [];
  const cpuSamples: number[] = [];
  for (let round = 0; round < 15; round++) {
    const c0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < batch; i++) {
      const r = await runChecked(tool, params, ctx, unaccountedLaunch);
      if (!r.ok) throw new Error(`the typed bench call failed: ${r.text}`);
    }
    samples.push(Number(process.hrtime.bigint() - t0) / 1e3 / batch);
    const c = process.cpuUsage(c0);
    cpuSamples.push((c.user + c.system) / batch);
  }
  const us = median(samples);
  // CPU time of the process (garbage collection threads included): on a shared machine the wall
  // time also holds the time other processes took the core
  const cpu = median(cpuSamples);
  return [
    `${"typed call path besides the process (per call)".padEnd(52)} ours ${`${us.toFixed(1)} µs`.padStart(10)}  (target < ${TARGET_US} µs) ${us < TARGET_US ? "OK" : "OVER"}  [${fmt(us / 1000)}]`,
    `${"  cpu: typed call path (per call)".padEnd(52)} ours ${`${cpu.toFixed(1)} µs`.padStart(10)}`,
  ];
}
