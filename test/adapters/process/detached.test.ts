import { execFile } from "node:child_process";
import { mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  isAlive,
  killGroup,
  killSupervised,
  readSupervisedStatus,
  startDetached,
  startSupervised,
  type SupervisedStatus,
} from "../../../adapters/process/detached.js";
import { eventually, groupGone } from "./groups.js";

const run = promisify(execFile);
const ADAPTER = resolve("adapters/process/detached.ts");

let dir: string;
const cleanups: (() => Promise<unknown>)[] = [];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "pi-recipes-detached-test-"));
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup().catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
});

/** Runs `body` (an async function body with `m` = the detached module) in a separate node
 *  process that prints the result as JSON and exits at once. */
async function fromShortLivedParent(body: string): Promise<unknown> {
  const script = join(dir, "parent.mts");
  await writeFile(script, `import * as m from ${JSON.stringify(ADAPTER)};\nconst result = await (async () => { ${body} })();\nprocess.stdout.write(JSON.stringify(result));\n`);
  const { stdout } = await run(process.execPath, ["--import", "tsx", script], { cwd: process.cwd() });
  return JSON.parse(stdout);
}

const statusOf = async (runDir: string): Promise<SupervisedStatus["status"] | undefined> => (await readSupervisedStatus(runDir))?.status;

describe("startDetached", () => {
  it("outlives the parent that started it and writes its output to the files", async () => {
    const out = join(dir, "out.log");
    const err = join(dir, "err.log");
    const started = (await fromShortLivedParent(
      `return m.startDetached({ command: "sh", args: ["-c", "sleep 0.8; echo out; echo err >&2"], cwd: ${JSON.stringify(dir)}, stdoutPath: ${JSON.stringify(out)}, stderrPath: ${JSON.stringify(err)} });`,
    )) as { ok: boolean; pid: number; pgid: number };
    cleanups.push(() => killGroup(started.pgid, 100));
    expect(started.ok).toBe(true);
    expect(started.pgid).toBe(started.pid);
    // The parent has exited; the run goes on.
    expect(isAlive(started.pid)).toBe(true);
    expect(await eventually(async () => (await readFile(out, "utf8")) === "out\n")).toBe(true);
    expect(await readFile(err, "utf8")).toBe("err\n");
    expect(await eventually(() => !isAlive(started.pid))).toBe(true);
  });

  it("reports a missing executable instead of throwing", async () => {
    const started = await startDetached({ command: "definitely-missing-bin", args: [], cwd: dir, stdoutPath: join(dir, "o"), stderrPath: join(dir, "e") });
    expect(started).toEqual({ ok: false, error: "spawn definitely-missing-bin ENOENT" });
  });

  it("reports an output path it cannot open", async () => {
    const started = await startDetached({ command: "true", args: [], cwd: dir, stdoutPath: join(dir, "missing", "o"), stderrPath: join(dir, "e") });
    expect(started.ok).toBe(false);
  });

  it("killGroup ends the whole detached group", async () => {
    const started = await startDetached({ command: "sh", args: ["-c", "sleep 30 & sleep 30 & wait"], cwd: dir, stdoutPath: join(dir, "o"), stderrPath: join(dir, "e") });
    if (!started.ok) throw new Error(started.error);
    expect(await killGroup(started.pgid, 500)).toBe(true);
    expect(groupGone(started.pgid)).toBe(true);
  });
});

