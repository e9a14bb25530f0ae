// Async runs through callTool with real detached processes: the supervisor, the worker and the
// recipe's commands all run for real, in process groups of their own.
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { groupAlive, isAlive } from "../../../adapters/process/group.js";
import { inspect } from "../../../runtime/verbs/inspect.js";
import { message } from "../../../runtime/verbs/message.js";
import { openRegistry } from "../../../runtime/registry.js";
import { makeNodeScanPort } from "../../../adapters/fs/scan.js";
import { readRun, readRunSpec } from "../../../runtime/runs/store.js";
import { finished, nodeFs, runBox, runIdOf, waitFor, type RunBox } from "./support.js";

let box: RunBox;
beforeAll(() => {
  box = runBox();
  box.recipe("pipeline", {
    description: "Three steps, one of them parallel",
    async: true,
    template: [
      "printf 'one\\n'",
      { parallel: true, template: [{ label: "left", template: "sed s/one/left/" }, { label: "right", template: "sed s/one/right/" }] },
      "sh -c 'echo step3-warning >&2; cat'",
    ],
  });
  box.recipe("fails", { description: "Fails", async: true, template: "sh -c 'echo bad >&2; exit 3'" });
  box.recipe("echo_async", { description: "Echo", async: true, args: ["word"], template: "echo {word}" });
  box.recipe("layered", {
    description: "Recipe values expand, caller values do not",
    async: true,
    defaults: { dir: "{root}/docs", root: "/repo" },
    template: "printf '%s\\n' {dir} {x}",
  });
  writeFileSync(join(box.dir, "hold"), `#!/bin/sh\necho $$ > "$1"\nexec sleep 30\n`);
  chmodSync(join(box.dir, "hold"), 0o755);
  box.recipe("hold", { description: "Holds", async: true, template: ["./hold {pidfile}", "echo never"] });
});
afterAll(() => box.cleanup());

const inspectRun = (id: string, extra: Record<string, unknown> = {}) =>
  inspect(openRegistry({ env: box.env, cwd: box.dir, home: box.dir, packagedRoot: null, scan: makeNodeScanPort() }).discover(), { target: `run:${id}`, ...extra }, { env: box.env, fs: nodeFs });

/** Starts the `hold` run; its id and the pid of its command once that runs. */
async function holding(pidName: string): Promise<{ id: string; sleeper: number }> {
  const pidfile = join(box.dir, pidName);
  const id = runIdOf(await box.call("hold", { pidfile }));
  const sleeper = await waitFor("the command to start", () => {
    const text = existsSync(pidfile) ? readFileSync(pidfile, "utf8").trim() : "";
    return text === "" ? undefined : Number(text);
  });
  return { id, sleeper };
}

