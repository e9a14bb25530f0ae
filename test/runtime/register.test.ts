// registerTool on real folders with the real file lock.
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, existsSync, symlinkSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeNodeFileSystem } from "../../adapters/fs/node.js";
import { toFsError } from "../../adapters/fs/FileSystem.js";
import { makeFileLock } from "../../adapters/lock/file-lock.js";
import { canonicalLockPath } from "../../adapters/lock/canonical-path.js";
import { LockTimeoutError, type Lock } from "../../adapters/lock/Lock.js";
import { agentPaths, type AgentPaths } from "../../runtime/agent-paths.js";
import { registerTool, type RegisterContext } from "../../runtime/register.js";
import { cleanStrayRecipeTemps } from "../../runtime/startup.js";

const fs = makeNodeFileSystem();
let dir: string;
let paths: AgentPaths;
let lockRoot: string;
let lock: Lock;

const ctxFor = (p: AgentPaths, extra: Partial<RegisterContext> = {}): RegisterContext => ({ paths: p, fs, lock, packagedRoot: join(dir, "packaged"), ...extra });
const reg = (params: Record<string, unknown>, extra: Partial<RegisterContext> = {}) => registerTool(params, ctxFor(paths, extra));
const readRecipe = (name: string): unknown => JSON.parse(readFileSync(join(paths.recipeRoot, name), "utf8"));

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "register-"));
  paths = agentPaths({ PI_CODING_AGENT_DIR: join(dir, "agent") }, dir, dir);
  lockRoot = join(dir, "locks");
  lock = makeFileLock({ lockRoot });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("registerTool", () => {
  it("creates the root, writes 2-space JSON, lists, updates, deletes", async () => {
    expect(await reg({})).toMatchObject({ ok: true, text: "No registered tools." });
    expect(await reg({ name: "word_count", description: "Count words", template: "wc -w {file:path}" })).toMatchObject({
      ok: true,
      text: 'Registered tool "word_count" (args: file).',
    });
    expect(readFileSync(join(paths.recipeRoot, "word_count.json"), "utf8")).toBe('{\n  "description": "Count words",\n  "template": "wc -w {file:path}"\n}\n');
    expect(await reg({})).toMatchObject({ text: "Registered tools:\n- word_count", details: { tool: "register_tool" } });
    expect(await reg({ name: "word_count", description: "Words", update: true })).toMatchObject({ text: 'Updated tool "word_count" (args: file).' });
    expect(readRecipe("word_count.json")).toEqual({ description: "Words", template: "wc -w {file:path}" });
    expect(await reg({ name: "word_count", template: null })).toMatchObject({ ok: true, text: 'Deleted tool "word_count". Reload to remove it from the complete registry.' });
    // the tool's files are gone; the (empty) journal folder of the delete stays under .usage
    expect(readdirSync(paths.recipeRoot)).toEqual([".usage"]);
    expect(readdirSync(join(paths.usageRoot, "register-journal"))).toEqual([]);
  });

  it("a promotion whose usage lineage cannot move (the ledger busy) writes the tool and says so", async () => {
    const draft = join(paths.draftRoot, "captured.json");
    mkdirSync(paths.draftRoot, { recursive: true });
    writeFileSync(draft, JSON.stringify({ template: "echo promoted", description: "Captured" }));
    // every wait for the usage store's lock times out, as when another process holds it
    const busy: Lock = {
      acquire: (path, options) => lock.acquire(path, options),
      withLock: (path, fn, options) =>
        path.endsWith(join(".usage", "index.json")) ? Promise.reject(new LockTimeoutError(path, path, 5000, undefined, process.pid)) : lock.withLock(path, fn, options),
    };
    const r = await reg({ name: "promoted_tool", draft }, { lock: busy });
    expect(r.ok).toBe(true);
    expect(r.text).toMatch(/^Registered tool "promoted_tool" from draft recipe\.\n.*Timed out after 5000 ms.* \(the tool is written; the draft keeps its usage\)$/s);
    expect(r.details).toMatchObject({ lineage: "not_moved" });
    expect(readRecipe("promoted_tool.json")).toMatchObject({ template: "echo promoted" });
  });

  it("promotes a draft and keeps the draft file", async () => {
    mkdirSync(paths.draftRoot, { recursive: true });
    const draft = join(paths.draftRoot, "captured.json");
    writeFileSync(draft, JSON.stringify({ template: "echo promoted", description: "Captured" }));
    expect(await reg({ name: "promoted_tool", draft })).toMatchObject({ ok: true, text: 'Registered tool "promoted_tool" from draft recipe.' });
    expect(readFileSync(join(paths.recipeRoot, "promoted_tool.json"), "utf8")).toBe('{\n  "description": "Captured",\n  "template": "echo promoted"\n}\n');
    expect(existsSync(draft)).toBe(true);
  });

  it("resolves references against the packaged root", async () => {
    mkdirSync(join(dir, "packaged"), { recursive: true });
    writeFileSync(join(dir, "packaged", "lint.json"), JSON.stringify({ description: "Lint", template: "eslint {path}" }));
    expect(await reg({ name: "lint_wrapper", description: "Lint it", template: "lint" })).toMatchObject({ ok: true, text: 'Registered tool "lint_wrapper" (args: path).' });
  });

  it("refresh runs inside the lock window", async () => {
    const other = makeFileLock({ lockRoot });
    let during: string | undefined;
    await reg({ name: "r", description: "r", template: "echo r" }, {
      refresh: async () => {
        during = await other.withLock(join(paths.recipeRoot, "r.json"), () => "acquired", { timeoutMs: 100 }).catch((e: Error) => e.name);
      },
    });
    expect(during).toBe("LockTimeoutError");
  });

  it("a held lock blocks its recipe (through a symlink alias too) but not an unrelated one", async () => {
    mkdirSync(paths.recipeRoot, { recursive: true });
    symlinkSync(join(dir, "agent"), join(dir, "alias"));
    const alias = agentPaths({ PI_CODING_AGENT_DIR: join(dir, "alias") }, dir, dir);
    const holder = await makeFileLock({ lockRoot }).acquire(join(alias.recipeRoot, "busy.json"));
    try {
      expect(await reg({ name: "free", description: "f", template: "echo f" })).toMatchObject({ ok: true });
      const blocked = await reg({ name: "busy", description: "b", template: "echo b" }, { lockOptions: { timeoutMs: 150 } });
      const canonical = await canonicalLockPath(fs, join(paths.recipeRoot, "busy.json"));
      expect(blocked.ok).toBe(false);
      // the lock's own account says how long it waited and who holds it (this very process)
      expect(blocked.text).toMatch(new RegExp(`^Timed out waiting for file mutation lock: ${canonical.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} \\(Timed out after 150 ms waiting for the lock on .*pid ${process.pid}.*\\)\\. Nothing was written; try again\\.$`));
      expect(existsSync(join(paths.recipeRoot, "busy.json"))).toBe(false);
    } finally {
      await holder.release();
    }
  });

  it("concurrent creates of one name, via the real root and a symlink alias: exactly one wins", async () => {
    mkdirSync(paths.recipeRoot, { recursive: true });
    symlinkSync(join(dir, "agent"), join(dir, "alias"));
    const alias = agentPaths({ PI_CODING_AGENT_DIR: join(dir, "alias") }, dir, dir);
    const results = await Promise.all([
      registerTool({ name: "shared", description: "s", template: "echo first" }, ctxFor(paths)),
      registerTool({ name: "shared", description: "s", template: "echo second" }, { ...ctxFor(alias), lock: makeFileLock({ lockRoot }) }),
    ]);
    expect(results.map((r) => r.ok).sort()).toEqual([false, true]);
    const loser = results.find((r) => !r.ok)!;
    expect(loser.text).toContain("already registered");
    const winner = results.indexOf(results.find((r) => r.ok)!);
    expect(readRecipe("shared.json")).toEqual({ description: "s", template: winner === 0 ? "echo first" : "echo second" });
  });

  it("reports a persist failure and writes nothing", async () => {
    mkdirSync(paths.agentDir, { recursive: true });
    writeFileSync(paths.recipeRoot, "not a folder");
    const r = await reg({ name: "x", description: "x", template: "echo x" });
    expect(r.ok).toBe(false);
    expect(r.text).toMatch(/^Failed to persist tool recipe: /);
  });
});

