// Names and comments a newcomer can trust (docs/ARCHITECTURE.md, "Words used in comments"):
// - one file name, one meaning: a source file's name is not used by another source file, so a
//   name met in a stack trace, a review or a comment points at one place. `index.ts` is the one
//   name shared on purpose: a folder's entry point. The names still shared wait below for their
//   rename; the list only shrinks (a name no longer shared fails the test too).
// - a comment states the rule itself: no source or test file says "the reference".
import { readFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { filesUnder } from "../support/files-under.js";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const SOURCE_DIRS = ["core", "runtime", "adapters", "host-cli", "host-mcp", "host-pi", "bench", "scripts"];
const SHARED_ON_PURPOSE = new Set(["index.ts"]);

/** name → the files that still share it */
const STILL_SHARED: Readonly<Record<string, readonly string[]>> = {};

/** Every name used by more than one of `paths`, with its paths (sorted), except the names shared on purpose. */
export function sharedNames(paths: readonly string[]): Record<string, string[]> {
  const byName = new Map<string, string[]>();
  for (const p of paths) byName.set(basename(p), [...(byName.get(basename(p)) ?? []), p]);
  return Object.fromEntries([...byName].filter(([name, ps]) => ps.length > 1 && !SHARED_ON_PURPOSE.has(name)).map(([name, ps]) => [name, ps.sort()]).sort());
}

/** The lines of a text that say "the reference" (any case), as "line N". */
export const referenceLines = (text: string): string[] =>
  text.split("\n").flatMap((line, i) => (/\bthe reference\b|\breference's\b/i.test(line) ? [`line ${i + 1}`] : []));

describe("names and comments", () => {
  const sources = SOURCE_DIRS.flatMap((d) => filesUnder(join(repo, d), (n) => n.endsWith(".ts"))).map((f) => relative(repo, f));

  it("finds the sources", () => {
    expect(sources.length).toBeGreaterThan(100);
  });

  it("no two source files share a name, apart from the shrinking list", () => {
    const shared = sharedNames(sources);
    const unlisted = Object.entries(shared).filter(([name, ps]) => JSON.stringify(STILL_SHARED[name]) !== JSON.stringify(ps));
    expect(Object.fromEntries(unlisted), "give the new file a name that says what it holds").toEqual({});
    const settled = Object.keys(STILL_SHARED).filter((name) => shared[name] === undefined);
    expect(settled, "no longer shared: remove it from STILL_SHARED").toEqual([]);
  });

  it('no source or test file says "the reference"', () => {
    const all = [...SOURCE_DIRS, "test", "props"].flatMap((d) => filesUnder(join(repo, d), (n) => /\.(ts|mts|mjs)$/.test(n))).map((f) => relative(repo, f));
    const found = all.flatMap((f) => referenceLines(readFileSync(join(repo, f), "utf8")).map((l) => `${f} ${l}`));
    // this file names the phrase it refuses
    expect(found.filter((f) => !f.startsWith("test/architecture/names.test.ts"))).toEqual([]);
  });

  it("the checks can fail", () => {
    expect(sharedNames(["a/x.ts", "b/x.ts", "a/index.ts", "b/index.ts", "c/y.ts"])).toEqual({ "x.ts": ["a/x.ts", "b/x.ts"] });
    expect(referenceLines("// fine\n// stricter than the reference\nconst reference = 1;")).toEqual(["line 2"]);
  });
});
