// Refresh after one edit in a 10,000-recipe root: the time from the watcher's callback to the new
// tool set, and the files that refresh read. The watcher is the real one (chokidar); its
// coalescing window comes before the callback and is not counted, as the budget says.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { chokidarWatcher } from "../adapters/watch/chokidar-watcher.js";
import type { Watcher } from "../adapters/watch/Watcher.js";
import { openLiveRegistry, type ToolSetChange } from "../runtime/live-registry.js";
import { generateAgent } from "./generate.js";
import { fmt, median, timeRuns } from "./stats.js";

const COUNT = 10_000;
const EDITS = 21;
const TARGET_MS = 20;

export async function benchRefresh(baseDir: string): Promise<string[]> {
  const agentDir = generateAgent(baseDir, COUNT);
  const root = join(agentDir, "recipes");
  let eventAt = 0;
  // the real watcher, with a clock on its callback
  const timed: Watcher = {
    watchRecipeRoot: (path, onChange, options) =>
      chokidarWatcher.watchRecipeRoot(path, (events) => {
        eventAt = performance.now();
        onChange(events);
      }, options),
  };
  const live = openLiveRegistry({ env: { PI_CODING_AGENT_DIR: agentDir }, packagedRoot: null, watcher: timed });
  const samples: number[] = [];
  const reread: number[] = [];
  try {
    await live.start();
    const tools = live.current().discovery.tools.length;
    if (tools !== COUNT) throw new Error(`expected ${COUNT} tools, found ${tools}`);
    for (let i = 0; i < EDITS; i++) {
      const name = `tool_${(i * 477) % COUNT}`;
      const seen = new Promise<ToolSetChange>((resolve) => {
        const off = live.subscribe((change) => {
          if (!change.changed.includes(name)) return;
          off();
          resolve(change);
        });
      });
      writeFileSync(join(root, `${name}.json`), JSON.stringify({ description: `Edited ${i}`, template: `echo edited ${i} {file:path}` }));
      const change = await seen;
      samples.push(performance.now() - eventAt);
      reread.push(change.reread);
      // let the watcher's own follow-up check of the edited file pass before the next edit
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    await live.close();
  }
  const ms = median(samples);
  const files = Math.max(...reread);
  const full = timeRuns(3, () => live.refresh());
  return [
    `${"refresh after one edit, 10000 recipes".padEnd(44)} ours ${fmt(ms).padStart(10)}  from the watcher event (median of ${EDITS})  (target < ${TARGET_MS} ms) ${ms < TARGET_MS ? "OK" : "OVER"}`,
    `${"refresh after one edit: files re-read".padEnd(44)} ours ${String(files).padStart(7)}     full rescan re-reads ${COUNT} in ${fmt(full)}  (target 1) ${files === 1 ? "OK" : "OVER"}`,
  ];
}
