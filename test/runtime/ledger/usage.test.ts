// Seeding zero-call lineage from discovery, and the usage the inspect views show.
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openRegistry } from "../../../runtime/registry.js";
import { makeNodeScanPort } from "../../../adapters/fs/scan.js";
import { inspectRecipes } from "../../../core/views/summary.js";
import { recordLaunch } from "../../../runtime/ledger/account-launch.js";
import { seedLineages } from "../../../runtime/ledger/seed-lineages.js";
import { foldPending } from "../../../runtime/ledger/fold-logs.js";
import { loadUsage } from "../../../runtime/ledger/usage.js";
import { inspectWithUsage } from "../../../runtime/usage-view.js";
import { makeNodeFileSystem } from "../../../adapters/fs/node.js";
import { makeAgent, resolved, type Agent } from "./support.js";

let agent: Agent;
let packaged: string;
beforeEach(() => {
  agent = makeAgent();
  packaged = join(agent.dir, "packaged");
  mkdirSync(packaged);
  writeFileSync(join(packaged, "stdlib.json"), JSON.stringify({ template: "echo std" }));
});
afterEach(() => agent.cleanup());

const discover = () => openRegistry({ env: { PI_CODING_AGENT_DIR: agent.dir }, packagedRoot: packaged, scan: makeNodeScanPort() }).discover();

describe("seedLineages", () => {
  it("gives every active user recipe zero-call lineage, packaged components none, and is a no-op when current", async () => {
    agent.write("used.json", { template: "echo used" });
    agent.write("idle.json", { template: "echo idle" });
    agent.write("off.json", { disabled: true, template: "echo off" });
    agent.write("broken.json", "{");
    const ctx = agent.ctx();
    expect(await seedLineages(ctx, discover())).toEqual({ changed: true, diagnostics: [] });
    expect(agent.ledgerIds()).toEqual(["idle", "off", "used"]);
    expect(agent.ledgerFile("idle")).toMatchObject({ lifetime_calls: 0, calls: 0, revision_calls: 0, revision: 1 });
    expect(agent.ledgerFile("idle")!.events.map((e) => e.type)).toEqual(["created"]);
    expect(agent.ledgerFile("idle")).not.toHaveProperty("last_launch_at");
    expect(await seedLineages(ctx, discover())).toEqual({ changed: false, diagnostics: [] });
  });

  it("revises a changed recipe without counting a launch, and follows an external rename", async () => {
    const path = agent.write("t.json", { template: "echo 1" });
    const ctx = agent.ctx();
    await seedLineages(ctx, discover());
    await recordLaunch(ctx, resolved(path));
    agent.write("t.json", { description: "new words", template: "echo 1" });
    // a new description is not a new revision: nothing to seed (the launch waits in the log)
    expect(await seedLineages(ctx, discover())).toEqual({ changed: false, diagnostics: [] });
    await foldPending(ctx);
    expect(agent.ledgerFile("t")).toMatchObject({ lifetime_calls: 1, revision: 1, revision_calls: 1 });
    agent.write("t.json", { template: "echo 2" });
    await seedLineages(ctx, discover());
    expect(agent.ledgerFile("t")).toMatchObject({ lifetime_calls: 1, revision: 2, revision_calls: 0 });
    renameSync(path, join(agent.root, "u.json"));
    await seedLineages(ctx, discover());
    expect(agent.ledgerIds()).toEqual(["u"]);
    expect(agent.ledgerFile("u")).toMatchObject({ lifetime_calls: 1, former_names: ["t"], former_paths: ["t.json"] });
  });
});

describe("seedLineages and a disabled recipe", () => {
  it("switching disabled on and off again is no revision; a disabled recipe still gets its lineage", async () => {
    const path = agent.write("t.json", { template: "echo 1" });
    agent.write("off.json", { disabled: true, template: "echo off" });
    const ctx = agent.ctx();
    await seedLineages(ctx, discover());
    expect(agent.ledgerIds()).toEqual(["off", "t"]);
    await recordLaunch(ctx, resolved(path));
    await foldPending(ctx);
    agent.write("t.json", { disabled: true, template: "echo 1" });
    expect(await seedLineages(ctx, discover())).toEqual({ changed: false, diagnostics: [] });
    agent.write("t.json", { template: "echo 1" });
    await seedLineages(ctx, discover());
    expect(agent.ledgerFile("t")).toMatchObject({ lifetime_calls: 1, revision: 1, revision_calls: 1 });
    // disabled, renamed by hand while disabled, enabled again: the same tool, the same revision
    agent.write("t.json", { disabled: true, template: "echo 1" });
    await seedLineages(ctx, discover());
    renameSync(path, join(agent.root, "u.json"));
    await seedLineages(ctx, discover());
    agent.write("u.json", { template: "echo 1" });
    await seedLineages(ctx, discover());
    expect(agent.ledgerIds()).toEqual(["off", "u"]);
    expect(agent.ledgerFile("u")).toMatchObject({ lifetime_calls: 1, revision: 1, revision_calls: 1, former_names: ["t"] });
  });
});

