// register_tool killed at every file operation (worst-case power loss): after a restart
// (journals recovered, stray temps cleaned), every
// recipe is all-old or all-new, the tool set is the old one or the new one, the draft of a
// promotion is never lost, and discovery of the recovered folders loads cleanly.
import { describe, expect, it } from "vitest";
import { Volume } from "memfs";
import { isAtomicTempName, type FileSystem } from "../adapters/fs/FileSystem.js";
import { makeMemFileSystem, type MemFileSystem } from "../adapters/fs/memfs.js";
import type { Lock } from "../adapters/lock/Lock.js";
import { agentPaths } from "../runtime/agent-paths.js";
import { discoverThroughFs } from "../runtime/fs-discovery.js";
import { registerTool } from "../runtime/register.js";
import { cleanStrayRecipeTemps } from "../runtime/startup.js";
import { exploreCrashes } from "./support/crash-fs.js";

const paths = agentPaths({ PI_CODING_AGENT_DIR: "/agent" }, "/", "/home");
const ROOT = paths.recipeRoot;
const DRAFTS = paths.draftRoot;

// one process: nothing to exclude
const inProcess: Lock = {
  acquire: async (path) => ({ path, canonicalPath: path, release: async () => undefined }),
  withLock: async (_path, fn) => fn(),
};

const MD = "---\ndescription: Markdown tool\nargs: file:path\n---\n\n```template\nwc -w {file}\n```\n";
const SEED: Record<string, string> = {
  [`${ROOT}/old.json`]: JSON.stringify({ description: "Old", imports: { h: "helper.json" }, template: [{ name: "h" }, "echo old {x}"] }),
  [`${ROOT}/helper.json`]: JSON.stringify({ description: "Helper", template: "echo helper" }),
  [`${ROOT}/both.json`]: JSON.stringify({ description: "Both json", template: "echo json" }),
  [`${ROOT}/both.md`]: MD,
  [`${ROOT}/mdtool.md`]: MD,
  [`${DRAFTS}/captured.json`]: JSON.stringify({ description: "Captured", template: "echo captured {y}" }),
};

const seeded = (): MemFileSystem => makeMemFileSystem(Volume.fromJSON(SEED) as Volume);

async function files(fs: FileSystem): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const dir of [ROOT, DRAFTS]) {
    for (const e of await fs.readdir(dir).catch(() => [])) {
      if (e.kind === "file") out.set(`${dir}/${e.name}`, new TextDecoder().decode(await fs.readFile(`${dir}/${e.name}`)));
    }
  }
  return out;
}

async function toolView(fs: FileSystem): Promise<{ tools: string; invalid: string[] }> {
  const d = await discoverThroughFs(fs, paths);
  return {
    tools: JSON.stringify(d.tools.map((t) => [t.name, t.path, t.config.raw])),
    invalid: d.entries.filter((e) => e.invalid).map((e) => e.path),
  };
}

const OPERATIONS: ReadonlyArray<readonly [string, Record<string, unknown>]> = [
  ["create", { name: "fresh", description: "Fresh", template: "echo fresh {a}", args: "a=1" }],
  ["update with a template", { name: "old", template: "echo replaced", update: true }],
  ["merge update", { name: "old", description: "Renamed", update: true }],
  ["delete", { name: "old", template: null }],
  ["delete json + md", { name: "both", template: null }],
  ["update of a .md tool", { name: "mdtool", description: "Now JSON", update: true }],
  ["promotion", { name: "promoted", draft: `${DRAFTS}/captured.json` }],
  ["promotion over an existing tool", { name: "old", draft: `${DRAFTS}/captured.json`, update: true }],
];

describe("register_tool crash points", () => {
  for (const [label, params] of OPERATIONS) {
    it(`${label}: all-old or all-new at every crash point`, async () => {
      const oldFs = seeded();
      const oldFiles = await files(oldFs);
      const oldTools = await toolView(oldFs);
      const newFs = seeded();
      const done = await registerTool(params, { paths, fs: newFs, lock: inProcess });
      expect(done.ok, done.text).toBe(true);
      const newFiles = await files(newFs);
      const newTools = await toolView(newFs);
      expect(newTools.tools).not.toBe(oldTools.tools);

      const n = await exploreCrashes({
        setup: seeded,
        run: async (fs) => void (await registerTool(params, { paths, fs, lock: inProcess })),
        check: async (view, k, trace) => {
          const at = `crash at ${k}: ${trace.join(" | ")}`;
          await cleanStrayRecipeTemps({ paths, fs: view, lock: inProcess });
          const now = await files(view);
          for (const [path, content] of now) {
            expect(isAtomicTempName(path.slice(path.lastIndexOf("/") + 1)), `${at}: stray ${path}`).toBe(false);
            expect([oldFiles.get(path), newFiles.get(path)], `${at}: ${path}`).toContain(content);
          }
          expect(now.get(`${DRAFTS}/captured.json`), at).toBe(SEED[`${DRAFTS}/captured.json`]);
          const tools = await toolView(view);
          expect([oldTools.tools, newTools.tools], at).toContain(tools.tools);
          expect(tools.invalid, at).toEqual([]);
        },
      });
      expect(n).toBeGreaterThan(0);
    });
  }
});
