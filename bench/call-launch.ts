// One launch accounted the way `pi-recipes call` does it, in one process so the process start is
// left out: a session opened, its tool found (one discovery, or its one compile cache entry), the launch (with a runner that answers at once), the
// session closed (its launch log closed, and whatever fold the close does). Each iteration is one
// CLI call's worth of work; the median and the 90th percentile show whether a fold lands on some
// callers (a p90 far above the median) or stays off their latency.
import { makeNodeScanPort } from "../adapters/fs/scan.js";
import { makeNodeFileSystem } from "../adapters/fs/node.js";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { instantRunner as instant } from "./instant-runner.js";
import { openSession } from "../runtime/session.js";
import { fmt, quantile } from "./stats.js";

export async function benchCallLaunch(baseDir: string): Promise<string[]> {
  const agentDir = join(baseDir, "agent-call-launch");
  const root = join(agentDir, "recipes");
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, "count_lines.json"), JSON.stringify({ description: "Count lines", args: ["file:path"], template: "wc -l {file}" }));
  const env = { ...process.env, PI_CODING_AGENT_DIR: agentDir };
  const launches = join(root, ".usage", "launches");
  const pending = (): number => (existsSync(launches) ? readdirSync(launches).length : 0);
  const one = async (): Promise<{ ms: number }> => {
    const t0 = process.hrtime.bigint();
    const session = openSession({ env, cwd: baseDir, home: baseDir, packagedRoot: null, fs: makeNodeFileSystem(), scan: makeNodeScanPort() });
    try {
      // as `pi-recipes call` finds its tool: from its compile cache entry once the list index is
      // current (runtime/registry.ts toolNamed), else from a discovery
      const found = session.toolNamed("count_lines");
      const tool = "tool" in found ? found.tool : "discovery" in found ? found.discovery.tools.find((t) => t.name === "count_lines") : undefined;
      if (tool === undefined) throw new Error("the call-launch bench tool did not load");
      const r = await session.launch(tool, { file: "a.txt" }, { paths: session.paths, runner: instant });
      if (!r.ok) throw new Error(`the call-launch bench call failed: ${r.text}`);
    } finally {
      await session.close();
    }
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    return { ms };
  };
  for (let i = 0; i < 40; i++) await one(); // warm-up
  const samples: number[] = [];
  const foldSamples: number[] = [];
  const plainSamples: number[] = [];
  for (let i = 0; i < 400; i++) {
    const before = pending();
    const { ms } = await one();
    samples.push(ms);
    (pending() <= before ? foldSamples : plainSamples).push(ms);
  }
  const med = quantile(samples, 0.5);
  const p90 = quantile(samples, 0.9);
  const p99 = quantile(samples, 0.99);
  const ratio = p90 / med;
  const folds = foldSamples.length === 0 ? "no fold" : `${foldSamples.length} folded, median ${fmt(quantile(foldSamples, 0.5))}`;
  // the calls that did not fold: their spread is the machine's (other processes, the disk)
  const plain = `the others median ${fmt(quantile(plainSamples, 0.5))} p90 ${fmt(quantile(plainSamples, 0.9))}`;
  return [
    `${"one call-style launch (session, its tool, launch, close)".padEnd(52)} median ${fmt(med).padStart(9)}  p90 ${fmt(p90).padStart(9)}  p90/median ${ratio.toFixed(2)}x  (target <= 2x) ${ratio <= 2 ? "OK" : "OVER"}`,
    `${"  tail: call-style launch".padEnd(52)} p99 ${fmt(p99).padStart(9)}  of 400 calls ${folds}; ${plain}`,
  ];
}