describe("startSupervised", () => {
  it("records running, then succeeded with the exit code, after the starter has exited", async () => {
    const runDir = join(dir, "run");
    const started = (await fromShortLivedParent(
      `return m.startSupervised({ runDir: ${JSON.stringify(runDir)}, command: "sh", args: ["-c", "echo out; echo err >&2; sleep 0.8"], cwd: ${JSON.stringify(dir)} });`,
    )) as { ok: boolean; supervisorPid: number; status: SupervisedStatus };
    cleanups.push(() => killSupervised(runDir, 100));
    expect(started.ok).toBe(true);
    expect(started.status.status).toBe("running");
    expect(await statusOf(runDir)).toBe("running");
    const running = await readSupervisedStatus(runDir);
    expect(running?.pid).toBeGreaterThan(0);
    expect(running?.pgid).toBe(running?.pid);
    expect(running?.supervisor_pid).toBe(started.supervisorPid);

    expect(await eventually(async () => (await statusOf(runDir)) === "succeeded")).toBe(true);
    const done = await readSupervisedStatus(runDir);
    expect(done).toMatchObject({ status: "succeeded", exit_code: 0 });
    expect(typeof done?.started_at).toBe("string");
    expect(typeof done?.ended_at).toBe("string");
    expect(await readFile(join(runDir, "stdout.log"), "utf8")).toBe("out\n");
    expect(await readFile(join(runDir, "stderr.log"), "utf8")).toBe("err\n");
    expect(await eventually(() => !isAlive(started.supervisorPid))).toBe(true);
    // status.json is only ever replaced whole: no temp file is left behind
    expect((await readdir(runDir)).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });

  it("records failed with a non-zero exit code", async () => {
    const runDir = join(dir, "run");
    const started = await startSupervised({ runDir, command: "sh", args: ["-c", "exit 3"], cwd: dir });
    expect(started.ok).toBe(true);
    expect(await eventually(async () => (await statusOf(runDir)) === "failed")).toBe(true);
    expect(await readSupervisedStatus(runDir)).toMatchObject({ status: "failed", exit_code: 3 });
  });

  it("records failed with the error when the command cannot start", async () => {
    const runDir = join(dir, "run");
    const started = await startSupervised({ runDir, command: "definitely-missing-bin", args: [], cwd: dir });
    expect(started.ok).toBe(true);
    expect(await eventually(async () => (await statusOf(runDir)) === "failed")).toBe(true);
    expect(await readSupervisedStatus(runDir)).toMatchObject({ status: "failed", exit_code: 1, pid: null, error: "spawn definitely-missing-bin ENOENT" });
    expect(await readFile(join(runDir, "stderr.log"), "utf8")).toBe("spawn definitely-missing-bin ENOENT\n");
  });

  it("passes argv and environment through exactly", async () => {
    const runDir = join(dir, "run");
    const args = ["-e", "process.stdout.write(JSON.stringify([process.argv.slice(1), process.env.ONLY]))", "--", "a b", "$(x)", "", "ü"];
    await startSupervised({ runDir, command: process.execPath, args, cwd: dir, env: { ONLY: "yes" } });
    expect(await eventually(async () => (await statusOf(runDir)) === "succeeded")).toBe(true);
    expect(JSON.parse(await readFile(join(runDir, "stdout.log"), "utf8"))).toEqual([["a b", "$(x)", "", "ü"], "yes"]);
  });

  it("killing a supervised sleep records killed and leaves no process of its group", async () => {
    const runDir = join(dir, "run");
    const started = await startSupervised({ runDir, command: "sh", args: ["-c", "sleep 30 & sleep 30 & wait"], cwd: dir, killGraceMs: 500 });
    if (!started.ok) throw new Error(started.error);
    const pgid = started.status.pgid ?? 0;
    expect(pgid).toBeGreaterThan(0);
    const final = await killSupervised(runDir, 500);
    expect(final).toMatchObject({ status: "killed", exit_code: 1 });
    expect(await readSupervisedStatus(runDir)).toMatchObject({ status: "killed" });
    expect(groupGone(pgid)).toBe(true);
    expect(await eventually(() => !isAlive(started.supervisorPid))).toBe(true);
  });

  it("a command that ignores SIGTERM is killed after the grace", async () => {
    const runDir = join(dir, "run");
    const started = await startSupervised({ runDir, command: "sh", args: ["-c", "trap '' TERM; sleep 30"], cwd: dir, killGraceMs: 200 });
    if (!started.ok) throw new Error(started.error);
    const final = await killSupervised(runDir, 200);
    expect(final?.status).toBe("killed");
    expect(groupGone(started.status.pgid ?? 0)).toBe(true);
  });

  it("killing an already finished run changes nothing", async () => {
    const runDir = join(dir, "run");
    await startSupervised({ runDir, command: "true", args: [], cwd: dir });
    expect(await eventually(async () => (await statusOf(runDir)) === "succeeded")).toBe(true);
    expect(await killSupervised(runDir, 100)).toMatchObject({ status: "succeeded", exit_code: 0 });
  });
});
