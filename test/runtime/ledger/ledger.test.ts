// The usage ledger on real disk: launch accounting, the fence, moves (promotion, demotion) and
// seeding, including a revised Markdown recipe and a `.usage` folder deleted under a live process.
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { createHook } from "node:async_hooks";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { recordLaunch, sourceChangedText } from "../../../runtime/ledger/account-launch.js";
import { demoteLineage, promoteLineage, renameLineage } from "../../../runtime/ledger/moves.js";
import { foldPending } from "../../../runtime/ledger/fold-logs.js";
import { recordReview } from "../../../runtime/ledger/review-epochs.js";
import { withRootFence } from "../../../runtime/ledger/fence.js";
import { makeNodeFileSystem } from "../../../adapters/fs/node.js";
import type { FileSystem } from "../../../adapters/fs/FileSystem.js";
import { closeLedger } from "../../../runtime/ledger/ledger-context.js";
import { clock, makeAgent, resolved, type Agent } from "./support.js";

let agent: Agent;
beforeEach(() => {
  agent = makeAgent();
});
afterEach(() => agent.cleanup());

const ledgerAt = (key: string) => {
  const id = agent.indexFile()?.paths[key]?.ledger;
  return id === undefined ? undefined : agent.ledgerFile(id);
};

/** every index entry has its ledger file, every ledger file is indexed and points back */
function expectConsistent(): void {
  const index = agent.indexFile()!;
  const ids = new Set(Object.values(index.paths).map((e) => e.ledger));
  expect(agent.ledgerIds()).toEqual([...ids].sort());
  for (const [key, e] of Object.entries(index.paths)) {
    expect(agent.ledgerFile(e.ledger)?.current_path).toBe(key);
    expect(agent.ledgerFile(e.ledger)?.fingerprint).toBe(e.fingerprint);
  }
  expect(existsSync(join(agent.root, ".usage", "journal.json"))).toBe(false);
}