describe("stray temps", () => {
  it("are invisible to listing and cleaned at start, unless their target is locked", async () => {
    mkdirSync(paths.draftRoot, { recursive: true });
    await reg({ name: "kept", description: "k", template: "echo k" });
    const strays = [join(paths.recipeRoot, ".a.json.999999-1.tmp"), join(paths.draftRoot, ".d.json.999999-2.tmp")];
    for (const s of strays) writeFileSync(s, "{ partial");
    const busy = join(paths.recipeRoot, ".busy.json.1-1.tmp");
    writeFileSync(busy, "{ in progress");
    expect(await reg({})).toMatchObject({ text: "Registered tools:\n- kept" });
    const holder = await makeFileLock({ lockRoot }).acquire(join(paths.recipeRoot, "busy.json"));
    try {
      expect((await cleanStrayRecipeTemps({ paths, fs, lock })).sort()).toEqual(strays.sort());
    } finally {
      await holder.release();
    }
    expect(strays.some((s) => existsSync(s))).toBe(false);
    expect(existsSync(busy)).toBe(true);
    expect(existsSync(join(paths.recipeRoot, "kept.json"))).toBe(true);
  });

  it("a folder this user may not list keeps its temps and is told, and the rest is cleaned", async () => {
    mkdirSync(paths.draftRoot, { recursive: true });
    const stray = join(paths.recipeRoot, ".a.json.999999-1.tmp");
    mkdirSync(paths.recipeRoot, { recursive: true });
    writeFileSync(stray, "{ partial");
    // the drafts folder as a user of mode 000 sees it (root lists any folder)
    const denied = new Proxy(fs, {
      get: (target, p) =>
        p === "readdir"
          ? async (d: string) => {
              if (d === paths.draftRoot) throw toFsError(Object.assign(new Error(`EACCES: permission denied, scandir '${d}'`), { code: "EACCES" }), "readdir", d);
              return target.readdir(d);
            }
          : Reflect.get(target, p),
    });
    const told: string[] = [];
    expect(await cleanStrayRecipeTemps({ paths, fs: denied, lock, report: (m) => told.push(m) })).toEqual([stray]);
    expect(told).toEqual([`stray temps in ${paths.draftRoot} were not looked for: EACCES: permission denied, scandir '${paths.draftRoot}'`]);
  });

  it("a missing root is nothing to clean", async () => {
    expect(await cleanStrayRecipeTemps({ paths, fs, lock })).toEqual([]);
  });
});
