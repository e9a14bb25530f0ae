// Discovery of 1,000 and 10,000 recipes against the floor: read + JSON.parse of the same files.
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { openRegistry } from "../runtime/registry.js";
import { generateAgent } from "./generate.js";
import { median, report, timeRuns } from "./stats.js";

function floorRead(root: string): number {
  let n = 0;
  for (const name of readdirSync(root)) {
    const text = readFileSync(join(root, name), "utf8");
    if (name.endsWith(".json")) n += Object.keys(JSON.parse(text) as object).length;
    else n += text.length;
  }
  return n;
}

const FLOOR_SCRIPT = `const fs=require("fs"),p=require("path");const r=process.argv[1];let n=0;for(const f of fs.readdirSync(r)){const t=fs.readFileSync(p.join(r,f),"utf8");n+=f.endsWith(".json")?Object.keys(JSON.parse(t)).length:t.length}console.log(n)`;

function timeProcess(runs: number, cmd: string, args: readonly string[], env: NodeJS.ProcessEnv): number {
  const samples: number[] = [];
  for (let i = 0; i <= runs; i++) {
    const t0 = process.hrtime.bigint();
    const r = spawnSync(cmd, args, { env, encoding: "utf8" });
    if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed: ${r.stderr}`);
    if (i > 0) samples.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return median(samples);
}

export function benchDiscovery(baseDir: string, cliPath: string): string[] {
  const lines: string[] = [];
  for (const count of [1_000, 10_000]) {
    const agentDir = generateAgent(baseDir, count);
    const root = join(agentDir, "recipes");
    const registry = openRegistry({ env: { PI_CODING_AGENT_DIR: agentDir }, packagedRoot: null });
    const tools = registry.discover().tools.length;
    if (tools !== count) throw new Error(`expected ${count} tools, discovered ${tools}`);
    const runs = count >= 10_000 ? 7 : 15;
    const floor = timeRuns(runs, () => floorRead(root));
    const ours = timeRuns(runs, () => registry.discover());
    lines.push(report(`discovery of ${count} recipes, in-process`, ours, floor, 2));
    if (count === 10_000) {
      const env = { ...process.env, PI_CODING_AGENT_DIR: agentDir };
      const floorProc = timeProcess(5, process.execPath, ["-e", FLOOR_SCRIPT, root], env);
      const cliProc = timeProcess(5, process.execPath, [cliPath, "inspect", "target=recipes", "view=status"], env);
      lines.push(report(`discovery of ${count} recipes, whole CLI process`, cliProc, floorProc, 2));
    }
  }
  return lines;
}
