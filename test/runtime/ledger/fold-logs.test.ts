// Folding launch logs on real disk: which logs go after a fold, and what a lost index costs.
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FsError, type FileSystem } from "../../../adapters/fs/FileSystem.js";
import { makeNodeFileSystem } from "../../../adapters/fs/node.js";
import { nodeProcessProbe } from "../../../adapters/lock/owner.js";
import { foldPending } from "../../../runtime/ledger/fold-logs.js";
import { recordLaunch } from "../../../runtime/ledger/account-launch.js";
import { closeLedger, type LedgerContext } from "../../../runtime/ledger/ledger-context.js";
import { makeAgent, resolved, type Agent } from "./support.js";

let agent: Agent;
beforeEach(() => {
  agent = makeAgent();
});
afterEach(() => agent.cleanup());

const launches = (): string[] => readdirSync(join(agent.root, ".usage", "launches")).sort();
const callsOf = (key: string): number | undefined => {
  const id = agent.indexFile()?.paths[key]?.ledger;
  return id === undefined ? undefined : agent.ledgerFile(id)?.lifetime_calls;
};

describe("which launch logs a fold deletes", () => {
  it("a log whose process died is counted, then deleted; a live process's open log is counted and kept", async () => {
    const path = agent.write("t.json", { template: "echo 1" });
    const deadPid = spawnSync(process.execPath, ["-e", "0"]).pid!;
    const dead = agent.ctx({ probe: { ...nodeProcessProbe, pid: deadPid }, newId: () => "dead", foldThreshold: 1000 });
    const live = agent.ctx({ newId: () => "live", foldThreshold: 1000 });
    for (let i = 0; i < 3; i++) await recordLaunch(dead, resolved(path));
    for (let i = 0; i < 2; i++) await recordLaunch(live, resolved(path));
    const before = launches();
    expect(before).toHaveLength(2);

    const folder = agent.ctx({ newId: () => "folder" });
    expect(await foldPending(folder)).toEqual([]);
    expect(callsOf("t.json")).toBe(5);
    expect(launches()).toEqual(before.filter((n) => n.includes("live")));
    // folding again counts nothing twice
    await foldPending(folder);
    expect(callsOf("t.json")).toBe(5);
    await recordLaunch(live, resolved(path));
    await foldPending(folder);
    expect(callsOf("t.json")).toBe(6);
  });
});

describe("a fold over an unreadable index", () => {
  it("rebuilds it from the ledgers and counts none of the launches not yet folded, never one twice", async () => {
    const path = agent.write("t.json", { template: "echo 1" });
    const ctx = agent.ctx({ foldThreshold: 1000 });
    await recordLaunch(ctx, resolved(path));
    await recordLaunch(ctx, resolved(path));
    await foldPending(ctx);
    expect(callsOf("t.json")).toBe(2);

    // one launch not yet folded when the index is lost
    await recordLaunch(ctx, resolved(path));
    const index = join(agent.root, ".usage", "index.json");
    writeFileSync(index, "{ torn");
    expect(await foldPending(ctx)).toEqual([`Usage index ${index} was unreadable and was rebuilt from the ledgers; launches not yet folded are not counted.`]);
    expect(JSON.parse(readFileSync(index, "utf8"))).toMatchObject({ paths: { "t.json": { ledger: "t" } } });
    expect(callsOf("t.json")).toBe(2);

    // later launches count again
    await recordLaunch(ctx, resolved(path));
    await foldPending(ctx);
    expect(callsOf("t.json")).toBe(3);
  });
});

describe("a launch log that goes while the fold reads it", () => {
  it("is passed over when another fold deleted it; another read failure stops the fold", async () => {
    const path = agent.write("t.json", { template: "echo 1" });
    const writer = agent.ctx({ newId: () => "w", foldThreshold: 1000 });
    await recordLaunch(writer, resolved(path));
    const real = makeNodeFileSystem();
    const isLog = (p: string): boolean => p.startsWith(join(agent.root, ".usage", "launches")) && p.endsWith(".log");
    const vanished: FileSystem = { ...real, readFile: (p) => (isLog(p) ? Promise.reject(new FsError("ENOENT", "readFile", p, "ENOENT: readFile")) : real.readFile(p)) };
    expect(await foldPending(agent.ctx({ fs: vanished, newId: () => "f1" }))).toEqual([]);
    expect(callsOf("t.json")).toBeUndefined();
    const denied: FileSystem = { ...real, readFile: (p) => (isLog(p) ? Promise.reject(new FsError("EACCES", "readFile", p, "EACCES: readFile")) : real.readFile(p)) };
    await expect(foldPending(agent.ctx({ fs: denied, newId: () => "f2" }))).rejects.toMatchObject({ code: "EACCES" });
    await foldPending(agent.ctx({ newId: () => "f3" }));
    expect(callsOf("t.json")).toBe(1);
  });
});

