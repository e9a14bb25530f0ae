// The dependency rule (docs/ARCHITECTURE.md): core/ imports only fp-ts, io-ts and other core/ modules, and reads
// no clock, no randomness and no environment; runtime/ reaches files only through the ports of
// adapters/fs (no `node:fs`). Two exceptions: `js-yaml` (the YAML parser of Markdown frontmatter)
// and `jsonc-parser` (which finds a key a JSON recipe names twice) are pure, functions from text to
// values with no I/O, so parsing stays in core beside the rest of recipe loading rather than
// moving a pure step into runtime/.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const coreDir = join(repo, "core");
const runtimeDir = join(repo, "runtime");

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? sources(join(dir, d.name)) : d.name.endsWith(".ts") ? [join(dir, d.name)] : [],
  );
}

const importSpecifiers = (text: string): string[] =>
  [...text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g)].map(
    (m) => (m[1] ?? m[2])!,
  );

export function violations(file: string, text: string): string[] {
  const out: string[] = [];
  for (const spec of importSpecifiers(text)) {
    if (spec.startsWith(".")) {
      const target = resolve(dirname(file), spec);
      if (relative(coreDir, target).startsWith("..")) out.push(`imports ${spec} (outside core/)`);
    } else if (!/^(fp-ts|io-ts|js-yaml|jsonc-parser)(\/|$)/.test(spec)) {
      out.push(`imports ${spec}`);
    }
  }
  const code = text.replace(/\/\/.*$/gm, "").replace(/\/\*[\s\S]*?\*\//g, "");
  for (const [pattern, what] of [
    [/\bprocess\./, "reads process state"],
    [/\bDate\.now\b/, "reads the clock"],
    [/new Date\(\s*\)/, "reads the clock"],
    [/\bMath\.random\b/, "uses randomness"],
    [/\brequire\(/, "uses require"],
  ] as const) {
    if (pattern.test(code)) out.push(what);
  }
  return out;
}

describe("core dependency rule", () => {
  const files = sources(coreDir);

  it("finds the core sources", () => {
    expect(files.length).toBeGreaterThan(5);
  });

  it.each(files.map((f) => [relative(repo, f), f]))("%s imports only fp-ts, io-ts and core", (_name, file) => {
    expect(violations(file, readFileSync(file, "utf8"))).toEqual([]);
  });

  it("catches a violation (the checker itself can fail)", () => {
    const file = join(coreDir, "x.ts");
    expect(violations(file, 'import { readFileSync } from "node:fs";\nconst t = Date.now();')).toEqual([
      "imports node:fs",
      "reads the clock",
    ]);
    expect(violations(file, 'import { x } from "../runtime/registry.js";')).toEqual(["imports ../runtime/registry.js (outside core/)"]);
    expect(violations(file, 'import * as E from "fp-ts/lib/Either.js";\nimport { y } from "./y.js";')).toEqual([]);
  });
});

// runtime/ files that still import node:fs, until they are routed through the FileSystem or scan
// port. The list only shrinks: a file that no longer needs its place here fails the test too.
// It is empty: every runtime file reaches files through the ports.
const STILL_ON_NODE_FS: readonly string[] = [];

export const importsNodeFs = (text: string): boolean => importSpecifiers(text).some((spec) => /^(node:)?fs(\/|$)/.test(spec));

describe("runtime reaches files through the ports", () => {
  const files = sources(runtimeDir);

  it("finds the runtime sources", () => {
    expect(files.length).toBeGreaterThan(5);
  });

  it("no runtime file imports node:fs (but those still listed, and each of them does)", () => {
    const onNodeFs = files.filter((f) => importsNodeFs(readFileSync(f, "utf8"))).map((f) => relative(repo, f)).sort();
    expect(onNodeFs).toEqual([...STILL_ON_NODE_FS].sort());
  });

  it("catches an import of node:fs (the checker itself can fail)", () => {
    expect(importsNodeFs('import { readFileSync } from "node:fs";')).toBe(true);
    expect(importsNodeFs('import { readFile } from "node:fs/promises";')).toBe(true);
    expect(importsNodeFs('const fs = await import("fs");')).toBe(true);
    expect(importsNodeFs('import { join } from "node:path";\nimport type { FileSystem } from "../adapters/fs/FileSystem.js";')).toBe(false);
  });
});
