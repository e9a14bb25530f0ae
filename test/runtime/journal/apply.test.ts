// How the engine runs a decision's actions on real files: what it finds at a path, what it does
// when an action meets a half-done state, and when it gives up.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as E from "fp-ts/lib/Either.js";
import { FsError, type FileSystem } from "../../../adapters/fs/FileSystem.js";
import { makeNodeFileSystem } from "../../../adapters/fs/node.js";
import { buildPlan, planErrorText, type Plan, type PlanInput } from "../../../core/journal/plan.js";
import { encodeJournal } from "../../../core/journal/record.js";
import { recoverJournals, runPlan } from "../../../runtime/journal/index.js";
import { ensureDir } from "../../../runtime/journal/apply.js";

let dir: string;
const fs = makeNodeFileSystem();
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "journal-apply-"));
  mkdirSync(join(dir, "r"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const at = (...names: string[]): string => join(dir, "r", ...names);
const journals = (): string => join(dir, "j");

function plan(input: PlanInput): Plan {
  const p = buildPlan(input);
  if (E.isLeft(p)) throw new Error(planErrorText(p.left));
  return p.right;
}

/** a journal left by a process that died before its first step */
function leftBehind(p: Plan, direction: "forward" | "back" = "forward"): void {
  mkdirSync(journals(), { recursive: true });
  writeFileSync(join(journals(), `${p.id}.journal.json`), encodeJournal({ plan: p, direction }));
}

describe("recovery on real files", () => {
  it("keeps a journal aside when a symlink stands where its plan expects a file", async () => {
    const p = plan({ id: "s1", kind: "test", phases: [[{ op: "write", path: at("x"), before: null, content: "x" }]] });
    leftBehind(p);
    symlinkSync(at("elsewhere"), at("x"));
    const [outcome] = await recoverJournals(fs, journals());
    expect(outcome).toMatchObject({ id: "s1", outcome: "quarantined" });
    expect(outcome?.outcome === "quarantined" && outcome.reason).toBe(
      `${at("x")} was changed outside the journal: it is not a regular file, neither its before (absent) nor its after (content ${p.phases[0]![0]!.op === "write" ? p.phases[0]![0]!.after.slice(0, 12) : ""}) state`,
    );
    expect(readdirSync(journals())).toEqual(["s1.journal.json.quarantined"]);
  });

  it("numbers a second quarantined journal of the same id", async () => {
    const p = plan({ id: "q", kind: "test", phases: [[{ op: "write", path: at("x"), before: null, content: "x" }]] });
    writeFileSync(at("x"), "someone else's");
    leftBehind(p);
    await recoverJournals(fs, journals());
    leftBehind(p);
    const [outcome] = await recoverJournals(fs, journals());
    expect(outcome).toMatchObject({ outcome: "quarantined", quarantinedAs: join(journals(), "q.journal.json.quarantined-1") });
    leftBehind(p);
    await recoverJournals(fs, journals());
    expect(readdirSync(journals()).sort()).toEqual(["q.journal.json.quarantined", "q.journal.json.quarantined-1", "q.journal.json.quarantined-2"]);
  });

  it("passes over files that are not journals, and removes the temps of interrupted journal writes", async () => {
    mkdirSync(journals());
    writeFileSync(join(journals(), "notes.txt"), "keep");
    writeFileSync(join(journals(), ".hidden.journal.json"), "keep");
    mkdirSync(join(journals(), "d.journal.json"));
    writeFileSync(join(journals(), ".p9.journal.json.123-4.tmp"), "half a journal");
    expect(await recoverJournals(fs, journals())).toEqual([]);
    expect(readdirSync(journals()).sort()).toEqual([".hidden.journal.json", "d.journal.json", "notes.txt"]);
  });

  it("finishes journals in name order and reports each", async () => {
    const a = plan({ id: "a", kind: "first", phases: [[{ op: "write", path: at("a"), before: null, content: "a" }]] });
    const b = plan({ id: "b", kind: "second", phases: [[{ op: "write", path: at("b"), before: null, content: "b" }]] });
    leftBehind(b);
    leftBehind(a);
    expect(await recoverJournals(fs, journals())).toEqual([
      { id: "a", kind: "first", outcome: "rolled-forward" },
      { id: "b", kind: "second", outcome: "rolled-forward" },
    ]);
  });

  it("undoes a journal that had turned back: a new folder goes, a removed file returns", async () => {
    writeFileSync(at("f"), "F");
    const p = plan({ id: "u", kind: "test", phases: [[{ op: "mkdir", path: at("sub") }, { op: "unlink", path: at("f"), before: "F" }]] });
    mkdirSync(at("sub"));
    rmSync(at("f"));
    leftBehind(p, "back");
    expect(await recoverJournals(fs, journals())).toEqual([{ id: "u", kind: "test", outcome: "rolled-back" }]);
    expect(existsSync(at("sub"))).toBe(false);
    expect(readFileSync(at("f"), "utf8")).toBe("F");
  });

  it("keeps aside a journal file that is not a journal, and says why", async () => {
    mkdirSync(journals());
    writeFileSync(join(journals(), "g.journal.json"), "{ torn");
    const [outcome] = await recoverJournals(fs, journals());
    expect(outcome).toMatchObject({ id: "g", kind: "unknown", outcome: "quarantined", quarantinedAs: join(journals(), "g.journal.json.quarantined") });
    expect(outcome?.outcome === "quarantined" && outcome.reason).toMatch(/^journal g\.journal\.json cannot be trusted: not JSON \(.+\)$/);
  });

  it("makes exactly the missing folders of a new file, parents first", async () => {
    const made: string[] = [];
    const recording: FileSystem = { ...fs, mkdir: (p, o) => (made.push(p), fs.mkdir(p, o)) };
    await runPlan(recording, journals(), plan({ id: "m", kind: "test", phases: [[{ op: "write", path: at("new", "deeper", "x"), before: null, content: "x" }]] }));
    expect(made.filter((p) => !p.startsWith(journals()))).toEqual([at("new"), at("new", "deeper")]);
    expect(readFileSync(at("new", "deeper", "x"), "utf8")).toBe("x");
  });

  it("syncs the journal folder after removing interrupted journal temps, and only then", async () => {
    mkdirSync(journals());
    const synced: string[] = [];
    const recording: FileSystem = { ...fs, fsyncDir: (p) => (synced.push(p), fs.fsyncDir(p)) };
    expect(await recoverJournals(recording, journals())).toEqual([]);
    expect(synced).toEqual([]);
    writeFileSync(join(journals(), ".p.journal.json.1-2.tmp"), "half");
    expect(await recoverJournals(recording, journals())).toEqual([]);
    expect(synced).toEqual([journals()]);
    // a temp that cannot be removed is left for the next recovery, without failing this one
    writeFileSync(join(journals(), ".q.journal.json.1-3.tmp"), "half");
    const stuck: FileSystem = { ...recording, unlink: (p) => Promise.reject(new FsError("EACCES", "unlink", p, "EACCES: unlink")) };
    expect(await recoverJournals(stuck, journals())).toEqual([]);
    expect(synced).toEqual([journals()]);
    expect(readdirSync(journals())).toEqual([".q.journal.json.1-3.tmp"]);
  });

  it("a journal already gone when recovery removes it is done; another failure to remove it is an error", async () => {
    const p = plan({ id: "r", kind: "test", phases: [[{ op: "write", path: at("x"), before: null, content: "x" }]] });
    leftBehind(p);
    const isJournal = (path: string): boolean => path.startsWith(journals());
    const gone: FileSystem = {
      ...fs,
      unlink: async (path) => {
        await fs.unlink(path);
        if (isJournal(path)) throw new FsError("ENOENT", "unlink", path, "ENOENT: unlink");
      },
    };
    expect(await recoverJournals(gone, journals())).toEqual([{ id: "r", kind: "test", outcome: "rolled-forward" }]);
    leftBehind(p);
    const stuck: FileSystem = { ...fs, unlink: (path) => (isJournal(path) ? Promise.reject(new FsError("EACCES", "unlink", path, "EACCES: unlink")) : fs.unlink(path)) };
    await expect(recoverJournals(stuck, journals())).rejects.toMatchObject({ code: "EACCES" });
    expect(readdirSync(journals())).toEqual(["r.journal.json"]);
  });

  it("a journal folder that cannot be listed is an error, not a folder with nothing to recover", async () => {
    leftBehind(plan({ id: "l", kind: "test", phases: [[{ op: "write", path: at("x"), before: null, content: "x" }]] }));
    const denied: FileSystem = { ...fs, readdir: (p) => (p === journals() ? Promise.reject(new FsError("EACCES", "readdir", p, "EACCES: readdir")) : fs.readdir(p)) };
    await expect(recoverJournals(denied, journals())).rejects.toMatchObject({ code: "EACCES" });
    expect(existsSync(at("x"))).toBe(false);
  });

  it("finishes journals in name order whatever order the folder lists them in", async () => {
    // the same file, written by two plans one after the other: the later one must win
    const first = plan({ id: "p1", kind: "first", phases: [[{ op: "write", path: at("f"), before: null, content: "one" }]] });
    const second = plan({ id: "p2", kind: "second", phases: [[{ op: "write", path: at("g"), before: null, content: "two" }]] });
    leftBehind(first);
    leftBehind(second);
    const reversed: FileSystem = { ...fs, readdir: async (p) => [...(await fs.readdir(p))].sort((a, b) => (a.name < b.name ? 1 : -1)) };
    expect((await recoverJournals(reversed, journals())).map((o) => o.id)).toEqual(["p1", "p2"]);
  });

  it("stops, keeping the journal in place, when it cannot tell whether a quarantine name is free", async () => {
    mkdirSync(journals());
    writeFileSync(join(journals(), "t.journal.json"), "{ torn");
    const blind: FileSystem = { ...fs, lstat: (p) => (p.includes(".quarantined") ? Promise.reject(new FsError("UNKNOWN", "lstat", p, "EIO: lstat", { rawCode: "EIO" })) : fs.lstat(p)) };
    await expect(recoverJournals(blind, journals())).rejects.toThrow("EIO: lstat");
    expect(readdirSync(journals())).toEqual(["t.journal.json"]);
  });

  it("makes a new file's folders on a file system that reports every folder missing, up to the root, without looping", async () => {
    const p = plan({ id: "n", kind: "test", phases: [[{ op: "write", path: at("new", "x"), before: null, content: "x" }]] });
    let looks = 0;
    const forgetful: FileSystem = {
      ...fs,
      // the new folder and each of its ancestors, the root included, look missing
      lstat: (path) => {
        if (++looks > 100) return Promise.reject(new Error("still looking for a folder above the root"));
        return at("new").startsWith(path) ? Promise.reject(new FsError("ENOENT", "lstat", path, "ENOENT: lstat")) : fs.lstat(path);
      },
    };
    await ensureDir(forgetful, at("new"));
    expect(existsSync(at("new"))).toBe(true);
    await runPlan(fs, journals(), p);
    expect(readFileSync(at("new", "x"), "utf8")).toBe("x");
  });

  it("a missing journal folder, or a file where it should be, means nothing to recover", async () => {
    expect(await recoverJournals(fs, join(dir, "nowhere"))).toEqual([]);
    writeFileSync(join(dir, "file"), "x");
    expect(await recoverJournals(fs, join(dir, "file"))).toEqual([]);
    expect(await recoverJournals(fs, join(dir, "file", "below"))).toEqual([]);
  });
});

describe("actions that meet a half-done state", () => {
  it("a link whose name was made by an earlier attempt is made again", async () => {
    writeFileSync(at("src"), "s");
    let first = true;
    const halfMade: FileSystem = {
      ...fs,
      link: async (from, to) => {
        if (!first) return fs.link(from, to);
        first = false;
        writeFileSync(to, "partial");
        throw new FsError("EEXIST", "link", from, "EEXIST: link", { dest: to });
      },
    };
    await runPlan(halfMade, journals(), plan({ id: "l", kind: "test", phases: [[{ op: "link", from: at("src"), to: at("alias"), before: "s" }]] }));
    expect(readFileSync(at("alias"), "utf8")).toBe("s");
    expect(readdirSync(journals())).toEqual([]);
  });

  it("a file already gone, or a folder already made, counts as done", async () => {
    writeFileSync(at("f"), "F");
    const racing: FileSystem = {
      ...fs,
      unlink: async (p) => {
        await fs.unlink(p);
        throw new FsError("ENOENT", "unlink", p, "ENOENT: unlink");
      },
      mkdir: async (p, o) => {
        await fs.mkdir(p, o);
        throw new FsError("EEXIST", "mkdir", p, "EEXIST: mkdir");
      },
    };
    await runPlan(racing, journals(), plan({ id: "g", kind: "test", phases: [[{ op: "unlink", path: at("f"), before: "F" }, { op: "mkdir", path: at("new", "sub") }]] }));
    expect(existsSync(at("f"))).toBe(false);
    expect(existsSync(at("new", "sub"))).toBe(true);
    expect(readdirSync(journals())).toEqual([]);
  });

  it("a folder already removed while undoing counts as undone; another failure stops the undo", async () => {
    const p = plan({ id: "d", kind: "test", phases: [[{ op: "mkdir", path: at("sub") }]] });
    mkdirSync(at("sub"));
    leftBehind(p, "back");
    const racing: FileSystem = {
      ...fs,
      rmdir: async (path) => {
        await fs.rmdir(path);
        throw new FsError("ENOENT", "rmdir", path, "ENOENT: rmdir");
      },
    };
    expect(await recoverJournals(racing, journals())).toEqual([{ id: "d", kind: "test", outcome: "rolled-back" }]);
    expect(existsSync(at("sub"))).toBe(false);

    mkdirSync(at("sub"));
    leftBehind(p, "back");
    const busy: FileSystem = { ...fs, rmdir: (path) => Promise.reject(new FsError("EBUSY", "rmdir", path, "EBUSY: rmdir")) };
    await expect(recoverJournals(busy, journals())).rejects.toMatchObject({ code: "EBUSY" });
    expect(existsSync(at("sub"))).toBe(true);
  });

  it("gives up after four rounds when a step never lands, and says so", async () => {
    const p = plan({ id: "n", kind: "test", phases: [[{ op: "write", path: at("x"), before: null, content: "x" }]] });
    leftBehind(p);
    let renames = 0;
    const lost: FileSystem = {
      ...fs,
      rename: async (from, to) => {
        if (!to.startsWith(join(dir, "r"))) return fs.rename(from, to);
        renames++;
        await fs.unlink(from);
      },
    };
    const [outcome] = await recoverJournals(lost, journals());
    expect(outcome).toMatchObject({ outcome: "quarantined", reason: "journal n did not settle after 4 rounds" });
    expect(renames).toBe(4);
  });
});
