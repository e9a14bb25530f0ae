// The cost of confinement: the same one-step call (`true`) through `runChecked` (the call every host launch makes) with the real process
// runner, unconfined and with `sandbox: true` (bubblewrap), interleaved so both see the same load.
// The row is the difference of the medians per call; the target is under 15 ms on 2 cores.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { probeBubblewrap } from "../adapters/process/bwrap.js";
import { runChecked, unaccountedLaunch } from "../runtime/verbs/call.js";
import { openRegistry } from "../runtime/registry.js";
import { makeNodeScanPort } from "../adapters/fs/scan.js";
import { fmt, median } from "./stats.js";
import { makeNodeFileSystem } from "../adapters/fs/node.js";

const TARGET_MS = 15;
const ROUNDS = 40;

export async function benchSandbox(baseDir: string): Promise<string[]> {
  const available = probeBubblewrap(process.env);
  if (!available.ok) return [`${"confined call (sandbox: true)".padEnd(52)} FAILED: ${available.reason}`];
  const agentDir = join(baseDir, "agent-sandbox");
  const work = join(baseDir, "sandbox-work");
  mkdirSync(join(agentDir, "recipes"), { recursive: true });
  mkdirSync(work, { recursive: true });
  writeFileSync(join(agentDir, "recipes", "open.json"), JSON.stringify({ description: "unconfined", template: "true" }));
  writeFileSync(join(agentDir, "recipes", "boxed.json"), JSON.stringify({ description: "confined", sandbox: true, template: "true" }));
  const registry = openRegistry({ env: { PI_CODING_AGENT_DIR: agentDir }, packagedRoot: null, compileCache: false, scan: makeNodeScanPort() });
  const tools = registry.discover().tools;
  const open = tools.find((t) => t.name === "open");
  const boxed = tools.find((t) => t.name === "boxed");
  if (open === undefined || boxed === undefined) throw new Error("the sandbox bench tools did not load");
  const ctx = { paths: { cwd: work, home: work, tmpRoot: join(baseDir, "tmp-sandbox") }, fs: makeNodeFileSystem() };
  const time = async (tool: typeof open): Promise<number> => {
    const t0 = process.hrtime.bigint();
    const r = await runChecked(tool, {}, ctx, unaccountedLaunch);
    if (!r.ok) throw new Error(`the ${tool.name} bench call failed: ${r.text}`);
    return Number(process.hrtime.bigint() - t0) / 1e6;
  };
  for (let i = 0; i < 5; i++) {
    await time(open);
    await time(boxed);
  }
  const plain: number[] = [];
  const confined: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    plain.push(await time(open));
    confined.push(await time(boxed));
  }
  const extra = median(confined) - median(plain);
  return [
    `${"unconfined call of `true` (per call)".padEnd(52)} ours ${fmt(median(plain)).padStart(10)}`,
    `${`confined call of \`true\`, ${available.version} (per call)`.padEnd(52)} ours ${fmt(median(confined)).padStart(10)}`,
    `${"  confinement cost (confined - unconfined)".padEnd(52)} ours ${fmt(extra).padStart(10)}  (target < ${TARGET_MS} ms) ${extra < TARGET_MS ? "OK" : "OVER"}`,
  ];
}
