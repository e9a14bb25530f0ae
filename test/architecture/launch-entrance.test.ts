// One entrance to running a program (docs/ARCHITECTURE.md, "Where a launch is accounted"):
// `launch` in runtime/launch.ts is the only caller of the executor, and it takes the proof of
// accounting (runtime/accounting.ts), which no other module can make. The first half is checked
// here over the sources; the second by the compiler: the lines marked `@ts-expect-error` below
// must stay errors, or `npm run typecheck` fails.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { Accounted } from "../../runtime/accounting.js";
import { launch } from "../../runtime/launch.js";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const SOURCE_DIRS = ["core", "runtime", "adapters", "host-cli", "host-mcp", "host-pi"];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? sources(join(dir, d.name)) : d.name.endsWith(".ts") ? [join(dir, d.name)] : [],
  );
}

/** The source files (relative) whose code names `executeTemplate`, its own module aside. */
export function executorCallers(files: readonly { readonly name: string; readonly text: string }[]): string[] {
  return files
    .filter((f) => f.name !== "runtime/execute/execute.ts")
    .filter((f) => /\bexecuteTemplate\b/.test(f.text.replace(/\/\/.*$/gm, "").replace(/\/\*[\s\S]*?\*\//g, "")))
    .map((f) => f.name);
}

describe("the launch entrance", () => {
  it("runtime/launch.ts is the only module that calls the executor", () => {
    const files = SOURCE_DIRS.flatMap((d) => sources(join(repo, d))).map((f) => ({ name: relative(repo, f), text: readFileSync(f, "utf8") }));
    expect(files.length).toBeGreaterThan(100);
    expect(executorCallers(files)).toEqual(["runtime/launch.ts"]);
  });

  it("catches a second caller (the check itself can fail)", () => {
    const spawn = { name: "runtime/verbs/spawn.ts", text: 'import { executeTemplate } from "../execute/execute.js";\nawait executeTemplate(p, v, o);' };
    const commented = { name: "runtime/verbs/call.ts", text: "// once called executeTemplate itself" };
    expect(executorCallers([spawn, commented])).toEqual(["runtime/verbs/spawn.ts"]);
  });

});

/** Never run: the compiler checks it (`npm run typecheck`), and each marked line must stay an
 *  error, so that the proof cannot be forged from outside runtime/accounting.ts nor left out. */
export function proofChecks(): unknown[] {
  // @ts-expect-error an object with the proof's visible fields is no proof
  const forged: Accounted = { record: "counted" };
  // @ts-expect-error nor is nothing
  const skipped = launch(undefined, { kind: "leaf" } as never, {}, {} as never);
  return [forged, skipped];
}