describe("launch accounting", () => {
  it("two launches → calls 2, last launch time, a fingerprint, and the recipe file untouched", async () => {
    const c = clock("2026-01-02T03:04:05Z");
    const ctx = agent.ctx({ now: c.now });
    const path = agent.write("docs_review.json", { template: "echo hi" });
    const before = readFileSync(path, "utf8");
    expect(await recordLaunch(ctx, resolved(path))).toEqual({ ok: true, recorded: true });
    c.at("2026-01-03T03:04:05Z");
    expect(await recordLaunch(ctx, resolved(path))).toEqual({ ok: true, recorded: true });
    await foldPending(ctx);
    const ledger = ledgerAt("docs_review.json")!;
    expect(ledger).toMatchObject({ calls: 2, lifetime_calls: 2, revision_calls: 2, last_called: "2026-01-03T03:04:05.000Z", last_launch_at: "2026-01-03T03:04:05.000Z", first_launch_at: "2026-01-02T03:04:05.000Z" });
    expect(typeof ledger.fingerprint).toBe("string");
    expect(readFileSync(path, "utf8")).toBe(before);
    expect(JSON.parse(readFileSync(path, "utf8"))).not.toHaveProperty("usage");
    expectConsistent();
  });

  it("a Markdown recipe whose fence changed → same lineage, lifetime 2, revision 2, revision_calls 1", async () => {
    const ctx = agent.ctx();
    const md = (cmd: string): string => `---\ndescription: Memory\n---\n\n\`\`\`template\n${cmd}\n\`\`\`\n`;
    const path = agent.write("memory.md", md("echo one"));
    await recordLaunch(ctx, resolved(path));
    agent.write("memory.md", md("echo two"));
    await recordLaunch(ctx, resolved(path));
    await foldPending(ctx);
    expect(ledgerAt("memory.md")).toMatchObject({ lineage_name: "memory", lifetime_calls: 2, calls: 2, revision: 2, revision_calls: 1 });
    expect(ledgerAt("memory.md")!.events.map((e) => e.type)).toEqual(["created", "revised"]);
  });

  it("rejects a launch whose source changed since it was resolved, or is gone, with the reload-and-retry text", async () => {
    const ctx = agent.ctx();
    const path = agent.write("t.json", { template: "echo 1" });
    const input = resolved(path);
    agent.write("t.json", { template: "echo 2" });
    expect(await recordLaunch(ctx, input)).toEqual({ ok: false, rejected: sourceChangedText(path) });
    expect(sourceChangedText(path)).toBe(`Recipe launch rejected because its source changed during activation: ${path}. Reload recipe tools and retry.`);
    unlinkSync(path);
    expect(await recordLaunch(ctx, input)).toEqual({ ok: false, rejected: sourceChangedText(path) });
    await foldPending(ctx);
    expect(ledgerAt("t.json")).toBeUndefined();
  });

  it("packaged components and ad hoc files get no ledger", async () => {
    const ctx = agent.ctx();
    const outside = join(agent.dir, "pkg.json");
    writeFileSync(outside, JSON.stringify({ template: "echo pkg" }));
    expect(await recordLaunch(ctx, resolved(outside))).toEqual({ ok: true, recorded: false });
    expect(existsSync(join(agent.root, ".usage"))).toBe(false);
  });

  it("an I/O failure never blocks the call silently: it answers ok with a diagnostic", async () => {
    writeFileSync(join(agent.root, ".usage"), "not a folder");
    const ctx = agent.ctx();
    const path = agent.write("t.json", { template: "echo 1" });
    const outcome = await recordLaunch(ctx, resolved(path));
    expect(outcome.ok).toBe(true);
    expect(outcome).toMatchObject({ recorded: false });
    expect(outcome.ok && outcome.diagnostic).toMatch(/^Usage accounting failed for .*t\.json: .*The launch was not counted\.$/);
  });

  it("the .usage folder deleted under a live process → the next launch still counts", async () => {
    const ctx = agent.ctx();
    const path = agent.write("t.json", { template: "echo 1" });
    await recordLaunch(ctx, resolved(path));
    await foldPending(ctx);
    rmSync(join(agent.root, ".usage"), { recursive: true });
    const fresh = agent.ctx();
    expect(await recordLaunch(fresh, resolved(path))).toEqual({ ok: true, recorded: true });
    await foldPending(fresh);
    expect(ledgerAt("t.json")).toMatchObject({ lifetime_calls: 1 });
    expectConsistent();
  });

  it("a command's one launch costs few file system calls: its log opened at once, owner and begin lines in one write, no fence file made, no wait on the thread pool", async () => {
    const path = agent.write("t.json", { template: "echo 1" });
    const launchOnce = async (): Promise<string[]> => {
      const base = makeNodeFileSystem();
      const calls: string[] = [];
      const counted: FileSystem = {
        ...base,
        name: base.name,
        capabilities: base.capabilities,
        mkdir: (p, o) => (calls.push("mkdir"), base.mkdir(p, o)),
        writeFile: (p, d, o) => (calls.push("writeFile"), base.writeFile(p, d, o)),
        open: async (p, flag, mode) => {
          calls.push("open");
          const h = await base.open(p, flag, mode);
          return { ...h, write: (data) => (calls.push("write"), h.write(data)), close: () => (calls.push("close"), h.close()) };
        },
      };
      const ctx = agent.ctx({ fs: counted });
      expect(await recordLaunch(ctx, resolved(path))).toEqual({ ok: true, recorded: true });
      await closeLedger(ctx);
      return calls;
    };
    // the first launch under the root makes the launches folder, after the open said it is missing
    expect(await launchOnce()).toEqual(["open", "mkdir", "open", "write", "write", "close"]);
    // every later process: open, one write for the owner and begin lines, one for the count; all
    // of its file system calls (the fence's stat and the source's read too, the log's open and
    // close) are short calls made at once, none waits for libuv's thread pool
    const pooled: string[] = [];
    const hook = createHook({ init: (_id, type) => void (type.startsWith("FSREQ") || type === "FILEHANDLECLOSEREQ" ? pooled.push(type) : undefined) });
    hook.enable();
    try {
      expect(await launchOnce()).toEqual(["open", "write", "write", "close"]);
    } finally {
      hook.disable();
    }
    expect(pooled).toEqual([]);
    expect(existsSync(join(agent.root, ".usage", "fence.json"))).toBe(false);
    await foldPending(agent.ctx());
    expect(ledgerAt("t.json")).toMatchObject({ lifetime_calls: 2 });
  });

  it("folds by itself every foldThreshold launches, rotates its log, and deletes finished logs", async () => {
    const ctx = agent.ctx({ foldThreshold: 10, rotateLines: 7 });
    const path = agent.write("t.json", { template: "echo 1" });
    for (let i = 1; i <= 25; i++) {
      expect(await recordLaunch(ctx, resolved(path))).toEqual({ ok: true, recorded: true });
      // nothing is folded before the threshold; the 10th launch folds all ten
      if (i < 10) expect(ledgerAt("t.json")).toBeUndefined();
      if (i === 10) expect(ledgerAt("t.json")!.lifetime_calls).toBe(10);
    }
    // the 20th launch folded again; the last five wait in the logs
    expect(ledgerAt("t.json")!.lifetime_calls).toBe(20);
    await foldPending(ctx);
    expect(ledgerAt("t.json")!.lifetime_calls).toBe(25);
    // a launch is two lines, so a log is closed after its 4th launch (8 lines >= 7): the closed
    // logs of launches 1-24 are gone, and the log in use (launch 25) stays
    const { readdirSync } = await import("node:fs");
    expect(readdirSync(join(agent.root, ".usage", "launches")).length).toBe(1);
    expectConsistent();
  });
});

