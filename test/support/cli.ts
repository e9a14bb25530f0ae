// Running the real `pi-recipes` command (from source, through tsx) as a child process.
import { spawnSync } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

export interface CliRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export function runCli(args: readonly string[], env: NodeJS.ProcessEnv = {}, cwd: string = repoRoot): CliRun {
  const r = spawnSync(process.execPath, ["--import", "tsx", join(repoRoot, "host-cli", "main.ts"), ...args], {
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