describe("usage in inspect target=recipes view=summary verbose=true", () => {
  it("shows per-recipe usage and the operator-gated cleanup recommendations", async () => {
    const used = agent.write("used.json", { template: "echo used" });
    agent.write("idle.json", { template: "echo idle" });
    agent.write("off.json", { disabled: true, template: "echo off" });
    agent.write("broken.json", "{");
    writeFileSync(join(packaged, "used.json"), JSON.stringify({ template: "echo shadowed" }));
    const ctx = agent.ctx();
    const discovery = discover();
    await seedLineages(ctx, discovery);
    await recordLaunch(ctx, resolved(used));
    await recordLaunch(ctx, resolved(used));
    const usage = await loadUsage(ctx, discovery.entries);
    expect(usage.diagnostics).toEqual([]);
    const result = inspectRecipes(discovery, { view: "summary", verbose: true, usage: usage.usageFor });
    const details = result.details as {
      active: { id: string; usage?: Record<string, unknown> }[];
      recommendations: { id: string; reason: string; actions: string[] }[];
    };
    const byId = new Map(details.active.map((a) => [a.id, a]));
    const lastLaunch = byId.get("used")?.usage?.["last_launch_at"];
    expect(byId.get("used")?.usage).toEqual({ lifetime_calls: 2, calls: 2, revision_calls: 2, last_launch_at: lastLaunch });
    expect(typeof lastLaunch).toBe("string");
    expect(byId.get("idle")?.usage).toEqual({ lifetime_calls: 0, calls: 0, revision_calls: 0, last_launch_at: null });
    expect(byId.get("stdlib")?.usage).toBeUndefined();
    const reasons = Object.fromEntries(details.recommendations.map((r) => [r.id, r.reason]));
    expect(reasons["idle"]).toBe("active user tool has no recorded launches");
    expect(reasons["off"]).toBe("disabled recipe is retained but not exposed as a tool");
    expect(reasons["broken"]).toBe("invalid recipe blocks lower-priority entries with the same id");
    expect(reasons["used"]).toBe("overrides 1 lower-priority recipe(s)");
    expect(reasons["stdlib"]).toBeUndefined();
    // --json carries the same object as the text
    expect(JSON.parse(result.text)).toEqual(JSON.parse(JSON.stringify(result.details)));
  });
});

describe("usage the ledgers cannot give", () => {
  it("a lock held past its wait, or a file where the usage folder is: no zeros, no unused advice, a warning", async () => {
    const used = agent.write("used.json", { template: "echo used" });
    const discovery = discover();
    const ctx = agent.ctx({ lockTimeoutMs: 50 });
    await seedLineages(ctx, discovery);
    await recordLaunch(ctx, resolved(used));
    await foldPending(ctx);
    const fs = makeNodeFileSystem();
    const paths = { recipeRoot: agent.root, usageRoot: ctx.paths.usageRoot } as never;
    const doctor = () => inspectWithUsage(discovery, { target: "recipes", view: "doctor" }, { paths, fs, ledger: ctx });
    const summary = () => inspectWithUsage(discovery, { target: "recipes", view: "summary", verbose: "true" }, { paths, fs, ledger: ctx });
    // readable: one launch, nothing to advise
    expect((await doctor()).text).toMatch(/^recipes doctor errors=0 warnings=0 .* recommendations=0/);
    // another process holds the store past this one's wait
    let release = (): void => undefined;
    let taken = (): void => undefined;
    const isTaken = new Promise<void>((r) => (taken = r));
    const holding = ctx.lock.withLock(ctx.paths.index, () => new Promise<void>((r) => ((release = r), taken())));
    await isTaken;
    const held = [await doctor(), await summary()] as const;
    release();
    await holding;
    for (const answer of held) {
      expect(answer.details["usage_unreadable"]).toMatch(/^Usage ledgers could not be read: Timed out after 50 ms waiting for the lock/);
      expect(answer.text).toContain("Usage ledgers could not be read: ");
    }
    expect(held[0].text).toMatch(/^recipes doctor errors=0 warnings=1 .* recommendations=0/);
    const active = (held[1].details as { active: { id: string; usage?: unknown }[] }).active;
    expect(active.find((a) => a.id === "used")?.usage).toBeUndefined();
    // a file where the usage folder should be
    renameSync(ctx.paths.usageRoot, `${ctx.paths.usageRoot}.away`);
    writeFileSync(ctx.paths.usageRoot, "not a folder");
    const broken = await doctor();
    expect(broken.details["usage_unreadable"]).toBe(`Usage ledgers could not be read: ${ctx.paths.usageRoot} is not a folder`);
    expect(broken.text).toMatch(/recommendations=0/);
    // the reviews view reads the store as well: it says so too, instead of showing it empty
    const reviews = await inspectWithUsage(discovery, { target: "recipes", view: "reviews" }, { paths, fs, ledger: ctx });
    expect(reviews.details["usage_unreadable"]).toBe(`Usage ledgers could not be read: ${ctx.paths.usageRoot} is not a folder`);
    expect(reviews.text).toContain(`\nwarning: Usage ledgers could not be read: ${ctx.paths.usageRoot} is not a folder`);
  });
});