describe("a fold whose commit fails", () => {
  it("keeps every launch log, so a later fold still counts every launch", async () => {
    const path = agent.write("t.json", { template: "echo 1" });
    const writer = agent.ctx({ foldThreshold: 1000, rotateLines: 3 });
    for (let i = 0; i < 7; i++) expect(await recordLaunch(writer, resolved(path))).toEqual({ ok: true, recorded: true });
    await closeLedger(writer);
    const launches = join(agent.root, ".usage", "launches");
    const logsBefore = readdirSync(launches).sort();
    // a launch is two lines, so each log is closed after its 2nd launch (4 lines >= 3): three
    // closed logs, which a successful fold would delete, and the one the 7th launch opened
    expect(logsBefore.length).toBe(4);

    // every rename into .usage fails, so no write of the commit becomes durable
    const real = makeNodeFileSystem();
    const failing: FileSystem = {
      ...real,
      rename: async (from, to) => {
        if (to.startsWith(join(agent.root, ".usage"))) throw Object.assign(new Error(`EIO: injected, rename '${to}'`), { code: "EIO" });
        return real.rename(from, to);
      },
    };
    const folder = agent.ctx({ fs: failing });
    await expect(foldPending(folder)).rejects.toThrow(/injected/);
    expect(readdirSync(launches).sort()).toEqual(logsBefore);

    await foldPending(agent.ctx());
    expect(ledgerAt("t.json")).toMatchObject({ lifetime_calls: 7 });
    expectConsistent();
  });
});

describe("the recipe-root fence", () => {
  it("a launch waits for a fence writer and then counts against the new source, or is rejected", async () => {
    const writer = agent.ctx();
    const launcher = agent.ctx();
    const path = agent.write("t.json", { template: "echo 1" });
    const input = resolved(path);
    let release!: () => void;
    const held = new Promise<void>((done) => (release = done));
    let inside!: () => void;
    const entered = new Promise<void>((done) => (inside = done));
    const activation = withRootFence(writer, async () => {
      inside();
      await held;
      agent.write("t.json", { template: "echo 2" });
    });
    await entered;
    const launch = recordLaunch(launcher, input);
    let settled = false;
    void launch.then(() => (settled = true));
    await new Promise((done) => setTimeout(done, 100));
    expect(settled).toBe(false);
    release();
    await activation;
    expect(await launch).toEqual({ ok: false, rejected: sourceChangedText(path) });
    expect(await recordLaunch(launcher, resolved(path))).toEqual({ ok: true, recorded: true });
  });

  it("a writer waits for a launch already inside (begin line without outcome) and a dead writer's marker is cleared", async () => {
    const ctx = agent.ctx({ lockTimeoutMs: 300 });
    const path = agent.write("t.json", { template: "echo 1" });
    await recordLaunch(ctx, resolved(path));
    // a fence left closed by a writer that died: the next launch takes the fence lock and opens it
    writeFileSync(join(agent.root, ".usage", "fence.json"), "{}");
    expect(await recordLaunch(ctx, resolved(path))).toEqual({ ok: true, recorded: true });
    expect(readFileSync(join(agent.root, ".usage", "fence.json"), "utf8")).toBe("");
    // a begin line with no outcome from a live process holds writers back until the timeout
    await ctx.log.append({ b: 1, t: Date.now() });
    await expect(withRootFence(agent.ctx({ lockTimeoutMs: 300 }), async () => "in")).rejects.toThrow(/waiting for 1 recipe launch/);
  });
});

