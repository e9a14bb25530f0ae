// Which paths a review's plan may touch, on real files: strictly below the recipe root, through
// real folders only. The registry runs on POSIX paths (drive letters and case-insensitive names
// do not arise), where containment means: a file in the root is inside; the root itself, a
// sibling whose name starts like the root's, and a path on another tree are not (G45).
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeNodeFileSystem } from "../../../adapters/fs/node.js";
import { realRoot, rootChanged, symlinkBelowRoot, symlinkOnPlan } from "../../../runtime/review/root-guard.js";

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
