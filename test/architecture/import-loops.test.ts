// No import loops in core/ or runtime/ (docs/ARCHITECTURE.md). In a loop, which module's top level
// runs first depends on which one something else imports first, and no module of the loop can be
// read or tested apart from the others. Type-only imports count: they tie the files together just
// the same. When two modules need one type or constant, it moves to the module it belongs to.
//
// The imports of each file are TypeScript's own reading of it (`ts.preProcessFile`: static and
// type-only imports, re-exports, `import()` calls and `import("...")` types); a relative import
// names a file of the repository, a bare one a package (never part of a loop here).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { filesUnder } from "../support/files-under.js";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** the TypeScript files under `dir` (every level), without declaration files and node_modules */
const tsFilesUnder = (dir: string): string[] => filesUnder(dir, (n) => n.endsWith(".ts") && !n.endsWith(".d.ts"));

/** The file a relative specifier of `from` names, as a module written in TypeScript: `./x.js`
 *  (what an ES module of this project writes), `./x` or `./x.ts`, or a folder's index. */
function resolveImport(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier);
  const candidates = [base.replace(/\.(js|mjs|cjs)$/, ".ts"), base, `${base}.ts`, join(base, "index.ts")];
  return candidates.find((c) => c.endsWith(".ts") && existsSync(c) && statSync(c).isFile());
}

/** Each import loop among the TypeScript files under `dirs` (relative to `baseDir`) and the files
 *  they import, as "a > b > a" with paths relative to `baseDir`: one loop for each group of files
 *  that reach each other (Tarjan's strongly connected components), starting at the group's first
 *  file by name. */
export function importLoops(baseDir: string, dirs: string[]): string[] {
  const edges = new Map<string, string[]>();
  const pending = dirs.flatMap((d) => tsFilesUnder(join(baseDir, d)));
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (edges.has(file)) continue;
    const imported = ts
      .preProcessFile(readFileSync(file, "utf8"), true, true)
      .importedFiles.map((f) => f.fileName)
      .filter((s) => s.startsWith("./") || s.startsWith("../"))
      .map((s) => resolveImport(file, s))
      .filter((f): f is string => f !== undefined);
    edges.set(file, [...new Set(imported)].sort());
    pending.push(...imported);
  }

  // Tarjan's algorithm, iteratively (a deep import chain must not overflow the stack)
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const groups: string[][] = [];
  let next = 0;
  for (const root of [...edges.keys()].sort()) {
    if (index.has(root)) continue;
    const work: { file: string; i: number }[] = [{ file: root, i: 0 }];
    index.set(root, next);
    low.set(root, next++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const top = work[work.length - 1]!;
      const targets = edges.get(top.file) ?? [];
      if (top.i < targets.length) {
        const to = targets[top.i++]!;
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push({ file: to, i: 0 });
        } else if (onStack.has(to)) low.set(top.file, Math.min(low.get(top.file)!, index.get(to)!));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1]!.file;
        low.set(parent, Math.min(low.get(parent)!, low.get(top.file)!));
      }
      if (low.get(top.file) === index.get(top.file)) {
        const group: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          group.push(member);
        } while (member !== top.file);
        if (group.length > 1 || (edges.get(top.file) ?? []).includes(top.file)) groups.push(group.sort());
      }
    }
  }

  // one loop through each group: the shortest way from its first file back to itself
  return groups
    .map((group) => {
      const members = new Set(group);
      const start = group[0]!;
      const cameFrom = new Map<string, string>();
      const queue = [start];
      let last: string | undefined;
      for (let q = 0; q < queue.length && last === undefined; q++) {
        for (const to of edges.get(queue[q]!) ?? []) {
          if (!members.has(to)) continue;
          if (to === start) {
            last = queue[q];
            break;
          }
          if (!cameFrom.has(to)) {
            cameFrom.set(to, queue[q]!);
            queue.push(to);
          }
        }
      }
      const path = [start];
      for (let at = last; at !== undefined && at !== start; at = cameFrom.get(at)) path.splice(1, 0, at);
      return [...path, start].map((f) => relative(baseDir, f).split("\\").join("/")).join(" > ");
    })
    .sort();
}

describe("import loops", () => {
  it("core/ and runtime/ have none", () => {
    expect(importLoops(repo, ["core", "runtime"])).toEqual([]);
  });

  it("catches a loop (the check itself can fail)", () => {
    const dir = mkdtempSync(join(tmpdir(), "import-loops-"));
    try {
      writeFileSync(join(dir, "a.ts"), 'import type { B } from "./b";\nexport type A = { b?: B };\n');
      writeFileSync(join(dir, "b.ts"), 'import type { A } from "./a";\nexport type B = { a?: A };\n');
      writeFileSync(join(dir, "c.ts"), 'import type { A } from "./a";\nexport type C = A;\n');
      expect(importLoops(dir, ["."])).toEqual(["a.ts > b.ts > a.ts"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("follows each way a module names another, and every loop is reported from its first file", () => {
    const dir = mkdtempSync(join(tmpdir(), "import-loops-"));
    const write = (name: string, text: string) => writeFileSync(join(dir, name), text);
    try {
      // a three-file loop through a re-export, an import() call and an ES module's ".js" name
      write("x.ts", 'export * from "./y.js";\n');
      write("y.ts", 'export const f = () => import("./z.js");\n');
      write("z.ts", 'import { f } from "./x.js";\nexport const g = f;\n');
      // a loop through an import("...") type, and a file importing itself
      write("p.ts", 'export type P = import("./q").Q;\n');
      write("q.ts", 'import type { P } from "./p.ts";\nexport type Q = P[];\n');
      write("self.ts", 'import * as me from "./self.js";\nexport const s = me;\n');
      // no loop: a chain, a package, and a name that is no file
      write("m.ts", 'import "./n.js";\nimport "fp-ts";\nimport "./missing.js";\n');
      write("n.ts", "export {};\n");
      expect(importLoops(dir, ["."])).toEqual(["p.ts > q.ts > p.ts", "self.ts > self.ts", "x.ts > y.ts > z.ts > x.ts"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("finds a loop planted in a copy of core/", () => {
    // a copy of the real folder, with one module made to import another that (through some
    // steps) imports it: the check sees loops in the project's own layout, not only in small files
    const dir = mkdtempSync(join(tmpdir(), "import-loops-"));
    try {
      for (const file of tsFilesUnder(join(repo, "core"))) {
        const to = join(dir, relative(repo, file));
        mkdirSync(dirname(to), { recursive: true });
        writeFileSync(to, readFileSync(file));
      }
      expect(importLoops(dir, ["core"])).toEqual([]);
      // core/json.ts is imported by many modules; make it import one of its importers
      const importer = tsFilesUnder(join(dir, "core")).find((f) => /from "\.\.?\/(\.\.\/)*json\.js"/.test(readFileSync(f, "utf8")))!;
      const json = join(dir, "core", "json.ts");
      writeFileSync(json, `import type * as planted from "./${relative(join(dir, "core"), importer).split("\\").join("/").replace(/\.ts$/, ".js")}";\n${readFileSync(json, "utf8")}`);
      const loops = importLoops(dir, ["core"]);
      expect(loops).toHaveLength(1);
      expect(loops[0]).toContain("core/json.ts");
      expect(loops[0]).toContain(relative(dir, importer));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

