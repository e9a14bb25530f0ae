// A host's place, its agent-dir paths and its packaged component root, is derived in one module
// (runtime/agent-paths.ts, `agentPlace`), once per host: the hosts' entry files take it through
// `hostPorts` (runtime/session.ts) and hand it down. No other source file derives it again, from
// the environment (`agentPaths(...)`) or from the installed package (`packageInfo().packagedRecipeRoot`).
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const SOURCE_DIRS = ["core", "runtime", "adapters", "host-cli", "host-mcp", "host-pi"];
const HOME = "runtime/agent-paths.ts";

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? sources(join(dir, d.name)) : d.name.endsWith(".ts") ? [join(dir, d.name)] : [],
  );
}

const code = (text: string): string => text.replace(/\/\/.*$/gm, "").replace(/\/\*[\s\S]*?\*\//g, "");

/** "file: what" for every derivation of the place outside its module. */
export function derivations(files: readonly { readonly name: string; readonly text: string }[]): string[] {
  return files
    .filter((f) => f.name !== HOME)
    .flatMap((f) => {
      const c = code(f.text);
      const out: string[] = [];
      if (/\bagentPaths\s*\(/.test(c)) out.push(`${f.name}: derives the agent-dir paths`);
      if (/\bpackageInfo\s*\(/.test(c) && /\.\s*packagedRecipeRoot\b|\{[^}]*\bpackagedRecipeRoot\b[^}]*\}\s*=/.test(c)) out.push(`${f.name}: derives the packaged root`);
      return out;
    });
}

describe("a host's place", () => {
  it("is derived only by runtime/agent-paths.ts", () => {
    const files = SOURCE_DIRS.flatMap((d) => sources(join(repo, d))).map((f) => ({ name: relative(repo, f), text: readFileSync(f, "utf8") }));
    expect(files.length).toBeGreaterThan(100);
    expect(derivations(files)).toEqual([]);
  });

  it("catches a second derivation (the check itself can fail)", () => {
    const files = [
      { name: "host-cli/verbs/review-command.ts", text: "review({ paths: agentPaths(process.env) })" },
      { name: "host-mcp/stdio.ts", text: "const pkg = packageInfo();\nactivate(pkg.packagedRecipeRoot);" },
      { name: "runtime/verbs/status.ts", text: "const pkg = packageInfo();\nreturn { packagedRecipeRoot: packaged, version: pkg.version };" },
      { name: HOME, text: "const paths = agentPaths(env); packageInfo().packagedRecipeRoot;" },
    ];
    expect(derivations(files)).toEqual(["host-cli/verbs/review-command.ts: derives the agent-dir paths", "host-mcp/stdio.ts: derives the packaged root"]);
  });
});
