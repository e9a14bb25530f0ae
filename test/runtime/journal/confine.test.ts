// A plan confined to a folder (Plan.root) touches only that folder's own files: its paths are
// checked as text when it is built, and on disk (no symlink between the folder and a path) right
// before it is applied and again before a recovery replays it after a crash.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as E from "fp-ts/lib/Either.js";
import { makeNodeFileSystem } from "../../../adapters/fs/node.js";
import { buildPlan, planErrorText, type Plan, type PlanInput } from "../../../core/journal/plan.js";
import { decodeJournal, encodeJournal } from "../../../core/journal/record.js";
import { PlanFailed, recoverJournals, runPlan } from "../../../runtime/journal/index.js";

let dir: string;
const fs = makeNodeFileSystem();
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "confine-"));
  mkdirSync(join(dir, "root", "sub"), { recursive: true });
  mkdirSync(join(dir, "outside"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const root = (): string => join(dir, "root");
const journals = (): string => join(root(), ".usage", "journal");

/** moves sub/a.json to sub/b.json and writes sub/marker, confined to the root */
function planIn(extra: Partial<PlanInput> = {}): Plan {
  const built = buildPlan({
    id: "p1",
    kind: "test-activation",
    phases: [[
      { op: "rename", from: join(root(), "sub", "a.json"), to: join(root(), "sub", "b.json"), before: "A", replaced: null },
      { op: "write", path: join(root(), "sub", "marker"), before: null, content: "done" },
    ]],
    root: root(),
    ...extra,
  });
  if (E.isLeft(built)) throw new Error(planErrorText(built.left));
  return built.right;
}

/** `sub/` becomes a symlink to a folder outside the root holding the same file */
function swapSubForSymlink(): void {
  writeFileSync(join(dir, "outside", "a.json"), "A");
  rmSync(join(root(), "sub"), { recursive: true });
  symlinkSync(join(dir, "outside"), join(root(), "sub"));
}

/** the plan's journal on disk, as a crash right after it was written leaves it */
function leftByCrash(plan: Plan): void {
  mkdirSync(journals(), { recursive: true });
  writeFileSync(join(journals(), "p1.journal.json"), encodeJournal({ plan, direction: "forward" }));
}

/** what recovery reports for the journal of planIn() kept aside, unreplayed, for `why` */
const keptAside = (why: string) => ({
  id: "p1",
  kind: "test-activation",
  outcome: "quarantined",
  quarantinedAs: join(journals(), "p1.journal.json.quarantined"),
  reason: `journal p1.journal.json was not replayed: ${why}`,
});

describe("a plan confined to a folder", () => {
  it("is refused when built with a path outside the folder or one that could lead out of it", () => {
    const base = { id: "p", kind: "k", root: "/r" };
    const write = (path: string): PlanInput => ({ ...base, phases: [[{ op: "write", path, before: null, content: "x" }]] });
    for (const path of ["/elsewhere/x", "/r", "/rr/x", "/r/../x", "/r/./x", "/r//x", "/r/a/.."]) {
      const built = buildPlan(write(path));
      expect(E.isLeft(built) && built.left, path).toEqual({ _tag: "OutsideRoot", id: "p", path, root: "/r" });
    }
    const link = buildPlan({ ...base, phases: [[{ op: "link", from: "/elsewhere/src", to: "/r/alias", before: "s" }]] });
    expect(E.isLeft(link) && planErrorText(link.left)).toBe("Journal plan p: /elsewhere/src is not a plain path below the folder the plan is confined to, /r");
    for (const bad of ["r", "/", "/r/", "/r/../s", ""]) {
      const built = buildPlan({ ...write("/r/x"), root: bad });
      expect(E.isLeft(built) && built.left, bad).toEqual({ _tag: "BadRoot", id: "p", root: bad });
    }
    const ok = buildPlan(write("/r/a/b.json"));
    expect(E.isRight(ok) && ok.right.root).toBe("/r");
  });

  it("keeps its folder in the journal, under the journal's hash", () => {
    const plan = planIn();
    const text = encodeJournal({ plan, direction: "forward" });
    const decoded = decodeJournal(text);
    expect(E.isRight(decoded) && decoded.right.plan.root).toBe(root());
    const moved = text.replace(JSON.stringify(root()), JSON.stringify(join(dir, "outside")));
    expect(moved).not.toBe(text);
    expect(decodeJournal(moved)).toEqual(E.left({ _tag: "HashMismatch" }));
    // a plan without a folder stays as it was written: no `root` in its journal
    const free = buildPlan({ id: "p2", kind: "k", phases: [[{ op: "mkdir", path: "/x/y" }]] });
    expect(E.isRight(free) && encodeJournal({ plan: free.right, direction: "forward" })).not.toMatch(/"root"/);
  });

  it("is applied when no folder on its way is a symlink", async () => {
    writeFileSync(join(root(), "sub", "a.json"), "A");
    await runPlan(fs, journals(), planIn());
    expect(readFileSync(join(root(), "sub", "b.json"), "utf8")).toBe("A");
    expect(readFileSync(join(root(), "sub", "marker"), "utf8")).toBe("done");
  });

  it("is refused before anything is written when a folder below the root is a symlink", async () => {
    swapSubForSymlink();
    const failed = await runPlan(fs, journals(), planIn()).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(PlanFailed);
    expect(failed).toMatchObject({ rolledBack: true, journalKept: false });
    expect((failed as Error).message).toBe(`Plan p1 (test-activation) was refused: ${join(root(), "sub")} is a symlink below ${root()}, the folder the plan is confined to; nothing was written`);
    expect(readdirSync(join(dir, "outside")).sort()).toEqual(["a.json"]);
    expect(existsSync(journals())).toBe(false);
  });

  it("left by a crash is not replayed into a folder swapped for a symlink since: its journal is kept aside", async () => {
    // the crash came after the journal was written and before any step
    leftByCrash(planIn());
    swapSubForSymlink();
    expect(await recoverJournals(fs, journals())).toEqual([keptAside(`${join(root(), "sub")} is a symlink below ${root()}, the folder the plan is confined to`)]);
    // nothing moved or written through the symlink
    expect(readdirSync(join(dir, "outside")).sort()).toEqual(["a.json"]);
    expect(readdirSync(journals())).toEqual(["p1.journal.json.quarantined"]);
    // and a second recovery has nothing left to do
    expect(await recoverJournals(fs, journals())).toEqual([]);
  });

  it("in a journal written by hand, with a path that leads out of its folder by '..', is not replayed", async () => {
    // buildPlan never makes such a plan; a journal is only a file, with a hash anyone can compute
    const escape = `${root()}/sub/../../outside/x.json`;
    const made = planIn();
    const write = made.phases[0]![1]!;
    const plan: Plan = { ...made, phases: [[{ ...write, path: escape } as typeof write]] };
    leftByCrash(plan);
    expect(await recoverJournals(fs, journals())).toEqual([keptAside(`${escape} is not a plain path below ${root()}, the folder the plan is confined to`)]);
    expect(readdirSync(join(dir, "outside"))).toEqual([]);
  });

  it("in a journal whose folder is not text is no journal at all", () => {
    const text = encodeJournal({ plan: { ...planIn(), root: 7 as unknown as string }, direction: "forward" });
    expect(decodeJournal(text)).toEqual(E.left({ _tag: "NotJournalRecord" }));
  });

  it("left by a crash is replayed as usual when its folder is as it was", async () => {
    writeFileSync(join(root(), "sub", "a.json"), "A");
    leftByCrash(planIn());
    expect(await recoverJournals(fs, journals())).toEqual([{ id: "p1", kind: "test-activation", outcome: "rolled-forward" }]);
    expect(readFileSync(join(root(), "sub", "b.json"), "utf8")).toBe("A");
    expect(readFileSync(join(root(), "sub", "marker"), "utf8")).toBe("done");
  });
});