/** closes the log for good (its last line says so), as a process does at exit */
async function closeLedgerLog(ctx: LedgerContext): Promise<void> {
  await ctx.log.rotate();
  await closeLedger(ctx);
}

describe("what a fold reads and forgets", () => {
  it("counts only files named as launch logs: a copy of a log under another name is not counted again", async () => {
    const path = agent.write("t.json", { template: "echo 1" });
    const ctx = agent.ctx({ newId: () => "w", foldThreshold: 1000 });
    for (let i = 0; i < 3; i++) await recordLaunch(ctx, resolved(path));
    const [log] = launches();
    // a backup tool or an editor leaves a copy next to it
    writeFileSync(join(agent.root, ".usage", "launches", `${log}.bak`), readFileSync(join(agent.root, ".usage", "launches", log!)));
    await foldPending(ctx);
    expect(callsOf("t.json")).toBe(3);
  });

  it("forgets the watermark of a deleted log at the next fold, with nothing new to count", async () => {
    const path = agent.write("t.json", { template: "echo 1" });
    const writer = agent.ctx({ newId: () => "w", foldThreshold: 1000 });
    await recordLaunch(writer, resolved(path));
    await closeLedgerLog(writer);
    // the fold counts the closed log, commits its watermark, then deletes it
    await foldPending(agent.ctx({ newId: () => "f1" }));
    expect(launches()).toEqual([]);
    expect(Object.keys(agent.indexFile()!.applied)).toEqual([expect.stringContaining("-w")]);
    await foldPending(agent.ctx({ newId: () => "f2" }));
    expect(agent.indexFile()!.applied).toEqual({});
    expect(callsOf("t.json")).toBe(1);
  });

  it("forgets a deleted log's watermark also while other logs are still in use", async () => {
    const path = agent.write("t.json", { template: "echo 1" });
    const done = agent.ctx({ newId: () => "done", foldThreshold: 1000 });
    const open = agent.ctx({ newId: () => "open", foldThreshold: 1000 });
    await recordLaunch(done, resolved(path));
    await closeLedgerLog(done);
    await recordLaunch(open, resolved(path));
    await foldPending(agent.ctx({ newId: () => "f1" }));
    expect(Object.keys(agent.indexFile()!.applied).map((id) => id.split("-").at(-1)).sort()).toEqual(["done", "open"]);
    await foldPending(agent.ctx({ newId: () => "f2" }));
    expect(Object.keys(agent.indexFile()!.applied).map((id) => id.split("-").at(-1))).toEqual(["open"]);
    expect(callsOf("t.json")).toBe(2);
  });

  it("a finished log already removed when the fold deletes it (by hand, say) does not fail the fold", async () => {
    const path = agent.write("t.json", { template: "echo 1" });
    const writer = agent.ctx({ newId: () => "w", foldThreshold: 1000 });
    await recordLaunch(writer, resolved(path));
    await closeLedgerLog(writer);
    const real = makeNodeFileSystem();
    const racing: FileSystem = {
      ...real,
      rm: async (p, options) => {
        if (p.endsWith(".log")) await real.rm(p, { force: true });
        return real.rm(p, options);
      },
    };
    expect(await foldPending(agent.ctx({ fs: racing, newId: () => "f" }))).toEqual([]);
    expect(callsOf("t.json")).toBe(1);
    expect(launches()).toEqual([]);
  });

  it("stops when it cannot tell whether a recipe is gone, rather than move its lineage", async () => {
    const a = agent.write("a.json", { template: "echo same" });
    const ctx = agent.ctx({ newId: () => "w", foldThreshold: 1000 });
    await recordLaunch(ctx, resolved(a));
    await foldPending(ctx);
    // a copy with the same content: a.json is a relocation candidate, and its stat fails
    const b = agent.write("b.json", { template: "echo same" });
    await recordLaunch(ctx, resolved(b));
    const real = makeNodeFileSystem();
    const denied: FileSystem = { ...real, stat: (p) => (p === a ? Promise.reject(new FsError("EACCES", "stat", p, "EACCES: stat")) : real.stat(p)) };
    await expect(foldPending(agent.ctx({ fs: denied, newId: () => "f" }))).rejects.toMatchObject({ code: "EACCES" });
    await foldPending(agent.ctx({ newId: () => "g" }));
    expect(callsOf("a.json")).toBe(1);
    expect(callsOf("b.json")).toBe(1);
  });
});
