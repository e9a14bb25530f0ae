// Discovery against the floor at 1,000, 10,000 (and, with PI_RECIPES_BENCH_100K=1, 100,000)
// recipes: whole `list` and `inspect` processes with the compile cache removed before each run
// (cold) and left in place (warm), the first discovery of a fresh process, and peak memory. The
// floor is a plain node process that reads and JSON-parses the same files, timed in the same run.
import { rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { FLOOR_SCRIPT } from "./floor.js";
import { generateAgent } from "./generate.js";
import { compareProcesses, type ProcessCommand, type ProcessSample } from "./process.js";
import { fmt } from "./stats.js";

const here = dirname(fileURLToPath(import.meta.url));

/** the folder the compile cache keeps its file in (see runtime/compile-cache.ts) */
const cacheDir = (agentDir: string): string => join(agentDir, "recipes", ".cache");

export function row(label: string, ours: number, floor: number, target: number | undefined, unit: "ms" | "MiB" = "ms"): string {
  const ratio = ours / floor;
  const show = (x: number): string => (unit === "ms" ? fmt(x) : `${x.toFixed(0)} MiB`);
  const verdict = target === undefined ? "" : `(target <= ${target}x) ${ratio <= target ? "OK" : "OVER"}`;
  return `${label.padEnd(52)} ours ${show(ours).padStart(10)}  floor ${show(floor).padStart(10)}  ratio ${ratio.toFixed(2).padStart(5)}x  ${verdict}`;
}

export function benchDiscovery(baseDir: string, cliPath: string): string[] {
  const lines: string[] = [];
  const counts = [1_000, 10_000, ...(process.env["PI_RECIPES_BENCH_100K"] === "1" ? [100_000] : [])];
  for (const count of counts) {
    const agentDir = generateAgent(baseDir, count);
    const root = join(agentDir, "recipes");
    const env = { ...process.env, PI_CODING_AGENT_DIR: agentDir };
    const runs = count >= 100_000 ? 3 : count >= 10_000 ? 5 : 9;
    const cold = (): void => rmSync(cacheDir(agentDir), { recursive: true, force: true });
    const cli = (args: readonly string[], before?: () => void): ProcessCommand => ({ args: [cliPath, ...args], env, ...(before === undefined ? {} : { before }) });
    const inspect = ["inspect", "target=recipes", "view=summary", "--json"];
    // `schema` right after a warm `list`: the list index is current, so the one tool comes from its
    // own compile cache entry (runtime/registry.ts toolNamed), as for `call`
    const [floor, listCold, listWarm, schemaWarm, inspectCold, inspectWarm] = compareProcesses(runs, [
      { args: ["-e", FLOOR_SCRIPT, root], env },
      cli(["list"], cold),
      cli(["list"]),
      cli(["schema", "tool_1"]),
      cli(inspect, cold),
      cli(inspect),
    ]) as [ProcessSample, ProcessSample, ProcessSample, ProcessSample, ProcessSample, ProcessSample];
    const n = count.toLocaleString("en-US");
    const warmTarget = count >= 100_000 ? 1.5 : 1.2;
    lines.push(row(`list, ${n} recipes, process, cold cache`, listCold.ms, floor.ms, 2));
    lines.push(row(`list, ${n} recipes, process, warm cache`, listWarm.ms, floor.ms, warmTarget));
    lines.push(row(`schema of one tool, ${n}, process, warm`, schemaWarm.ms, floor.ms, undefined));
    lines.push(row(`inspect summary --json, ${n}, process, cold`, inspectCold.ms, floor.ms, undefined));
    lines.push(row(`inspect summary --json, ${n}, process, warm`, inspectWarm.ms, floor.ms, 1.5));
    // CPU time: what a busy machine distorts least
    lines.push(row(`  cpu: list, ${n}, cold`, listCold.cpu, floor.cpu, undefined));
    lines.push(row(`  cpu: list, ${n}, warm`, listWarm.cpu, floor.cpu, undefined));
    lines.push(row(`  cpu: inspect, ${n}, cold`, inspectCold.cpu, floor.cpu, undefined));
    lines.push(row(`  cpu: inspect, ${n}, warm`, inspectWarm.cpu, floor.cpu, undefined));
    lines.push(row(`  peak memory: list, ${n}, cold`, listCold.mib, floor.mib, undefined, "MiB"));
    lines.push(row(`  peak memory: schema of one tool, ${n}, warm`, schemaWarm.mib, floor.mib, undefined, "MiB"));
    lines.push(row(`  peak memory: inspect, ${n}, cold`, inspectCold.mib, floor.mib, count === 10_000 ? 1.5 : undefined, "MiB"));
    lines.push(row(`  peak memory: inspect, ${n}, warm`, inspectWarm.mib, floor.mib, count === 10_000 ? 1.5 : undefined, "MiB"));
    const first = join(here, "first-discovery.js");
    const [floorIn, discoveryCold, discoveryWarm] = compareProcesses(runs, [
      { args: [first, "floor", agentDir], env },
      { args: [first, "discovery", agentDir], env, before: cold },
      { args: [first, "discovery", agentDir], env },
    ]) as [ProcessSample, ProcessSample, ProcessSample];
    lines.push(row(`first discovery in a fresh process, ${n}, cold`, discoveryCold.reported, floorIn.reported, 2));
    lines.push(row(`first discovery in a fresh process, ${n}, warm`, discoveryWarm.reported, floorIn.reported, 1.2));
  }
  return lines;
}

/** Start-up: the CLI on an empty agent dir against a bare `node -e 0`, as a difference. */
export function benchStartup(baseDir: string, cliPath: string): string[] {
  const agentDir = join(baseDir, "agent-empty");
  const env = { ...process.env, PI_CODING_AGENT_DIR: agentDir };
  const [bare, help, version, list, inspect] = compareProcesses(21, [
    { args: ["-e", "0"], env },
    { args: [cliPath, "--help"], env },
    { args: [cliPath, "--version"], env },
    { args: [cliPath, "list"], env },
    { args: [cliPath, "inspect", "target=recipes", "view=summary", "--json"], env },
  ]) as [ProcessSample, ProcessSample, ProcessSample, ProcessSample, ProcessSample];
  const over = (label: string, s: ProcessSample, target?: number): string => {
    const d = s.ms - bare.ms;
    return `${label.padEnd(52)} ours ${fmt(s.ms).padStart(10)}  bare node ${fmt(bare.ms).padStart(10)}  over +${fmt(d)}  ${target === undefined ? "" : `(target <= +${target} ms) ${d <= target ? "OK" : "OVER"}`}`;
  };
  const cpu = (label: string, s: ProcessSample): string =>
    `${label.padEnd(52)} ours ${fmt(s.cpu).padStart(10)}  bare node ${fmt(bare.cpu).padStart(10)}  over +${fmt(s.cpu - bare.cpu)}`;
  return [
    over("start-up: --help", help, 20),
    over("start-up: --version", version, 20),
    over("start-up: list, empty agent dir", list, 20),
    over("start-up: inspect summary --json, empty", inspect),
    cpu("  cpu: --help", help),
    cpu("  cpu: --version", version),
    cpu("  cpu: list, empty agent dir", list),
  ];
}