describe("async runs", () => {
  it("answer at once with the run id, then run the whole template graph to success", async () => {
    const started = await box.call("pipeline");
    expect(started.ok).toBe(true);
    const id = runIdOf(started);
    expect(id).toMatch(/^pipeline-\d+$/);
    expect(started.text.split("\n")[0]).toMatch(new RegExp(`^run ${id} tool=pipeline status=(running|succeeded) exit=`));
    expect(started.details).toMatchObject({ async: true, tool: "pipeline", run_dir: join(box.runsRoot, id) });

    const run = await finished(box.runsRoot, id);
    expect(run).toMatchObject({ status: "succeeded", exit_code: 0, tool: "pipeline" });
    expect(run.pid).toBeGreaterThan(0);
    expect(Date.parse(run.ended_at ?? "")).toBeGreaterThanOrEqual(Date.parse(run.started_at ?? ""));
    const stdout = readFileSync(run.stdout_path, "utf8");
    expect(stdout).toContain("--- branch: left status: done ---\nleft");
    expect(stdout).toContain("--- branch: right status: done ---\nright");
    expect(readFileSync(run.stderr_path, "utf8")).toContain("step3-warning");
    // status.json describes the run by itself
    const status = JSON.parse(readFileSync(join(run.run_dir, "status.json"), "utf8")) as Record<string, unknown>;
    expect(status).toMatchObject({ run_id: id, tool: "pipeline", status: "succeeded", exit_code: 0 });

    const tail = (await inspectRun(id, { view: "tail", lines: 3 }));
    expect(tail.ok).toBe(true);
    expect(tail.text).toContain(`run ${id} tool=pipeline status=succeeded exit=0`);
    expect(tail.text).toContain("--- stdout (last 3 lines) ---");
    expect(tail.text).toContain("--- stderr (1 line) ---\nstep3-warning");
    const status2 = (await inspectRun(id));
    expect(status2.text).toContain("result:\n--- branch: left status: done ---");
  });

  it("record a failing run as failed, with its exit code and stderr", async () => {
    const id = runIdOf(await box.call("fails"));
    const run = await finished(box.runsRoot, id);
    expect(run).toMatchObject({ status: "failed", exit_code: 3 });
    expect(readFileSync(run.stderr_path, "utf8")).toBe("bad\n");
    expect((await inspectRun(id)).text.split("\n")[0]).toMatch(new RegExp(`^run ${id} tool=fails status=failed exit=3 started=\\S+ ended=\\S+ pid=\\d+$`));
  });

  it("take the caller's run_id, refuse a taken or unsafe one, keep correlation_id and strip the run parameters", async () => {
    const first = await box.call("echo_async", { word: "hi", run_id: "  my-run.1 ", correlation_id: "flow-7", transport_context: { x: 1 } });
    expect(first.ok).toBe(true);
    expect(first.details["run_id"]).toBe("my-run.1");
    expect(first.text).toContain("correlation_id: flow-7");
    const spec = (await readRunSpec(nodeFs, join(box.runsRoot, "my-run.1")));
    expect(spec?.values).toEqual({ word: "hi" });
    const run = await finished(box.runsRoot, "my-run.1");
    expect(run).toMatchObject({ status: "succeeded", correlation_id: "flow-7" });
    expect(readFileSync(run.stdout_path, "utf8")).toBe("hi\n");

    const again = await box.call("echo_async", { word: "again", run_id: "my-run.1" });
    expect(again.ok).toBe(false);
    expect(again.text).toBe(`Run my-run.1 already exists (${join(box.runsRoot, "my-run.1")}); pass another run_id.`);
    expect(readFileSync(run.stdout_path, "utf8")).toBe("hi\n");

    for (const bad of ["../escape", "a/b", "..", ".hidden", "x".repeat(129)]) {
      const r = await box.call("echo_async", { word: "x", run_id: bad });
      expect(r.ok).toBe(false);
      expect(r.text).toMatch(/^Invalid run_id/);
    }
    expect(existsSync(join(box.runsRoot, "..", "escape"))).toBe(false);
  });

  it("refuse a call missing a required value before starting anything", async () => {
    const r = await box.call("echo_async", { run_id: "never-started" });
    expect(r.ok).toBe(false);
    expect(r.text).toContain("Missing command template value: word");
    expect(r.text).toContain("Expected call shape for echo_async");
    expect(existsSync(join(box.runsRoot, "never-started"))).toBe(false);
  });

  it("expand recipe-authored values in the worker, and pass caller values verbatim", async () => {
    const id = runIdOf(await box.call("layered", { x: "{root}" }));
    const run = await finished(box.runsRoot, id);
    expect(readFileSync(run.stdout_path, "utf8")).toBe("/repo/docs\n{root}\n");
  });

  it("stop on message type=control.kill: status killed, every process of the run gone", async () => {
    const { id, sleeper } = await holding("hold.pid");
    const before = (await readRun(nodeFs, box.runsRoot, id))!;
    expect(before.status).toBe("running");
    expect(isAlive(sleeper)).toBe(true);
    const supervisor = (JSON.parse(readFileSync(join(before.run_dir, "status.json"), "utf8")) as { supervisor_pid: number }).supervisor_pid;

    const ctx = { discovery: () => { throw new Error("not used"); }, invokeTool: () => { throw new Error("not used"); }, env: box.env, fs: nodeFs, runsRoot: box.runsRoot };
    const killed = await message({ to: `run:${id}`, type: "control.kill" }, ctx);
    expect(killed.ok).toBe(true);
    expect(killed.text.split("\n")[0]).toBe(`to=run:${id} type=control.kill message=sent delivered=true status=killed`);
    const run = (await readRun(nodeFs, box.runsRoot, id))!;
    expect(run.status).toBe("killed");
    expect(run.exit_code).not.toBe(0);
    expect(groupAlive(run.pgid!)).toBe(false);
    expect(isAlive(sleeper)).toBe(false);
    expect(groupAlive(sleeper)).toBe(false);
    await waitFor("the supervisor to exit", () => (isAlive(supervisor) ? undefined : true), 5000);
    expect(readFileSync(run.stdout_path, "utf8")).not.toContain("never");

    const twice = await message({ to: `run:${id}`, type: "control.kill" }, ctx);
    expect(twice.text.split("\n")[0]).toBe(`to=run:${id} type=control.kill message=not_sent reason=run_killed`);
    const other = await message({ to: `run:${id}`, type: "control.pause" }, ctx);
    expect(other.ok).toBe(false);
    expect(other.text).toBe("run:<id> accepts type=control.kill; got type=control.pause.");
  });

  it("a worker killed with SIGKILL takes its commands' process groups with it: none outlives the run", async () => {
    const { id, sleeper } = await holding("hold-k9.pid");
    const run0 = (await readRun(nodeFs, box.runsRoot, id))!;
    const worker = run0.pid!;
    // the command's group is noted as it starts (the worker notes it right after the spawn; the
    // command itself may write its pid file a moment earlier)
    const groups = await waitFor("the group to be noted", () => {
      const path = join(run0.run_dir, "groups");
      return existsSync(path) && readFileSync(path, "utf8") !== "" ? readFileSync(path, "utf8") : undefined;
    });
    expect(groups).toMatch(new RegExp(`^${sleeper} \\d*\\n`));
    // the command runs in a group of its own, not in the worker's
    expect(groupAlive(sleeper)).toBe(true);
    expect(sleeper).not.toBe(worker);
    process.kill(worker, "SIGKILL");
    await waitFor("the command's group to end", () => (groupAlive(sleeper) ? undefined : true), 10_000);
    const run = await waitFor("the run to end", async () => {
      const r = (await readRun(nodeFs, box.runsRoot, id))!;
      return r.status === "running" ? undefined : r;
    });
    expect(run.status).toBe("failed");
    expect(run.signal).toBe("SIGKILL");
  });
});
