// A run's recorded pids are checked against the start time and boot id recorded with them before
// anything is signalled: once a run's processes have died, their pids may belong to strangers,
// and control.kill must leave those alone. Also: an async run's stdout reaches stdout.log while
// the run is still going.
import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { isAlive } from "../../../adapters/process/group.js";
import { inspect } from "../../../runtime/verbs/inspect.js";
import { message } from "../../../runtime/verbs/message.js";
import { openRegistry } from "../../../runtime/registry.js";
import { makeNodeScanPort } from "../../../adapters/fs/scan.js";
import { pruneRuns } from "../../../runtime/runs/prune.js";
import { readRun } from "../../../runtime/runs/store.js";
import { finished, nodeFs, runBox, runIdOf, sleep, waitFor, type RunBox } from "./support.js";

const NS_LAST_PID = "/proc/sys/kernel/ns_last_pid";

let box: RunBox;
const strangers: ChildProcess[] = [];
const strangerPids: number[] = [];
beforeAll(() => {
  box = runBox();
  writeFileSync(join(box.dir, "hold"), `#!/bin/sh\necho $$ > "$1"\nexec sleep 30\n`);
  chmodSync(join(box.dir, "hold"), 0o755);
  box.recipe("hold", { description: "Holds", async: true, template: "./hold {pidfile}" });
  box.recipe("many_lines", { description: "More output than an answer holds", async: true, template: "seq 1 5000" });
  box.recipe("slow_lines", { description: "Two lines, a pause between", async: true, template: "sh -c 'echo first; sleep 3; echo second'" });
});
afterEach(() => {
  for (const s of strangers.splice(0)) s.kill("SIGKILL");
  for (const pid of strangerPids.splice(0)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
});
afterAll(() => box.cleanup());

const notUsed = (): never => {
  throw new Error("not used");
};
const kill = (id: string) => message({ to: `run:${id}`, type: "control.kill" }, { discovery: notUsed, invokeTool: notUsed, env: box.env, fs: nodeFs, runsRoot: box.runsRoot });
const statusOf = (runDir: string): Record<string, unknown> => JSON.parse(readFileSync(join(runDir, "status.json"), "utf8")) as Record<string, unknown>;

/** A detached `sleep 30` in a process group of its own: a stranger the run must not touch. */
function stranger(): ChildProcess {
  const child = spawn("sleep", ["30"], { detached: true, stdio: "ignore" });
  child.unref();
  strangers.push(child);
  return child;
}

/** Starts a running hold run; answers its id, folder and the recorded pids. */
async function holdRun(): Promise<{ id: string; runDir: string; supervisor: number; pgid: number }> {
  const pidfile = join(box.dir, `hold-${Date.now()}.pid`);
  const id = runIdOf(await box.call("hold", { pidfile }));
  await waitFor("the command to start", () => (existsSync(pidfile) && readFileSync(pidfile, "utf8").trim() !== "" ? true : undefined));
  const run = (await readRun(nodeFs, box.runsRoot, id))!;
  const status = statusOf(run.run_dir);
  return { id, runDir: run.run_dir, supervisor: status["supervisor_pid"] as number, pgid: status["pgid"] as number };
}

/** Kills the run's supervisor and command from outside, as a crash or an OOM kill would. */
async function killFromOutside(run: { supervisor: number; pgid: number }): Promise<void> {
  process.kill(run.supervisor, "SIGKILL");
  process.kill(-run.pgid, "SIGKILL");
  // gone from /proc, so that the pids are free again
  await waitFor("the run's processes to be reaped", () => (existsSync(`/proc/${run.supervisor}`) || existsSync(`/proc/${run.pgid}`) ? undefined : true), 15_000);
}

/** A stranger started with exactly `pid` (a detached `sleep 30` leading its own group), by setting
 *  the kernel's last pid just below it and forking at once (root only). Another process on the
 *  machine may take the pid first, so many attempts are made. */
async function strangerWithPid(pid: number): Promise<number | undefined> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const got = await new Promise<number>((resolve) => {
      const sh = spawn("sh", ["-c", `echo ${pid - 1} > ${NS_LAST_PID}; setsid sleep 30 </dev/null >/dev/null 2>&1 & echo $!`], { stdio: ["ignore", "pipe", "ignore"] });
      let out = "";
      sh.stdout.on("data", (d: Buffer) => (out += d.toString()));
      sh.on("close", () => resolve(Number(out.trim())));
    });
    if (got > 0) strangerPids.push(got);
    if (got === pid) return got;
  }
  return undefined;
}

