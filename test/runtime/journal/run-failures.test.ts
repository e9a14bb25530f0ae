// What runPlan tells its caller when something fails, and what it leaves on disk.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as E from "fp-ts/lib/Either.js";
import { FsError, type FileSystem } from "../../../adapters/fs/FileSystem.js";
import { makeNodeFileSystem } from "../../../adapters/fs/node.js";
import { buildPlan, planErrorText, type Plan, type PlanInput } from "../../../core/journal/plan.js";
import { PlanFailed, recoverJournals, runPlan } from "../../../runtime/journal/index.js";

let dir: string;
const fs = makeNodeFileSystem();
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "journal-fail-"));
  mkdirSync(join(dir, "r"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const at = (name: string): string => join(dir, "r", name);
const journals = (): string => join(dir, "j");
const eio = (what: string, path: string): FsError => new FsError("UNKNOWN", "rename", path, `EIO: injected, ${what}`, { rawCode: "EIO" });

function plan(input: PlanInput): Plan {
  const p = buildPlan(input);
  if (E.isLeft(p)) throw new Error(planErrorText(p.left));
  return p.right;
}

async function failure(p: Promise<void>): Promise<PlanFailed> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(PlanFailed);
  return e as PlanFailed;
}

describe("runPlan failures", () => {
  it("refuses a plan whose files changed since it was made, naming the path, and writes nothing", async () => {
    writeFileSync(at("a"), "changed");
    const p = plan({ id: "c1", kind: "test", phases: [[{ op: "write", path: at("a"), before: "original", content: "new" }]] });
    const e = await failure(runPlan(fs, journals(), p));
    expect(e.message).toBe(`${at("a")} changed since the plan c1 (test) was made; nothing was written`);
    expect(e).toMatchObject({ planId: "c1", rolledBack: true, journalKept: false });
    expect(existsSync(journals())).toBe(false);
    expect(readFileSync(at("a"), "utf8")).toBe("changed");
  });

  it("refuses to remove a file whose content changed since the plan was made", async () => {
    writeFileSync(at("a"), "changed");
    const p = plan({ id: "c5", kind: "test", phases: [[{ op: "unlink", path: at("a"), before: "original" }]] });
    expect((await failure(runPlan(fs, journals(), p))).message).toBe(`${at("a")} changed since the plan c5 (test) was made; nothing was written`);
    expect(readFileSync(at("a"), "utf8")).toBe("changed");
  });

  it("checks both names of a rename and a link's new name", async () => {
    writeFileSync(at("from"), "F");
    writeFileSync(at("to"), "in the way");
    const rename = plan({ id: "c2", kind: "test", phases: [[{ op: "rename", from: at("from"), to: at("to"), before: "F", replaced: null }]] });
    expect((await failure(runPlan(fs, journals(), rename))).message).toMatch(new RegExp(`^${at("to")} changed since`));
    const link = plan({ id: "c3", kind: "test", phases: [[{ op: "link", from: at("from"), to: at("to"), before: "F" }]] });
    expect((await failure(runPlan(fs, journals(), link))).message).toMatch(new RegExp(`^${at("to")} changed since`));
    const mkdir = plan({ id: "c4", kind: "test", phases: [[{ op: "mkdir", path: at("to") }]] });
    expect((await failure(runPlan(fs, journals(), mkdir))).message).toMatch(new RegExp(`^${at("to")} changed since`));
    expect(readFileSync(at("to"), "utf8")).toBe("in the way");
  });

  it("a plan without steps writes no journal", async () => {
    let writes = 0;
    const counting: FileSystem = { ...fs, open: (p, f, m) => (writes++, fs.open(p, f, m)), mkdir: (p, o) => (writes++, fs.mkdir(p, o)) };
    await runPlan(counting, journals(), plan({ id: "e", kind: "test", phases: [[], []] }));
    expect(writes).toBe(0);
    expect(existsSync(journals())).toBe(false);
  });

  it("a journal that cannot be written: nothing changes, and the caller hears so", async () => {
    const noJournal: FileSystem = { ...fs, rename: (from, to) => (to.startsWith(journals()) ? Promise.reject(eio("journal", to)) : fs.rename(from, to)) };
    const e = await failure(runPlan(noJournal, journals(), plan({ id: "j1", kind: "test", phases: [[{ op: "write", path: at("x"), before: null, content: "x" }]] })));
    expect(e.message).toBe("Plan j1 (test) could not write its journal; nothing was changed: EIO: injected, journal");
    expect((e.cause as Error).message).toBe("EIO: injected, journal");
    expect(e).toMatchObject({ rolledBack: true, journalKept: false });
    expect(existsSync(at("x"))).toBe(false);
    expect(readdirSync(journals())).toEqual([]);
  });

  it("a journal that was written but cannot be removed after a failure is reported as kept", async () => {
    const stuck: FileSystem = {
      ...fs,
      // the journal lands, then its folder fsync fails; removing it fails too
      fsyncDir: (p) => (p === journals() ? Promise.reject(eio("fsync", p)) : fs.fsyncDir(p)),
      unlink: (p) => (p.startsWith(journals()) ? Promise.reject(eio("unlink", p)) : fs.unlink(p)),
    };
    const e = await failure(runPlan(stuck, journals(), plan({ id: "j2", kind: "test", phases: [[{ op: "write", path: at("x"), before: null, content: "x" }]] })));
    expect(e.message).toBe("Plan j2 (test) could not write its journal (it remains, for recovery): EIO: injected, fsync");
    expect(e).toMatchObject({ rolledBack: false, journalKept: true });
    expect(readdirSync(journals())).toEqual(["j2.journal.json"]);
    expect(await recoverJournals(fs, journals())).toEqual([{ id: "j2", kind: "test", outcome: "rolled-forward" }]);
  });

  /** A file system on which a journal can neither land (its rename fails) nor be removed. */
  const journalStuck = (): FileSystem => ({
    ...fs,
    rename: (from, to) => (to.startsWith(journals()) ? Promise.reject(eio("journal", to)) : fs.rename(from, to)),
    unlink: (p) => (p.startsWith(journals()) ? Promise.reject(eio("unlink", p)) : fs.unlink(p)),
    rm: (p, o) => (p.startsWith(journals()) ? Promise.reject(eio("rm", p)) : fs.rm(p, o)),
  });

  it("a journal that never landed and cannot be removed either: nothing was changed", async () => {
    const neither = journalStuck();
    const e = await failure(runPlan(neither, journals(), plan({ id: "j3", kind: "test", phases: [[{ op: "write", path: at("x"), before: null, content: "x" }]] })));
    expect(e.message).toBe("Plan j3 (test) could not write its journal; nothing was changed: EIO: injected, journal");
    expect(e).toMatchObject({ rolledBack: true, journalKept: false });
  });

  it("a journal that cannot be removed nor looked at is reported as possibly kept", async () => {
    const stuck = journalStuck();
    const blind: FileSystem = {
      ...stuck,
      lstat: (p) => (p.startsWith(journals()) && p.endsWith(".journal.json") ? Promise.reject(eio("lstat", p)) : stuck.lstat(p)),
    };
    const e = await failure(runPlan(blind, journals(), plan({ id: "j4", kind: "test", phases: [[{ op: "write", path: at("x"), before: null, content: "x" }]] })));
    expect(e.message).toBe("Plan j4 (test) could not write its journal (it remains, for recovery): EIO: injected, journal");
    expect(e).toMatchObject({ rolledBack: false, journalKept: true });
  });

  it("a one-way plan that fails keeps its journal, and recovery finishes it", async () => {
    writeFileSync(at("a"), "A");
    let failOnce = true;
    const flaky: FileSystem = {
      ...fs,
      rename: (from, to) => {
        if (to === at("b") && failOnce) {
          failOnce = false;
          return Promise.reject(eio("step", to));
        }
        return fs.rename(from, to);
      },
    };
    // `before` is known by hash only, so the plan cannot be undone
    const real = plan({ id: "o1", kind: "test", phases: [[{ op: "write", path: at("a"), before: { hash: createHash("sha256").update("A").digest("hex") }, content: "A2" }], [{ op: "write", path: at("b"), before: null, content: "B" }]] });
    expect(real.reversible).toBe(false);
    const e = await failure(runPlan(flaky, journals(), real));
    expect(e.message).toBe("Plan o1 (test) failed and stays journaled for recovery: EIO: injected, step");
    expect(e).toMatchObject({ rolledBack: false, journalKept: true });
    expect(String(e)).toBe(`PlanFailed: ${e.message}`);
    expect((e.cause as Error).message).toBe("EIO: injected, step");
    expect(await recoverJournals(fs, journals())).toEqual([{ id: "o1", kind: "test", outcome: "rolled-forward" }]);
    expect([readFileSync(at("a"), "utf8"), readFileSync(at("b"), "utf8")]).toEqual(["A2", "B"]);
  });

  it("a reversible plan whose undo fails too stays journaled, turned back, and recovery undoes it", async () => {
    writeFileSync(at("a"), "A");
    let broken = true;
    const p = plan({ id: "u1", kind: "test", phases: [[{ op: "write", path: at("a"), before: "A", content: "A2" }], [{ op: "write", path: at("b"), before: null, content: "B" }]] });
    const failing: FileSystem = {
      ...fs,
      // the second phase fails, and so does every later write to a
      rename: (from, to) => (broken && (to === at("b") || (to === at("a") && readFileSync(at("a"), "utf8") === "A2")) ? Promise.reject(eio(`rename ${to}`, to)) : fs.rename(from, to)),
    };
    const e = await failure(runPlan(failing, journals(), p));
    expect(e.message).toBe(`Plan u1 (test) failed (EIO: injected, rename ${at("b")}) and could not be undone now, it stays journaled for recovery: EIO: injected, rename ${at("a")}`);
    expect((e.cause as Error).message).toBe(`EIO: injected, rename ${at("a")}`);
    expect(e).toMatchObject({ rolledBack: false, journalKept: true });
    broken = false;
    expect(await recoverJournals(fs, journals())).toEqual([{ id: "u1", kind: "test", outcome: "rolled-back" }]);
    expect(readFileSync(at("a"), "utf8")).toBe("A");
    expect(existsSync(at("b"))).toBe(false);
  });

  it("a plan that lacks the content of a write fails, naming it, and stays journaled", async () => {
    const hash = "ab".repeat(32);
    const handMade: Plan = { id: "m1", kind: "test", phases: [[{ op: "write", path: at("x"), before: null, after: hash }]], blobs: {}, reversible: false };
    const e = await failure(runPlan(fs, journals(), handMade));
    expect(e.message).toBe(`Plan m1 (test) failed and stays journaled for recovery: Journal m1 has no content ${hash} for ${at("x")}`);
    expect(existsSync(at("x"))).toBe(false);
  });

  it("a folder that cannot be made fails the plan with that error, and rolls it back", async () => {
    writeFileSync(at("a"), "A");
    const denied: FileSystem = { ...fs, mkdir: (p, o) => (p === at("new") ? Promise.reject(new FsError("EACCES", "mkdir", p, `EACCES: mkdir '${p}'`)) : fs.mkdir(p, o)) };
    const p = plan({ id: "d1", kind: "test", phases: [[{ op: "write", path: at("a"), before: "A", content: "A2" }], [{ op: "write", path: join(at("new"), "x"), before: null, content: "x" }]] });
    const e = await failure(runPlan(denied, journals(), p));
    expect(e.message).toBe(`Plan d1 (test) failed and was rolled back: EACCES: mkdir '${at("new")}'`);
    expect(e.cause).toMatchObject({ code: "EACCES", path: at("new") });
    expect(readFileSync(at("a"), "utf8")).toBe("A");
  });

  it.each([
    ["an unlink", "unlink", (a: (n: string) => string): PlanInput["phases"] => [[{ op: "unlink", path: a("f"), before: "F" }]]],
    ["a link", "link", (a: (n: string) => string): PlanInput["phases"] => [[{ op: "link", from: a("f"), to: a("g"), before: "F" }]]],
    ["a new folder", "mkdir", (a: (n: string) => string): PlanInput["phases"] => [[{ op: "mkdir", path: a("d") }]]],
  ] as const)("%s that fails for another reason than a half-done state fails the plan", async (_, op, phases) => {
    writeFileSync(at("f"), "F");
    const code = "EACCES";
    const failing: FileSystem = {
      ...fs,
      [op]: (p: string) => (p.startsWith(join(dir, "r")) ? Promise.reject(new FsError(code, op, p, `${code}: ${op} '${p}'`)) : (fs[op] as (p: string) => Promise<void>)(p)),
    };
    const e = await failure(runPlan(failing, journals(), plan({ id: "f1", kind: "test", phases: phases(at) })));
    expect(e.message).toMatch(/^Plan f1 \(test\) failed and was rolled back: EACCES: /);
    expect(readFileSync(at("f"), "utf8")).toBe("F");
  });
});
