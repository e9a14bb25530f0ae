// Running the real `pi-recipes` command (from source, through tsx) as a child process.
import { spawnSync } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

const tsxLoader = pathToFileURL(join(repoRoot, "node_modules", "tsx", "dist", "loader.mjs")).href;

export interface CliRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export function runCli(args: readonly string[], env: NodeJS.ProcessEnv = {}, cwd: string = repoRoot): CliRun {
  // tsx by file URL: a bare "tsx" would be looked up from `cwd`, which may be any folder
  const r = spawnSync(process.execPath, ["--import", tsxLoader, join(repoRoot, "host-cli", "main.ts"), ...args], {
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
