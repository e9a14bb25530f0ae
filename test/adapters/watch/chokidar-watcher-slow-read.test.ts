// A recipe created while chokidar is still reading a slow folder. chokidar finds new files by
// re-reading the folder, at most once a second; a name that appears during a read is owed one
// more read only if the read ends within that second. In a root of thousands of recipes on a
// loaded machine the read (one lstat per entry) outlasts the second, and the new recipe was
// never reported. Here the slow read is made on purpose: chokidar's per-entry lstat of the root
// is held (through node's builtin-module bindings, which chokidar's folder reader imports) until
// the second has passed. The files and the watcher are real.
import fsp, { mkdir, mkdtemp, rm, unlink, writeFile } from "node:fs/promises";
import { syncBuiltinESMExports } from "node:module";
import { tmpdir } from "node:os";
import { join, sep } from "node:path";
import { afterAll, afterEach, beforeEach, expect, it } from "vitest";
import { watchRecipeRoot } from "../../../adapters/watch/chokidar-watcher.js";
import type { RecipeRootWatch, WatchEvent } from "../../../adapters/watch/Watcher.js";

/** how long `until` waits before it gives up: what is asserted is that the event arrives */
const CONVERGE_MS = 20_000;
/** longer than chokidar's one-second window for owed folder reads */
const SLOW_READ_MS = 1300;

let base: string;
let root: string;
let watch: RecipeRootWatch | undefined;

let held: Promise<void> | undefined;
const heldPaths: string[] = [];
const realLstat = fsp.lstat;
fsp.lstat = ((path: Parameters<typeof realLstat>[0], options?: Parameters<typeof realLstat>[1]) => {
  const gate = held;
  if (gate !== undefined && String(path).startsWith(root + sep)) {
    heldPaths.push(String(path));
    return gate.then(() => realLstat(path, options));
  }
  return realLstat(path, options);
}) as typeof realLstat;
syncBuiltinESMExports();

afterAll(() => {
  fsp.lstat = realLstat;
  syncBuiltinESMExports();
});

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), "pi-recipes-watch-slow-"));
  root = join(base, "recipes");
  await mkdir(root);
});

afterEach(async () => {
  held = undefined;
  await watch?.close();
  watch = undefined;
  await rm(base, { recursive: true, force: true });
});

const sleep = (ms: number): Promise<void> => new Promise((res) => setTimeout(res, ms));

async function until(what: string, ok: () => boolean): Promise<void> {
  const t0 = performance.now();
  while (!ok() && performance.now() - t0 < CONVERGE_MS) await sleep(10);
  expect(ok(), what).toBe(true);
}

it("reports a recipe created during a folder read that outlasts chokidar's re-read window, and its deletion", async () => {
  const existing = join(root, "a.json");
  await writeFile(existing, '{"v":0}');
  const events: WatchEvent[] = [];
  watch = watchRecipeRoot(root, (batch) => events.push(...batch));
  await watch.ready;

  let release = (): void => undefined;
  held = new Promise<void>((res) => (release = res));
  // an edit makes chokidar read the folder; the read lists the folder, then waits on the lstat
  await writeFile(existing, '{"v":1}');
  await until("chokidar re-reads the folder after an edit", () => heldPaths.length > 0);
  const created = join(root, "created.json");
  await writeFile(created, '{"v":1}');
  await sleep(SLOW_READ_MS);
  held = undefined;
  release();

  await until(`the new recipe ${created} is reported`, () => events.some((e) => e.path === created && (e.kind === "add" || e.kind === "change")));
  // chokidar does not know the file, so nothing of its own would report the deletion either
  const from = events.length;
  await unlink(created);
  await until(`the deletion of ${created} is reported`, () => events.slice(from).some((e) => e.path === created && e.kind === "unlink"));
});
