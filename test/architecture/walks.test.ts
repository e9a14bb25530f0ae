// docs/ARCHITECTURE.md walks a reader from a recipe file to the schema a model sees and from a
// host's call to the spawned argv, file by file: every file it names by its path must exist, each
// walk stays within the twelve steps it promises, and a walk marked *straight* never comes back to
// a file it has left: each step's file imports the next step's file (or both import the port that
// joins them, a capitalized module under adapters/: the step calls it, the next implements it),
// and no file is a step twice.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const doc = readFileSync(join(root, "docs", "ARCHITECTURE.md"), "utf8");
const section = doc.slice(doc.indexOf("## Two walks"), doc.indexOf("## Layer rules"));
const walks = section.split(/\n\*\*/).slice(1);

interface Walk {
  readonly title: string;
  readonly straight: boolean;
  /** the file each numbered step names first */
  readonly files: readonly string[];
}

export function parseWalk(text: string): Walk {
  const title = text.slice(0, text.indexOf("\n"));
  const steps = text.split(/\n(?=\d+\. )/).slice(1);
  return {
    title: title.slice(0, title.indexOf("**")),
    straight: /\*straight\*/.test(title),
    files: steps.map((step) => /`([a-z-]+\/[A-Za-z/-]+\.ts)`/.exec(step)?.[1] ?? `(step without a file: ${step.slice(0, 40)})`),
  };
}

/** The repository files `file` imports (relative imports only, `import type` included). */
function importsOf(file: string): Set<string> {
  const text = readFileSync(join(root, file), "utf8");
  const specs = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+["'](\.[^"']+)["']|import\(\s*["'](\.[^"']+)["']\s*\)/g)].map((m) => (m[1] ?? m[2])!);
  return new Set(specs.map((s) => relative(root, resolve(root, dirname(file), s)).replace(/\.js$/, ".ts")));
}

const isPort = (file: string): boolean => /^adapters\/(.+\/)?[A-Z][A-Za-z]*\.ts$/.test(file);

/** Why a walk is not straight: a file listed twice, or a step its predecessor does not lead to. */
export function returns(files: readonly string[], imports: (file: string) => ReadonlySet<string>): string[] {
  const out: string[] = [];
  files.forEach((file, i) => {
    if (files.indexOf(file) !== i) out.push(`${file} is step ${files.indexOf(file) + 1} and again step ${i + 1}`);
    const next = files[i + 1];
    if (next === undefined) return;
    const from = imports(file);
    if (from.has(next)) return;
    const to = imports(next);
    if ([...from].some((f) => isPort(f) && to.has(f))) return;
    out.push(`${file} (step ${i + 1}) does not import ${next} (step ${i + 2}), nor a port it implements`);
  });
  return out;
}

describe("the two walks of docs/ARCHITECTURE.md", () => {
  it("there are two, each of at most twelve numbered steps", () => {
    expect(walks).toHaveLength(2);
    for (const walk of walks) {
      const steps = walk.match(/^\d+\. /gm) ?? [];
      expect(steps.length).toBeGreaterThan(0);
      expect(steps.length).toBeLessThanOrEqual(12);
    }
  });

  it("every file a walk names exists", () => {
    const named = [...section.matchAll(/`([a-z-]+\/[A-Za-z/-]+\.ts)`/g)].map((m) => m[1]!);
    expect(named.length).toBeGreaterThan(10);
    expect(named.filter((p) => !existsSync(join(root, p)))).toEqual([]);
  });

  it("the call walk is straight", () => {
    const call = walks.map(parseWalk).find((w) => w.title.startsWith("A host's call"));
    expect(call?.straight).toBe(true);
  });

  it("the schema walk is straight", () => {
    const schema = walks.map(parseWalk).find((w) => w.title.startsWith("A recipe file"));
    expect(schema?.straight).toBe(true);
  });

  it.each(walks.map(parseWalk).filter((w) => w.straight).map((w) => [w.title, w] as const))("%s: every step leads to the next, none comes back", (_title, walk) => {
    expect(walk.files.length).toBeGreaterThan(3);
    expect(returns(walk.files, importsOf)).toEqual([]);
  });

  it("catches a return and a step that does not follow (the check itself can fail)", () => {
    const graph: Record<string, string[]> = {
      "runtime/a.ts": ["runtime/b.ts"],
      "runtime/b.ts": ["runtime/a.ts", "adapters/process/Port.ts"],
      "adapters/process/impl.ts": ["adapters/process/Port.ts"],
    };
    const imports = (f: string): ReadonlySet<string> => new Set(graph[f] ?? []);
    expect(returns(["runtime/a.ts", "runtime/b.ts", "adapters/process/impl.ts"], imports)).toEqual([]);
    expect(returns(["runtime/a.ts", "runtime/b.ts", "runtime/a.ts"], imports)).toEqual(["runtime/a.ts is step 1 and again step 3"]);
    expect(returns(["runtime/b.ts", "runtime/c.ts"], imports)).toEqual(["runtime/b.ts (step 1) does not import runtime/c.ts (step 2), nor a port it implements"]);
  });
});
