// Running the real `pi-recipes` command as a child process: the build of the current sources made
// once per test run (test/support/global-setup.ts), or the sources through tsx when no build was
// provided (a vitest config without that globalSetup).
import { spawnSync } from "node:child_process";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { inject } from "vitest";

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

const tsxLoader = pathToFileURL(join(repoRoot, "node_modules", "tsx", "dist", "loader.mjs")).href;

/** The node arguments that run the TypeScript file `source` (a path inside the repository):
 *  its module in this run's build, or the source itself through tsx. */
export function nodeArgsFor(source: string): string[] {
  const build = inject("testBuild");
  const rel = relative(repoRoot, source);
  if (typeof build === "string" && build !== "" && !rel.startsWith("..") && rel.endsWith(".ts")) return [join(build, rel.replace(/\.ts$/, ".js"))];
  // tsx by file URL: a bare "tsx" would be looked up from the child's cwd, which may be any folder
  return ["--import", tsxLoader, source];
}

/** The node arguments that start `pi-recipes` (before its own arguments): the command as
 *  installed, the package's bin (host-cli/front-door.ts, built into host-cli/pi-recipes.cjs),
 *  which answers some commands itself and hands the others to host-cli/main.ts. */
export function cliNodeArgs(): string[] {
  const build = inject("testBuild");
  if (typeof build === "string" && build !== "") return [join(build, "host-cli", "pi-recipes.cjs")];
  return nodeArgsFor(join(repoRoot, "host-cli", "front-door.ts"));
}

export interface CliRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export function runCli(args: readonly string[], env: NodeJS.ProcessEnv = {}, cwd: string = repoRoot): CliRun {
  const r = spawnSync(process.execPath, [...cliNodeArgs(), ...args], {
    cwd,
    env: { ...process.env, ...env },
    encoding: "utf8",
    timeout: 60_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

export function runCliJson(args: readonly string[], env: NodeJS.ProcessEnv = {}): { status: number | null; body: { ok: boolean; text: string; details: Record<string, unknown> } } {
  const r = runCli([...args, "--json"], env);
  return { status: r.status, body: JSON.parse(r.stdout) as { ok: boolean; text: string; details: Record<string, unknown> } };
}
