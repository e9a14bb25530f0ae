// The run store without live runs: ids, pruning, tails and the inspect/message answers about
// runs that are not there.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { generatedRunId, requestedRunId, runIdProblem } from "../../../runtime/runs/run-id.js";
import { pruneRuns } from "../../../runtime/runs/prune.js";
import { inspectRun, messageRun } from "../../../runtime/runs/control.js";
import { listRuns, readRun, STARTING_GRACE_MS } from "../../../runtime/runs/store.js";
import { tailLines, tailLinesParam } from "../../../runtime/runs/tail.js";
import { runFacts } from "../../../runtime/runs/facts.js";
import { finished, nodeFs, runBox, runIdOf, type RunBox } from "./support.js";

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.parse("2026-06-10T12:00:00.000Z");
const iso = (ms: number): string => new Date(ms).toISOString();

let box: RunBox;
beforeEach(() => {
  box = runBox();
  mkdirSync(box.runsRoot, { recursive: true });
});
afterEach(() => box.cleanup());

function fakeRun(id: string, status: string, endedAgoMs: number, extra: Record<string, unknown> = {}): void {
  const dir = join(box.runsRoot, id);
  mkdirSync(dir);
  const ended = status === "running" ? null : iso(NOW - endedAgoMs);
  writeFileSync(
    join(dir, "status.json"),
    JSON.stringify({ run_id: id, tool: "t", status, pid: 1, pgid: null, exit_code: status === "succeeded" ? 0 : null, started_at: iso(NOW - endedAgoMs - 1000), ended_at: ended, supervisor_pid: process.pid, ...extra }),
  );
}

const deadPid = (): number => spawnSync("true").pid ?? 999_999;
const left = (): string[] => readdirSync(box.runsRoot).sort();

describe("run ids", () => {
  it("accept plain names and refuse anything that could leave the runs folder", async () => {
    for (const ok of ["a", "my-run.1", "pipeline-1780000000000", "A_b-C.d", "x".repeat(128)]) expect(runIdProblem(ok)).toBeUndefined();
    for (const bad of ["", ".", "..", "../x", "a/b", "a\\b", "a..b", ".hidden", "-x", "a b", "x".repeat(129), "a\0b"]) {
      expect(runIdProblem(bad)).toMatch(/^Invalid run_id/);
    }
  });

  it("take the trimmed run_id, or make <tool>-<ms> safe for any tool name", async () => {
    expect(requestedRunId({ run_id: "  r1 " })).toBe("r1");
    expect(requestedRunId({ run_id: 42 })).toBe("42");
    expect(requestedRunId({ run_id: "   " })).toBeUndefined();
    expect(requestedRunId({})).toBeUndefined();
    expect(generatedRunId("docs_review", 1_780_000_000_000)).toBe("docs_review-1780000000000");
    expect(generatedRunId("My Tool", 5, 2)).toBe("My_Tool-5-2");
    expect(generatedRunId("..", 5)).toBe("run-5");
    expect(runIdProblem(generatedRunId("y".repeat(300), 1_780_000_000_000))).toBeUndefined();
  });
});

