import { describe, expect, it } from "vitest";
import { normalize, resolveAgainst } from "../../../core/recipe/posix.js";
import { type PathContext, bareCandidates, isBareName, recipeReference, resolveRecipePath } from "../../../core/recipe/resolve-path.js";

const AGENT = "/home/u/.pi/agent";
const ROOT = `${AGENT}/recipes`;
const PKG = "/opt/pi-recipes/recipes";

const ctxWith = (existing: readonly string[] = []): PathContext => ({
  agentDir: AGENT,
  home: "/home/u",
  cwd: "/work/project",
  userRoot: ROOT,
  packagedRoot: PKG,
  exists: (p) => existing.includes(p),
});

describe("resolveRecipePath", () => {
  it("{repo} is the parent of the recipe directory, {agent} the agent dir", () => {
    expect(resolveRecipePath("{repo}/recipes/base.json", "/r/recipes", ctxWith())).toBe("/r/recipes/base.json");
    expect(resolveRecipePath("{agent}/recipes/base.json", "/r/recipes", ctxWith())).toBe(`${AGENT}/recipes/base.json`);
    // for a user recipe both mean the agent dir; for a packaged one {repo} is the package root
    expect(resolveRecipePath("{repo}/x.json", ROOT, ctxWith())).toBe(`${AGENT}/x.json`);
    expect(resolveRecipePath("{repo}/lib/x.json", PKG, ctxWith())).toBe("/opt/pi-recipes/lib/x.json");
  });

  it("~/ is the home directory; paths with / resolve against the process cwd, not the recipe dir", () => {
    expect(resolveRecipePath("~/r/x.json", ROOT, ctxWith())).toBe("/home/u/r/x.json");
    expect(resolveRecipePath("./x.json", ROOT, ctxWith())).toBe("/work/project/x.json");
    expect(resolveRecipePath("sub/../x.md", ROOT, ctxWith())).toBe("/work/project/x.md");
    expect(resolveRecipePath("/abs//dir/./x.json", ROOT, ctxWith())).toBe("/abs/dir/x.json");
    expect(resolveRecipePath("sub/x", ROOT, ctxWith())).toBe("/work/project/sub/x");
  });

  it("a non-bare word without / lands in the recipe dir with .json appended", () => {
    expect(resolveRecipePath("~x", ROOT, ctxWith())).toBe(`${ROOT}/~x.json`);
    expect(resolveRecipePath("{v}.md", ROOT, ctxWith())).toBe(`${ROOT}/{v}.md`);
  });

  it("bare names: ROOT, then the recipe dir, then the packaged root; first existing wins, else the first", () => {
    expect(bareCandidates("b", "/proj/recipes", ctxWith())).toEqual([
      `${ROOT}/b.json`, `${ROOT}/b.md`, "/proj/recipes/b.json", "/proj/recipes/b.md", `${PKG}/b.json`, `${PKG}/b.md`,
    ]);
    expect(bareCandidates("b.md", ROOT, ctxWith())).toEqual([`${ROOT}/b.md`, `${PKG}/b.md`]);
    expect(resolveRecipePath("b", "/proj/recipes", ctxWith())).toBe(`${ROOT}/b.json`);
    expect(resolveRecipePath("b", "/proj/recipes", ctxWith([`${PKG}/b.md`, "/proj/recipes/b.md"]))).toBe("/proj/recipes/b.md");
  });

  it("bare-name detection", () => {
    expect(["base", "base.json", "a-b.c"].every(isBareName)).toBe(true);
    expect(["", "a/b", "~x", "{agent}", "./x"].some(isBareName)).toBe(false);
  });
});

describe("recipeReference", () => {
  const existing = ["/bin/ls", "/work/project/run.sh", `${ROOT}/shared.json`, `${ROOT}/ls`];
  it.each(["/bin/ls", "./run.sh", "./run.sh -x", "ls", "echo shared", "", "  ", "{cmd}"])("%j is a command", (text) => {
    expect(recipeReference(text, ROOT, ctxWith(existing))).toBeUndefined();
  });

  it("existing bare recipe names and any .json/.md path are references", () => {
    expect(recipeReference(" shared ", ROOT, ctxWith(existing))).toBe(`${ROOT}/shared.json`);
    expect(recipeReference("./missing.json", ROOT, ctxWith(existing))).toBe("/work/project/missing.json");
    expect(recipeReference("{agent}/skills/s/recipes/r.md", ROOT, ctxWith(existing))).toBe(`${AGENT}/skills/s/recipes/r.md`);
  });
});

describe("posix helpers", () => {
  it.each([
    ["/a/b/../c", "/a/c"], ["/../x", "/x"], ["a/../../b", "../b"], ["", "."], ["/", "/"], ["/a/./b/", "/a/b"],
  ])("normalize(%j) = %j", (input, out) => {
    expect(normalize(input)).toBe(out);
  });

  it("resolveAgainst", () => {
    expect(resolveAgainst("/cwd", "x/y")).toBe("/cwd/x/y");
    expect(resolveAgainst("/cwd", "/x/../y")).toBe("/y");
  });
});
