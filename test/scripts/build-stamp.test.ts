// scripts/build-stamp.mjs: dist/ says which files it was built from, and a test run packs it
// without building again only when that is exactly the files there are now. Run on a small copy
// of the package's layout, through the script itself (it finds the package root from its place).
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const REPO = resolve(import.meta.dirname, "../..");
let pkg = "";

const run = (verb: string) => spawnSync(process.execPath, [join(pkg, "scripts", "build-stamp.mjs"), verb], { encoding: "utf8" });
const stamp = (verb: string): number | null => run(verb).status;
/** the stamp of a build of the files as they are, then `change`: the check's exit code after it */
const checkAfter = (change: () => void): number | null => {
  stamp("write");
  change();
  return stamp("check");
};
const put = (rel: string, text: string): void => {
  mkdirSync(join(pkg, rel, ".."), { recursive: true });
  writeFileSync(join(pkg, rel), text);
};

beforeEach(() => {
  pkg = mkdtempSync(join(tmpdir(), "pi-recipes-stamp-"));
  mkdirSync(join(pkg, "scripts"));
  copyFileSync(join(REPO, "scripts", "build-stamp.mjs"), join(pkg, "scripts", "build-stamp.mjs"));
  for (const f of ["package.json", "package-lock.json", "tsconfig.json", "scripts/bundle.mjs", "scripts/copy-assets.mjs"]) put(f, `${f}\n`);
  put("tsconfig.build.json", JSON.stringify({ include: ["core", "host-cli"] }));
  put("core/a.ts", "export const a = 1;\n");
  put("host-cli/main.ts", "console.log(1);\n");
  put("recipes/git_status.json", "{}\n");
  mkdirSync(join(pkg, "dist"));
});
afterEach(() => rmSync(pkg, { recursive: true, force: true }));

describe("the build stamp", () => {
  it("holds after a build of the current files, and not before", () => {
    expect(stamp("check")).toBe(1);
    expect(stamp("write")).toBe(0);
    expect(stamp("check")).toBe(0);
  });

  it("no longer holds after a source is changed, added or removed", () => {
    expect(checkAfter(() => put("core/a.ts", "export const a = 2;\n"))).toBe(1);
    expect(checkAfter(() => put("host-cli/verbs/new.ts", "export {};\n"))).toBe(1);
    expect(checkAfter(() => rmSync(join(pkg, "host-cli", "verbs", "new.ts")))).toBe(1);
  });

  it("no longer holds after a packaged recipe changes (the build compiles them)", () => {
    expect(checkAfter(() => put("recipes/git_status.json", '{"template":"git status"}\n'))).toBe(1);
  });

  it("no longer holds after the lock file or a build script changes", () => {
    expect(checkAfter(() => put("package-lock.json", "another compiler\n"))).toBe(1);
    expect(checkAfter(() => put("scripts/bundle.mjs", "another bundle\n"))).toBe(1);
  });

  it("is gone once a build begins, so a build that fails leaves none", () => {
    stamp("write");
    expect(stamp("clear")).toBe(0);
    expect(stamp("check")).toBe(1);
  });

  it("names its verbs when given another", () => {
    const r = run("chek");
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('expected clear, write or check, got "chek"');
  });
});