describe("pruning", () => {
  it("keeps at most `keep` finished runs, the newest, and never a running one", async () => {
    fakeRun("new", "succeeded", 1000);
    fakeRun("mid", "failed", 2000);
    fakeRun("old", "killed", 3000);
    fakeRun("busy", "running", 10 * DAY);
    expect((await pruneRuns(nodeFs, box.runsRoot, { now: NOW, keep: 1 })).sort()).toEqual(["mid", "old"]);
    expect(left()).toEqual(["busy", "new"]);
  });

  it("removes finished runs older than 7 days, and half-made folders only once they are that old", async () => {
    fakeRun("week-old", "succeeded", 7 * DAY + 1);
    fakeRun("six-days", "succeeded", 6 * DAY);
    fakeRun("running-for-weeks", "running", 30 * DAY);
    mkdirSync(join(box.runsRoot, "being-made"));
    mkdirSync(join(box.runsRoot, "abandoned"));
    const longAgo = (NOW - 8 * DAY) / 1000;
    utimesSync(join(box.runsRoot, "abandoned"), longAgo, longAgo);
    expect((await pruneRuns(nodeFs, box.runsRoot, { now: NOW })).sort()).toEqual(["abandoned", "week-old"]);
    expect(left()).toEqual(["being-made", "running-for-weeks", "six-days"]);
  });

  it("treats a 'running' run whose supervisor and group are gone as failed (stale), so it can go", async () => {
    fakeRun("lost", "running", 9 * DAY, { supervisor_pid: deadPid() });
    const run = (await readRun(nodeFs, box.runsRoot, "lost"))!;
    expect(run).toMatchObject({ status: "failed", stale: true, error: "the run's supervisor ended without recording an exit" });
    expect((await pruneRuns(nodeFs, box.runsRoot, { now: NOW, keep: 0 }))).toEqual(["lost"]);
  });

  it("a record without a status whose starting process is gone is failed (it never started) once the grace is over, so it can go", async () => {
    const spec = (id: string, starter: Record<string, unknown> | undefined, agoMs: number) => {
      mkdirSync(join(box.runsRoot, id));
      const record = { run_id: id, tool: "t", path: "/r/t.json", template: "true", values: {}, authored: [], cwd: "/", home: "/", tmp_root: "/tmp", kill_grace_ms: 100, created_at: iso(Date.now() - agoMs), ...(starter === undefined ? {} : { starter }) };
      writeFileSync(join(box.runsRoot, id, "run.json"), JSON.stringify(record));
    };
    spec("orphan", { pid: deadPid() }, STARTING_GRACE_MS + 1000);
    spec("starting", { pid: deadPid() }, 0);
    spec("starter-alive", { pid: process.pid }, 60 * DAY);
    spec("old-record", undefined, 60 * DAY);
    expect(await readRun(nodeFs, box.runsRoot, "orphan")).toMatchObject({
      status: "failed",
      stale: true,
      error: "the run never started: the process that started it ended before the run's supervisor recorded a start",
    });
    for (const id of ["starting", "starter-alive", "old-record"]) expect((await readRun(nodeFs, box.runsRoot, id))?.status, id).toBe("running");
    // a control finds nothing to stop, as for any run that ended
    const kill = await messageRun(nodeFs, box.runsRoot, "orphan", "control.kill");
    expect(kill.details).toMatchObject({ sent: false, reason: "run_failed" });
    expect(await pruneRuns(nodeFs, box.runsRoot, { now: Date.now(), keep: 0 })).toEqual(["orphan"]);
  });

  it("a run whose supervisor recorded its end and exited while it was being read is not taken for stale", async () => {
    // the status read first still says running, with a supervisor that is gone by the time the
    // reader looks at it: in between, the supervisor wrote its final status and exited
    fakeRun("just-done", "succeeded", 0);
    const final = join(box.runsRoot, "just-done", "status.json");
    const running = JSON.stringify({ run_id: "just-done", tool: "t", status: "running", pid: deadPid(), pgid: null, exit_code: null, started_at: iso(NOW), ended_at: null, supervisor_pid: deadPid() });
    let reads = 0;
    const racing = new Proxy(nodeFs, {
      get(target, key, receiver) {
        if (key !== "readFile") return Reflect.get(target, key, receiver) as unknown;
        return async (path: string) => (path === final && reads++ === 0 ? new TextEncoder().encode(running) : target.readFile(path));
      },
    });
    const run = (await readRun(racing, box.runsRoot, "just-done"))!;
    expect(reads).toBe(2);
    expect(run).toMatchObject({ status: "succeeded", exit_code: 0 });
    expect(run).not.toHaveProperty("stale");
  });

  it("happens at every start", async () => {
    fakeRun("ancient", "succeeded", 400 * DAY);
    box.recipe("quick", { description: "Quick", async: true, template: "echo quick" });
    const id = runIdOf(await box.call("quick"));
    expect(existsSync(join(box.runsRoot, "ancient"))).toBe(false);
    expect((await finished(box.runsRoot, id)).status).toBe("succeeded");
  });
});

describe("reading runs", () => {
  it("lists runs newest first and gives triage the running and failed ones", async () => {
    fakeRun("a", "succeeded", 5000);
    fakeRun("b", "failed", 3000);
    fakeRun("c", "running", 0);
    expect((await listRuns(nodeFs, box.runsRoot)).map((e) => e.run_id)).toEqual(["c", "b", "a"]);
    const facts = (await runFacts(nodeFs, box.runsRoot));
    expect(facts.active_runs).toEqual([{ run: "c", recipe: "t", status: "running" }]);
    expect(facts.recent_failed_runs).toEqual([{ run: "b", recipe: "t", status: "failed" }]);
  });

  it("tails the last lines of a log, reading only its end", async () => {
    const log = join(box.dir, "big.log");
    writeFileSync(log, Array.from({ length: 50_000 }, (_, i) => `line ${i}`).join("\n") + "\n");
    expect((await tailLines(nodeFs, log, 3))).toEqual(["line 49997", "line 49998", "line 49999"]);
    expect((await tailLines(nodeFs, join(box.dir, "missing.log"), 3))).toEqual([]);
    expect(tailLinesParam(undefined)).toBe(40);
    expect(tailLinesParam("80")).toBe(80);
    expect(tailLinesParam(5000)).toBe(1000);
    expect(tailLinesParam(0)).toEqual({ error: "lines must be a positive integer (at most 1000)" });
    expect(tailLinesParam("x")).toEqual({ error: "lines must be a positive integer (at most 1000)" });
  });

  it("answers unknown runs, unsafe ids and unknown views with errors", async () => {
    fakeRun("done", "succeeded", 1000);
    expect((await inspectRun(nodeFs, box.runsRoot, "nope", undefined, undefined)).text).toBe(`Unknown run: nope (no run under ${box.runsRoot})`);
    expect((await inspectRun(nodeFs, box.runsRoot, "../x", "status", undefined)).text).toMatch(/^Invalid run_id "\.\.\/x"/);
    expect((await inspectRun(nodeFs, box.runsRoot, "done", "messages", undefined)).text).toBe("Unknown run view: messages. Use view=status or view=tail [lines=N].");
    expect((await inspectRun(nodeFs, box.runsRoot, "done", "tail", "many")).ok).toBe(false);
    expect((await (await messageRun(nodeFs, box.runsRoot, "nope", "control.kill"))).text).toBe(`Unknown run: nope (no run under ${box.runsRoot})`);
    const finishedKill = await (await messageRun(nodeFs, box.runsRoot, "done", "control.kill"));
    expect(finishedKill.ok).toBe(true);
    expect(finishedKill.details).toMatchObject({ sent: false, reason: "run_succeeded" });
  });
});