let canReusePids = false;
try {
  writeFileSync(NS_LAST_PID, readFileSync(NS_LAST_PID, "utf8").trim());
  canReusePids = true;
} catch {
  console.log(`skipping the real pid-reuse test: ${NS_LAST_PID} is not writable here (it needs root); the forged-record test covers the same check`);
}

describe("a run's pids are checked before they are signalled", () => {
  it.skipIf(!canReusePids)("after the run died, control.kill leaves the new processes that got its pids alone", async () => {
    const run = await holdRun();
    expect(statusOf(run.runDir)).toMatchObject({ supervisor_start_time: expect.stringMatching(/^\d+$/), start_time: expect.stringMatching(/^\d+$/), boot_id: expect.any(String) });
    await killFromOutside(run);
    // the higher pid first: once the kernel's last pid is set just below the lower one, every
    // fork on the machine (other tests run beside this one) takes the pids above it in turn
    const [asSupervisor, asGroup] = run.supervisor > run.pgid
      ? [await strangerWithPid(run.supervisor), await strangerWithPid(run.pgid)]
      : await strangerWithPid(run.pgid).then(async (group) => [await strangerWithPid(run.supervisor), group]);
    expect(asSupervisor, "a stranger got the supervisor's pid").toBe(run.supervisor);
    expect(asGroup, "a stranger got the command's pid and group id").toBe(run.pgid);

    const answer = await kill(run.id);
    expect(answer.ok).toBe(true);
    await sleep(300);
    expect(isAlive(run.supervisor)).toBe(true);
    expect(isAlive(run.pgid)).toBe(true);
    // the run is not shown as running any more: its processes are gone, whatever has their pids
    expect((await readRun(nodeFs, box.runsRoot, run.id))!.status).not.toBe("running");
  }, 60_000);

  it("a record naming live unrelated processes with other start times is not signalled", async () => {
    const run = await holdRun();
    await killFromOutside(run);
    const a = stranger();
    const b = stranger();
    // the run's record now names two live strangers, with the start times the run recorded
    const status = statusOf(run.runDir);
    writeFileSync(join(run.runDir, "status.json"), JSON.stringify({ ...status, status: "running", supervisor_pid: a.pid, pid: b.pid, pgid: b.pid }));
    expect((await readRun(nodeFs, box.runsRoot, run.id))!.status).not.toBe("running");

    await kill(run.id);
    await sleep(300);
    expect(isAlive(a.pid!)).toBe(true);
    expect(isAlive(b.pid!)).toBe(true);
  }, 60_000);
});

describe("an async run's stdout", () => {
  it("reaches stdout.log as it is printed: tail shows the first line while the run still runs", async () => {
    const id = runIdOf(await box.call("slow_lines"));
    const inspectTail = () => inspect(openRegistry({ env: box.env, cwd: box.dir, home: box.dir, packagedRoot: null, scan: makeNodeScanPort() }).discover(), { target: `run:${id}`, view: "tail" }, { env: box.env, fs: nodeFs });
    const during = await waitFor("the first line in the tail", async () => {
      const tail = await inspectTail();
      return tail.text.includes("first") ? tail : undefined;
    });
    expect(during.text).toContain("status=running");
    expect(during.text).not.toContain("second");
    const run = await finished(box.runsRoot, id);
    expect(run.status).toBe("succeeded");
    expect(readFileSync(run.stdout_path, "utf8")).toBe("first\nsecond\n");
  }, 60_000);

  it("saves a truncated output in the run's folder, so it ages out with the run", async () => {
    const id = runIdOf(await box.call("many_lines"));
    const run = await finished(box.runsRoot, id);
    const result = JSON.parse(readFileSync(join(run.run_dir, "result.json"), "utf8")) as { details: { fullOutputPath?: string } };
    const saved = result.details.fullOutputPath;
    expect(saved?.startsWith(`${run.run_dir}/`)).toBe(true);
    expect(readFileSync(saved!, "utf8")).toContain("\n5000");
    expect((await pruneRuns(nodeFs, box.runsRoot, { now: Date.now() + 8 * 24 * 60 * 60 * 1000 }))).toContain(id);
    expect(existsSync(saved!)).toBe(false);
  }, 60_000);
});
