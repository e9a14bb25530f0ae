// 8 real processes × 500 launches of 3 tools, one tool renamed by a ninth process half way
// through: every launch counted exactly once, no ledger corrupt or orphaned.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { spawnWorker, type Worker } from "./workers.js";
import { foldPending } from "../../../runtime/ledger/fold-logs.js";
import { makeAgent, type Agent } from "./support.js";

let agent: Agent;
const workers: Worker[] = [];
beforeEach(() => {
  agent = makeAgent();
});
afterEach(async () => {
  workers.splice(0).forEach((w) => w.kill());
  await agent.cleanup();
});

describe("launch accounting across processes", () => {
  // the waits below are guards against a hung worker, not timing goals: on a loaded machine eight
  // worker processes can take half a minute just to start
  it("8 processes × 500 launches × 3 tools, b renamed to b2 half way: 12,000 exactly", async () => {
    for (const t of ["a", "b", "c"]) agent.write(`${t}.json`, { description: `tool ${t}`, template: `echo ${t} {x}` });
    const renamer = spawnWorker({ mode: "rename", root: agent.root, lockRoot: agent.lockRoot, from: "b.json", to: "b2.json" });
    workers.push(renamer);
    await renamer.next("ready", 120_000);
    const launchers = Array.from({ length: 8 }, () =>
      spawnWorker({ mode: "launch", root: agent.root, lockRoot: agent.lockRoot, tools: ["a", "b", "c"], n: 500, progressAt: 250 })
    );
    workers.push(...launchers);
    await Promise.all(launchers.map((w) => w.next("progress", 120_000)));
    renamer.send("go");
    expect((await renamer.next("renamed", 120_000)) as unknown).toMatchObject({ result: { ok: true } });
    const done = await Promise.all(launchers.map((w) => w.next("done", 120_000)));
    await Promise.all(launchers.map((w) => w.exited));
    expect(done.map((d) => (d as unknown as { diagnostics: number }).diagnostics)).toEqual(Array(8).fill(0));

    const ctx = agent.ctx();
    expect(await foldPending(ctx)).toEqual([]);
    const index = agent.indexFile()!;
    expect(Object.keys(index.paths).sort()).toEqual(["a.json", "b2.json", "c.json"]);
    const totals = Object.fromEntries(Object.entries(index.paths).map(([k, e]) => [k, agent.ledgerFile(e.ledger)!.lifetime_calls]));
    expect(totals).toEqual({ "a.json": 4000, "b2.json": 4000, "c.json": 4000 });
    const b2 = agent.ledgerFile(index.paths["b2.json"]!.ledger)!;
    expect(b2).toMatchObject({ lineage_name: "b2", calls: 4000, revision_calls: 4000, former_names: ["b"], former_paths: ["b.json"] });
    // no orphan ledger, no leftover journal or temp, and the dead processes' logs are folded away
    expect(agent.ledgerIds()).toEqual(["a", "b2", "c"]);
    expect(readdirSync(join(agent.root, ".usage")).sort()).toEqual(["fence.json", "index.json", "journal", "launches", "recipes"]);
    expect(readdirSync(join(agent.root, ".usage", "journal"))).toEqual([]);
    expect(readFileSync(join(agent.root, ".usage", "fence.json"), "utf8")).toBe("");
    expect(readdirSync(join(agent.root, ".usage", "launches"))).toEqual([]);
  }, 300_000);
});
