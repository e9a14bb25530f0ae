// Which paths a review's plan may touch, on real files: strictly below the recipe root, through
// real folders only. The registry runs on POSIX paths (drive letters and case-insensitive names
// do not arise), where containment means: a file in the root is inside; the root itself, a
// sibling whose name starts like the root's, and a path on another tree are not (G45).
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeNodeFileSystem } from "../../../adapters/fs/node.js";
import { FsError } from "../../../adapters/fs/FileSystem.js";
import { realRoot, rootChanged, stepPaths, symlinkBelowRoot, symlinkOnPlan } from "../../../runtime/review/root-guard.js";
import { interceptFs } from "../../support/intercept-fs.js";

const fs = makeNodeFileSystem();
let top: string;
let root: string;
beforeEach(() => {
  top = realpathSync(mkdtempSync(join(tmpdir(), "pi-recipes-root-guard-")));
  root = join(top, "recipes");
  mkdirSync(join(root, "drafts"), { recursive: true });
});
afterEach(() => rmSync(top, { recursive: true, force: true }));

describe("a plan's paths and the recipe root (G45)", () => {
  it("a file in the root or in its drafts is inside; the root itself, a sibling named like it and another tree are not", async () => {
    expect(await symlinkBelowRoot(fs, root, [join(root, "tool.json"), join(root, "drafts", "tool.json"), join(root, "not-yet", "deep", "x.json")])).toBeUndefined();
    expect(await symlinkBelowRoot(fs, root, [root])).toBe(root);
    expect(await symlinkBelowRoot(fs, root, [join(root, "ok.json"), join(`${root}-old`, "tool.json")])).toBe(join(`${root}-old`, "tool.json"));
    expect(await symlinkBelowRoot(fs, root, ["/elsewhere/recipes/tool.json"])).toBe("/elsewhere/recipes/tool.json");
    expect(symlinkOnPlan(root, `${root}-old/tool.json`, "activation")).toBe(`Invalid tool review transaction root: ${root}-old/tool.json is outside the recipe root ${root}`);
    // a path that starts with the root but leads out of it by `..` is outside too
    expect(await symlinkBelowRoot(fs, root, [`${root}/drafts/../../elsewhere/tool.json`])).toBe(`${root}/drafts/../../elsewhere/tool.json`);
    expect(symlinkOnPlan(root, `${root}/../tool.json`, "rollback")).toBe(`Invalid recipe revision rollback root: ${root}/../tool.json is outside the recipe root ${root}`);
  });

  it("the first symlink on the way is named, whether a folder or the file itself; the root being a symlink is not this check's concern", async () => {
    symlinkSync(top, join(root, "drafts", "link"));
    symlinkSync(join(root, "drafts"), join(root, "aliased"));
    expect(await symlinkBelowRoot(fs, root, [join(root, "aliased", "tool.json")])).toBe(join(root, "aliased"));
    expect(await symlinkBelowRoot(fs, root, [join(root, "drafts", "link")])).toBe(join(root, "drafts", "link"));
    expect(await symlinkBelowRoot(fs, root, [join(root, "drafts", "link", "x.json")])).toBe(join(root, "drafts", "link"));
    const alias = join(top, "alias");
    symlinkSync(root, alias);
    expect(await symlinkBelowRoot(fs, alias, [join(alias, "drafts", "tool.json")])).toBeUndefined();
  });

  it("the root's identity is its real path: the same through an alias, another after a swap, and a missing root is said so", async () => {
    const alias = join(top, "alias");
    symlinkSync(root, alias);
    expect(await realRoot(fs, alias)).toBe(root);
    expect(await rootChanged(fs, alias, root, "rollback")).toBeUndefined();
    const other = join(top, "other");
    mkdirSync(other);
    rmSync(alias);
    symlinkSync(other, alias);
    expect(await rootChanged(fs, alias, root, "rollback")).toBe(`Invalid recipe revision rollback root: ${alias} (it resolves to ${other} now; the rollback began in ${root})`);
    rmSync(alias);
    expect(await realRoot(fs, alias)).toBeUndefined();
    expect(await rootChanged(fs, alias, root, "activation")).toBe(`Invalid tool review transaction root: ${alias} (it is missing now; the portfolio was captured in ${root})`);
  });
});

describe("the guard's edges (G45)", () => {
  const failing = (on: string) =>
    interceptFs(fs, async (name, args, call) => (name === on ? Promise.reject(new FsError("EACCES", on as "lstat", String(args[0]), `EACCES: ${on}`)) : call()));

  it("a root under a file or on a symlink loop has no real path; any other failure is an error", async () => {
    writeFileSync(join(top, "file"), "x");
    expect(await realRoot(fs, join(top, "file", "recipes"))).toBeUndefined();
    symlinkSync(join(top, "loop"), join(top, "loop"));
    expect(await realRoot(fs, join(top, "loop"))).toBeUndefined();
    expect(await rootChanged(fs, join(top, "loop"), root, "activation")).toBe(`Invalid tool review transaction root: ${join(top, "loop")} (it is missing now; the portfolio was captured in ${root})`);
    await expect(realRoot(failing("realpath"), root)).rejects.toThrow("EACCES: realpath");
  });

  it("a path through a file is no symlink; a failure to look at a path is an error", async () => {
    writeFileSync(join(root, "tool.json"), "{}");
    expect(await symlinkBelowRoot(fs, root, [join(root, "tool.json", "x")])).toBeUndefined();
    await expect(symlinkBelowRoot(failing("lstat"), root, [join(root, "tool.json")])).rejects.toThrow("EACCES: lstat");
  });

  it("every path of the plan is looked at, those sharing folders too", async () => {
    symlinkSync(top, join(root, "drafts", "link"));
    expect(await symlinkBelowRoot(fs, root, [join(root, "drafts", "a.json"), join(root, "drafts", "link", "b.json")])).toBe(join(root, "drafts", "link"));
    expect(await symlinkBelowRoot(fs, root, [join(root, "drafts", "link", "b.json"), join(root, "drafts", "link", "c.json")])).toBe(join(root, "drafts", "link"));
  });

  it("a symlink below the root is named for either use", () => {
    expect(symlinkOnPlan(root, `${root}/drafts`, "rollback")).toBe(`Invalid recipe revision rollback root: ${root}/drafts is a symlink below the recipe root ${root}; only the root's own folders are written`);
    expect(symlinkOnPlan(root, "/other/x", "rollback")).toBe(`Invalid recipe revision rollback root: /other/x is outside the recipe root ${root}`);
    expect(symlinkOnPlan(root, `${root}/drafts`, "activation")).toBe(`Invalid tool review transaction root: ${root}/drafts is a symlink below the recipe root ${root}; only the root's own folders are written`);
  });

  it("a plan's paths: both ends of a rename or link, the path of anything else", () => {
    const known = { hash: "h" } as never;
    expect(
      stepPaths([
        { op: "rename", from: "/r/a", to: "/r/b", before: known, replaced: null },
        { op: "link", from: "/r/c", to: "/r/d", before: known },
        { op: "write", path: "/r/e", before: null, content: "x" },
        { op: "unlink", path: "/r/f", before: known },
        { op: "mkdir", path: "/r/g" },
      ]),
    ).toEqual(["/r/a", "/r/b", "/r/c", "/r/d", "/r/e", "/r/f", "/r/g"]);
  });
});
