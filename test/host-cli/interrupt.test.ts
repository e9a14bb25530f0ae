// Ctrl-C, SIGTERM or SIGHUP to a `pi-recipes call` or `spawn` that is running a command: the
// command (in a process group of its own, which the terminal's signal does not reach) is ended
// with the CLI, the result says it was killed, and the exit code is the signal's (128 + n).
// Real processes.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { groupAlive, waitUntil } from "../../adapters/process/group.js";
import { cliNodeArgs } from "../support/cli.js";

let dir: string;
let env: NodeJS.ProcessEnv;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "pi-interrupt-"));
  mkdirSync(join(dir, "agent", "recipes"), { recursive: true });
  env = { ...process.env, PI_CODING_AGENT_DIR: join(dir, "agent") };
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** runs the CLI with `args`, waits for the command's pid file, sends `signal` to the CLI alone */
async function interrupted(args: readonly string[], pidFile: string, signal: NodeJS.Signals): Promise<{ code: number | null; stdout: string; pid: number }> {
  const child = spawn(process.execPath, [...cliNodeArgs(), ...args], { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
  expect(await waitUntil(() => existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "", 30_000)).toBe(true);
  const pid = Number(readFileSync(pidFile, "utf8").trim());
  expect(groupAlive(pid)).toBe(true);
  child.kill(signal);
  return { code: await exited, stdout, pid };
}

describe("a signal to the CLI while a command runs", () => {
  it.each([
    ["SIGINT", 130],
    ["SIGTERM", 143],
    ["SIGHUP", 129],
  ] as const)("%s: call ends the command's whole process group and exits %i", async (signal, code) => {
    const pidFile = join(dir, `call-${signal}.pid`);
    writeFileSync(join(dir, "agent", "recipes", "nap.json"), JSON.stringify({ description: "nap", args: ["pidfile"], template: "sh -c 'echo $$ > {pidfile}; exec sleep 30'" }));
    const r = await interrupted(["call", "nap", `pidfile=${pidFile}`, "--json"], pidFile, signal);
    expect(r.code).toBe(code);
    const answer = JSON.parse(r.stdout) as { ok: boolean; text: string; details: Record<string, unknown> };
    // the reason is the signal, not a command that failed on its own
    expect(answer).toMatchObject({ ok: false, details: { killed: true, failureReason: "interrupted", interrupted: signal } });
    expect(answer.text.endsWith(`Interrupted by ${signal}: the command was ended (exit ${code}).`)).toBe(true);
    expect(await waitUntil(() => !groupAlive(r.pid), 10_000)).toBe(true);
  }, 60_000);

  it("SIGINT: spawn of an inline template ends it too", async () => {
    const pidFile = join(dir, "spawn.pid");
    const r = await interrupted(["spawn", `template=sh -c 'echo $$ > ${pidFile}; exec sleep 30'`], pidFile, "SIGINT");
    expect(r.code).toBe(130);
    expect(await waitUntil(() => !groupAlive(r.pid), 10_000)).toBe(true);
  }, 60_000);
});