describe("lineage moves", () => {
  it("the lineage follows a recipe through promote, launch, demote and review", async () => {
    const ctx = agent.ctx();
    const draft = agent.write("drafts/memory.json", { template: "echo memory" });
    await recordLaunch(ctx, resolved(draft));
    const tool = join(agent.root, "memory_tool.json");
    expect(await promoteLineage(ctx, { from: draft, to: tool })).toEqual({ ok: true, diagnostics: [] });
    await recordLaunch(ctx, resolved(tool));
    await foldPending(ctx);
    expect(ledgerAt("memory_tool.json")).toMatchObject({ lineage_name: "memory_tool", lifetime_calls: 2, revision_calls: 2, former_paths: ["drafts/memory.json"], former_names: ["memory"] });
    expect(await demoteLineage(ctx, { from: tool, to: draft })).toMatchObject({ ok: true });
    const back = ledgerAt("drafts/memory.json")!;
    expect(back).toMatchObject({ lineage_name: "memory", lifetime_calls: 2, former_paths: ["drafts/memory.json", "memory_tool.json"] });
    expect(back.events.map((e) => e.type)).toEqual(["created", "promoted", "demoted"]);
    expect(await recordReview(ctx, draft, "draft-review-001")).toBe(true);
    expect(ledgerAt("drafts/memory.json")!.review_epochs).toEqual(["draft-review-001"]);
    expect(agent.ledgerIds()).toEqual(["memory"]);
    expectConsistent();
  });

  it("a controlled rename moves history to the new name, keeps the former one, and is idempotent", async () => {
    const ctx = agent.ctx();
    const a = agent.write("a.json", { template: "echo a" });
    await recordLaunch(ctx, resolved(a));
    const b = join(agent.root, "b.json");
    expect(await renameLineage(ctx, { from: a, to: b })).toEqual({ ok: true, diagnostics: [] });
    expect(existsSync(a)).toBe(false);
    expect(existsSync(b)).toBe(true);
    expect(await renameLineage(ctx, { from: a, to: b })).toEqual({ ok: true, diagnostics: [] });
    await recordLaunch(ctx, resolved(b));
    await foldPending(ctx);
    expect(ledgerAt("b.json")).toMatchObject({ lineage_name: "b", lifetime_calls: 2, former_names: ["a"], former_paths: ["a.json"] });
    expect(ledgerAt("b.json")!.events.at(-1)).toMatchObject({ type: "renamed", from: "a.json", to: "b.json" });
    expectConsistent();
  });

  it("refuses to merge into a target that has its own lineage, and moves nothing over an existing file", async () => {
    const ctx = agent.ctx();
    const a = agent.write("a.json", { template: "echo a" });
    const b = agent.write("b.json", { template: "echo b" });
    await recordLaunch(ctx, resolved(a));
    await recordLaunch(ctx, resolved(b));
    expect(await renameLineage(ctx, { from: a, to: b })).toMatchObject({ ok: false, diagnostic: "Usage lineage not moved: b.json already has its own usage lineage (b)" });
    const c = agent.write("c.json", { template: "echo c" });
    expect(await renameLineage(ctx, { from: a, to: c })).toMatchObject({ ok: false, diagnostic: `Recipe not moved: ${c} already exists` });
    expect(existsSync(a)).toBe(true);
    expect(ledgerAt("a.json")).toMatchObject({ lineage_name: "a" });
    expectConsistent();
  });

  it("an external rename is followed by fingerprint on the next launch; an ambiguous one is not, with a diagnostic", async () => {
    const ctx = agent.ctx();
    const a = agent.write("a.json", { template: "echo a" });
    await recordLaunch(ctx, resolved(a));
    await foldPending(ctx);
    renameSync(a, join(agent.root, "z.json"));
    await recordLaunch(ctx, resolved(join(agent.root, "z.json")));
    expect(await foldPending(ctx)).toEqual([]);
    expect(ledgerAt("z.json")).toMatchObject({ lifetime_calls: 2, former_names: ["a"], former_paths: ["a.json"] });

    const p = agent.write("p.json", { template: "echo same" });
    const q = agent.write("q.json", { template: "echo same" });
    await recordLaunch(ctx, resolved(p));
    await recordLaunch(ctx, resolved(q));
    await foldPending(ctx);
    unlinkSync(q);
    renameSync(p, join(agent.root, "r.json"));
    await recordLaunch(ctx, resolved(join(agent.root, "r.json")));
    expect(await foldPending(ctx)).toEqual([
      "Usage lineage of r.json not followed: 2 former recipes share its fingerprint (p.json, q.json); it starts a new lineage.",
    ]);
    expect(ledgerAt("r.json")).toMatchObject({ lifetime_calls: 1, former_paths: [] });
    expectConsistent();
  });
});
