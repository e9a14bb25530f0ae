// Refresh after one edit in a 10,000-recipe root: the time from the watcher's callback to the new
// tool set, and the files that refresh read. The watcher is the real one (chokidar); its
// coalescing window comes before the callback and is not counted, as the budget says.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { chokidarWatcher } from "../adapters/watch/chokidar-watcher.js";
import type { Watcher } from "../adapters/watch/Watcher.js";
import { openLiveRegistry, type ToolSetChange } from "../runtime/live-registry.js";
import { makeNodeScanPort } from "../adapters/fs/scan.js";
import { generateAgent, recipeText } from "./generate.js";
import { fmt, median, timeRuns } from "./stats.js";

const COUNT = 10_000;
const EDITS = 21;
const TARGET_MS = 20;
/** an edit whose change event has not come by then counts as lost: the bench reports it and goes on */
const EVENT_WAIT_MS = 5000;

function editedText(file: string, i: number): string {
  return file.endsWith(".md")
    ? `---\ndescription: Edited ${i}\nargs: file:path\n---\n\n\`\`\`template\necho edited ${i} {file}\n\`\`\`\n`
    : JSON.stringify({ description: `Edited ${i}`, template: `echo edited ${i} {file:path}` });
}

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
  const live = openLiveRegistry({ env: { PI_CODING_AGENT_DIR: agentDir }, packagedRoot: null, watcher: timed, scan: makeNodeScanPort() });
  const samples: number[] = [];
  const reread: number[] = [];
  const lost: string[] = [];
  try {
    await live.start();
    const tools = live.current().discovery.tools.length;
    if (tools !== COUNT) throw new Error(`expected ${COUNT} tools, found ${tools}`);
    for (let i = 0; i < EDITS; i++) {
      const n = (i * 477) % COUNT;
      const file = recipeText(n).name;
      const name = `tool_${n}`;
      let off = (): void => undefined;
      let timer: NodeJS.Timeout | undefined;
      const seen = new Promise<ToolSetChange | undefined>((resolve) => {
        timer = setTimeout(() => resolve(undefined), EVENT_WAIT_MS);
        off = live.subscribe((change) => {
          if (change.changed.includes(name)) resolve(change);
        });
      });
      // the tool's own file, rewritten in place: a recipe of the other format beside it would be a
      // second file that shadows the first, not an edit
      writeFileSync(join(root, file), editedText(file, i));
      const change = await seen;
      off();
      clearTimeout(timer);
      if (change === undefined) {
        lost.push(`#${i} ${file}`);
        continue;
      }
      samples.push(performance.now() - eventAt);
      reread.push(change.reread);
      // let the watcher's own follow-up check of the edited file pass before the next edit
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    await live.close();
  }
  const full = timeRuns(3, () => live.refresh());
  const events = `${"refresh after one edit: change events".padEnd(44)} ours ${String(EDITS - lost.length).padStart(7)}     of ${EDITS} edits reported within ${EVENT_WAIT_MS / 1000} s`;
  const rows = [lost.length === 0 ? `${events}  OK` : `${events}  FAILED: no change event for ${lost.join(", ")}`];
  if (samples.length === 0) return rows;
  const ms = median(samples);
  const files = Math.max(...reread);
  return [
    ...rows,
    `${"refresh after one edit, 10000 recipes".padEnd(44)} ours ${fmt(ms).padStart(10)}  from the watcher event (median of ${samples.length})  (target < ${TARGET_MS} ms) ${ms < TARGET_MS ? "OK" : "OVER"}`,
    `${"refresh after one edit: files re-read".padEnd(44)} ours ${String(files).padStart(7)}     full rescan re-reads ${COUNT} in ${fmt(full)}  (target 1) ${files === 1 ? "OK" : "OVER"}`,
  ];
}
