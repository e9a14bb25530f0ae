// No import loops in core/ or runtime/ (docs/ARCHITECTURE.md). In a loop, which module's top level
// runs first depends on which one something else imports first, and no module of the loop can be
// read or tested apart from the others. Type-only imports count: they tie the files together just
// the same. When two modules need one type or constant, it moves to the module it belongs to.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

// madge ships no type declarations: the little of its API used here
interface MadgeResult {
  circular(): string[][];
}
type Madge = (paths: string[], config: { baseDir: string; fileExtensions: string[]; tsConfig?: string }) => Promise<MadgeResult>;
const madge = createRequire(import.meta.url)("madge") as Madge;

/** Each import loop among the TypeScript files under `dirs` (relative to `baseDir`), as "a > b > a"
 *  with paths relative to `baseDir`. */
export async function importLoops(baseDir: string, dirs: string[], tsConfig?: string): Promise<string[]> {
  const config = { baseDir, fileExtensions: ["ts"], ...(tsConfig === undefined ? {} : { tsConfig }) };
  const result = await madge(dirs.map((d) => join(baseDir, d)), config);
  return result.circular().map((loop) => [...loop, loop[0]].join(" > "));
}

describe("import loops", () => {
  it("core/ and runtime/ have none", async () => {
    expect(await importLoops(repo, ["core", "runtime"], join(repo, "tsconfig.json"))).toEqual([]);
  });

  it("catches a loop (the check itself can fail)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "import-loops-"));
    try {
      writeFileSync(join(dir, "a.ts"), 'import type { B } from "./b";\nexport type A = { b?: B };\n');
      writeFileSync(join(dir, "b.ts"), 'import type { A } from "./a";\nexport type B = { a?: A };\n');
      writeFileSync(join(dir, "c.ts"), 'import type { A } from "./a";\nexport type C = A;\n');
      expect(await importLoops(dir, ["."])).toEqual(["a.ts > b.ts > a.ts"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
