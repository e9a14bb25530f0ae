import { existsSync, readFileSync, rmSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Json } from "../../../core/model.js";
import { eventually, groupGone } from "../../adapters/process/groups.js";
import { isAlive as liveProcess } from "../../../adapters/process/group.js";
import { run, sandbox, type Sandbox } from "./support.js";
import { makeProcessRunner, type ProcessResult } from "../../../adapters/process/ProcessRunner.js";

const exited = (code: number): ProcessResult => ({
  code, killed: false, timedOut: false, stdout: new Uint8Array(), stderr: new Uint8Array(), stdoutBytes: 0, stderrBytes: 0, stdoutTruncated: false, stderrTruncated: false, durationMs: 0,
});

let box: Sandbox;
beforeEach(() => {
  box = sandbox();
});
afterEach(() => box.cleanup());

// fails until it has run `n` times, counting runs in a file next to it
const flaky = (n: number): string =>
  `c=$(cat "$(dirname "$0")/count" 2>/dev/null || echo 0); c=$((c+1)); echo $c > "$(dirname "$0")/count"; echo "attempt $c"; [ $c -ge ${n} ]`;
const runs = (): number => Number(readFileSync(`${box.dir}/count`, "utf8").trim());

describe("timeout and retry take placeholders", () => {
  it("timeout: {timeout_ms} kills the step after that many ms", async () => {
    const { result } = await run(box, { args: ["timeout_ms:int"], timeout: "{timeout_ms}", template: "sleep {secs}" }, { timeout_ms: "123", secs: "500" });
    expect(result.ok).toBe(false);
    expect(result.text).toContain("(killed)");
    expect(result.text).toContain("timed out after 123 ms");
  });

  it("timeout 0 or absent is no timeout", async () => {
    const { result } = await run(box, { timeout: 0, template: "sh -c 'sleep 0.3; printf done'" });
    expect(result.text).toBe("done");
  });

  it("timeout on a sequence or a parallel node bounds all of it: its processes are ended and it fails, in its own failure scope", async () => {
    // a step that records its process group, then sleeps far longer than the timeout
    box.script("nap", `echo $$ > "$(dirname "$0")/nap.pid"; exec sleep 30`);
    const napGone = async (): Promise<boolean> => eventually(() => groupGone(Number(readFileSync(`${box.dir}/nap.pid`, "utf8"))));
    const seq = await run(box, { timeout: 300, template: ["./nap", "printf after"] });
    expect(seq.result.ok).toBe(false);
    expect(seq.result.text).toContain("timed out after 300 ms");
    expect(seq.result.text).not.toContain("after\n");
    // the sequence did not go on: no step is named as if it had
    expect(seq.result.text).not.toContain("the sequence went on");
    expect(await napGone()).toBe(true);
    const par = await run(box, { timeout: 300, parallel: true, template: ["./nap", "printf b"] });
    expect(par.result.ok).toBe(false);
    expect(par.result.text).toContain("timed out after 300 ms");
    expect(await napGone()).toBe(true);
    // inside a sequence that goes on (`failure: continue`), the next step runs and the result names the timeout
    const inner = await run(box, [{ label: "slow", timeout: 300, template: ["./nap"] }, "printf after"]);
    expect(inner.result.ok).toBe(true);
    expect(inner.result.text.startsWith("after\n\nStep failed, the sequence went on: ")).toBe(true);
  });

  it("retry on a leaf re-runs the process until it succeeds", async () => {
    box.script("flaky", flaky(3));
    const { result } = await run(box, [{ template: "./flaky {file}", retry: "{tries}" }], { file: "f", tries: "3" });
    expect(result.ok).toBe(true);
    expect(result.text).toBe("attempt 3");
    expect(runs()).toBe(3);
  });
});

describe("control validation messages", () => {
  const cases: readonly [Json, string][] = [
    [{ retry: 0, template: "true" }, "Command template retry must be a positive integer."],
    [{ timeout: "-1", template: "true" }, "Command template timeout must be a non-negative number."],
    [{ timeout: "abc", template: "true" }, "Command template timeout must be a non-negative number."],
    [{ failure: "explode", template: "true" }, "Command template failure must be one of: continue, branch, root."],
    [{ concurrency: 0, parallel: true, template: ["true", "true"] }, "Command template concurrency must be a positive integer."],
    [{ min_successful: 3, parallel: true, template: ["true", "true"] }, "Command template min_successful 3 exceeds branch count 2."],
    [{ repeat: "abc", template: "true" }, "Command template repeat must be a positive integer or {array.length}."],
    [{ repeat: "{items.length}", template: "true" }, "Command template repeat could not be resolved."],
    [{ retry: -1, template: "true" }, "Command template retry must be a non-negative number."],
    [{ retry: "abc", template: "true" }, "Command template retry must be a non-negative number."],
    [{ retry: 1.5, template: "true" }, "Command template retry must be a positive integer."],
    [{ delay: -5, template: "true" }, "Command template delay must be a non-negative number."],
    [{ min_successful: -1, parallel: true, template: ["true"] }, "Command template min_successful must be a non-negative number."],
    [[], "Tool template produced no command steps."],
    ["   ", "Tool template produced an empty command."],
  ];
  it.each(cases)("%j", async (template, message) => {
    const { result } = await run(box, template);
    expect(result.ok).toBe(false);
    expect(result.text).toBe(message);
  });

  it("a repeat over a long array is refused before any copy is made or any command runs", async () => {
    const marker = `${box.dir}/ran`;
    const template = { repeat: "{items.length}", template: `touch ${marker}` };
    const { result } = await run(box, template, { items: Array.from({ length: 10_001 }, (_u, i) => i) });
    expect(result.ok).toBe(false);
    expect(result.text).toBe("Command template expands to more than 10000 commands.");
    expect(existsSync(marker)).toBe(false);
    // the limit itself is allowed (each copy's child is skipped, so no process is started)
    const atLimit = await run(box, { repeat: "{items.length}", template: { when: false, template: `touch ${marker}` } }, { items: Array.from({ length: 10_000 }, (_u, i) => i) });
    expect(atLimit.result.ok).toBe(true);
    expect(existsSync(marker)).toBe(false);
  });

  it("repeats of {name.length} nested in one another are counted with the call's values: past the limit together, nothing runs", async () => {
    const marker = `${box.dir}/ran`;
    const template = { repeat: "{items.length}", template: { repeat: "{items.length}", template: `touch ${marker}` } };
    const { result } = await run(box, template, { items: Array.from({ length: 101 }, (_u, i) => i) });
    expect(result.ok).toBe(false);
    expect(result.text).toBe("Command template expands to more than 10000 commands.");
    expect(existsSync(marker)).toBe(false);
    const small = await run(box, template, { items: [1, 2] });
    expect(small.result.ok).toBe(true);
    expect(existsSync(marker)).toBe(true);
  });

  it("a run stops before its 10,001st command, however it got there (a group retry runs its steps again)", async () => {
    const started: string[] = [];
    const runner = makeProcessRunner("counting", (inv) => {
      started.push(inv.command);
      return Promise.resolve(exited(1));
    });
    // 4,000 failing steps, tried 3 times: 12,000 commands
    const template = { retry: 3, template: Array.from({ length: 4_000 }, () => "false") };
    const { result } = await run(box, template, {}, { runner });
    expect(result.ok).toBe(false);
    expect(result.text).toContain("Command template run stopped: it had started 10000 commands, the most one run may start");
    expect(started.length).toBe(10_000);
  });

  it("each attempt of a retried step counts: three steps retried 4,000 times stop at 10,000 processes", async () => {
    let started = 0;
    const runner = makeProcessRunner("counting", () => {
      started++;
      return Promise.resolve(exited(1));
    });
    const { result } = await run(box, { repeat: 3, template: { retry: 4_000, template: "false" } }, {}, { runner });
    expect(result.ok).toBe(false);
    expect(result.text).toContain("Command template run stopped: it had started 10000 commands");
    expect(started).toBe(10_000);
    // within the limit, every attempt runs
    started = 0;
    const within = await run(box, { repeat: 2, template: { retry: 5_000, template: "false" } }, {}, { runner });
    expect(within.result.text).not.toContain("run stopped");
    expect(started).toBe(10_000);
  });

  it("parallel branches retrying at the same time share the limit: two branches of 10,000 attempts start 10,000 processes", async () => {
    let started = 0;
    // each attempt answers on a later turn, so the branches' attempts interleave
    const runner = makeProcessRunner("counting", () => {
      started++;
      return new Promise((resolve) => setImmediate(() => resolve(exited(1))));
    });
    const branch = { retry: 10_000, template: "false" };
    const { result } = await run(box, { parallel: true, template: [branch, branch] }, {}, { runner });
    expect(result.ok).toBe(false);
    expect(result.text).toContain("Command template run stopped: it had started 10000 commands");
    expect(started).toBe(10_000);
  });

  it("a branch that stops the run ends its siblings: the running one is ended, none starts after, and the call answers last", async () => {
    const log: string[] = [];
    const runner = makeProcessRunner("fake", (inv) => {
      log.push(`start ${inv.command}`);
      if (inv.command !== "hang") return Promise.resolve(exited(1));
      // runs until the run's signal ends it
      return new Promise((resolve) => {
        inv.signal?.addEventListener("abort", () => {
          log.push("hang ended");
          setImmediate(() => resolve({ ...exited(143), killed: true }));
        });
      });
    });
    const template = { parallel: true, concurrency: 2, template: ["hang", { retry: 10_000, template: "false" }, "later"] };
    const { result } = await run(box, template, {}, { runner });
    log.push("answered");
    expect(result.ok).toBe(false);
    expect(result.text).toContain("Command template run stopped");
    await new Promise((r) => setTimeout(r, 20));
    expect(log.filter((l) => !l.startsWith("start false"))).toEqual(["start hang", "hang ended", "answered"]);
  });

  it("a retry above 10,000 attempts is refused, written or given by the call", async () => {
    for (const [template, values] of [[{ retry: 10_001, template: "true" }, {}], [{ retry: "{n}", template: "true" }, { n: "1e308" }]] as const) {
      const { result } = await run(box, template, values);
      expect(result.ok).toBe(false);
      expect(result.text).toBe("Command template retry must be at most 10000.");
    }
  });

  it("a missing control value names the field", async () => {
    const { result } = await run(box, { timeout: "{t}", template: "true" });
    expect(result.text).toBe("Missing timeout value: t");
  });
});

describe("delay, when, group retry, output", () => {
  it("delay runs before when, so a skipped node still waits; an abort ends the wait", async () => {
    const skipped = await run(box, ["printf in", { delay: 1, when: "go", template: "printf never" }]);
    expect(skipped.result.text).toBe("in"); // a skipped step passes its stdin on
    // A skipped step with an hour's delay, under a fake setTimeout: the run must stop at the
    // delay (one timer pending, the run not settled) and finish once that hour has passed.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      let settled = false;
      const pending = run(box, ["printf in", { delay: 3_600_000, when: "go", template: "printf never" }]).finally(() => (settled = true));
      while (!settled && vi.getTimerCount() === 0) await new Promise((r) => setImmediate(r));
      expect(settled).toBe(false);
      expect(vi.getTimerCount()).toBe(1);
      vi.advanceTimersByTime(3_600_000);
      expect((await pending).result.text).toBe("in");
    } finally {
      vi.useRealTimers();
    }
    // an abort also ends the wait of a step that would run, which then never starts
    const early = new AbortController();
    early.abort();
    const aborted = await run(box, { delay: 3_600_000, template: `touch ${box.dir}/ran` }, {}, { signal: early.signal });
    expect(aborted.result.ok).toBe(false);
    expect(existsSync(`${box.dir}/ran`)).toBe(false);
  });

  it("when: {x} / name / !name / booleans", async () => {
    const t = (when: Json, values = {}) => run(box, { when, template: "printf yes" }, values);
    // a template its `when` skipped says that nothing ran, never "(no output)" as if it had
    const nothing = "Nothing ran: the template's `when` condition is false (details.skipped).";
    expect((await t("{x}", { x: "1" })).result.text).toBe("yes");
    expect((await t("{x}", {})).result).toMatchObject({ ok: true, text: nothing, details: { skipped: true } });
    expect((await t("!x", { x: "no" })).result.text).toBe("yes");
    expect((await t(false)).result.text).toBe(nothing);
    // "true" and "false" written as text are the booleans, not arguments of those names
    expect((await t("true")).result.text).toBe("yes");
    expect((await t(" false ")).result.text).toBe(nothing);
    expect((await t("!true", {})).result.text).toBe("yes");
    // a step skipped inside a sequence passes its stdin on; the sequence did run
    expect((await run(box, ["printf in", { when: false, template: "printf never" }])).result).toMatchObject({ ok: true, text: "in" });
  });

  it("group retry re-runs the whole node and runs recover between attempts with the failed stdout", async () => {
    box.script("flaky", flaky(2));
    box.script("heal", `cat > "$(dirname "$0")/healed"; printf 'healed output is discarded'`);
    const { result } = await run(box, [{ retry: 3, recover: "./heal", failure: "branch", template: ["printf start", "./flaky"] }]);
    expect(result.ok).toBe(true);
    expect(result.text).toBe("attempt 2");
    expect(runs()).toBe(2);
    expect(readFileSync(`${box.dir}/healed`, "utf8")).toBe("attempt 1\n");
  });

  it("a failing recover ends the loop and fails the node", async () => {
    box.script("flaky", flaky(9));
    const { result } = await run(box, [{ retry: 5, recover: "sh -c 'exit 9'", template: "./flaky" }]);
    expect(result.ok).toBe(false);
    expect(result.text.startsWith("Exit code 9")).toBe(true);
    expect(runs()).toBe(1);
  });

  it("a group whose step failed while the sequence went on is retried; the last attempt's failure is named", async () => {
    box.script("flaky", flaky(9));
    const { result } = await run(box, [{ retry: 3, template: ["./flaky", "printf after"] }]);
    // the step that failed is named after the output, since no retry recovered it
    expect(result.text).toBe(`after\n\nStep failed, the sequence went on: ${box.dir}/flaky (exit 1)`);
    expect(runs()).toBe(3);
  });

  it("a failure a retry recovered is not named", async () => {
    box.script("flaky", flaky(2));
    const { result } = await run(box, [{ retry: 3, template: ["./flaky", "printf after"] }]);
    expect(result).toMatchObject({ ok: true, text: "after" });
    expect(runs()).toBe(2);
  });

  it("retry around a root sequence of one step: the call fails when every attempt fails, as it does without retry", async () => {
    box.script("flaky", flaky(9));
    const retried = await run(box, { retry: 3, template: ["./flaky"] });
    expect(retried.result.ok).toBe(false);
    expect(runs()).toBe(3);
    box.script("flaky", flaky(2));
    rmSync(`${box.dir}/count`);
    expect((await run(box, { retry: 3, template: ["./flaky"] })).result).toMatchObject({ ok: true, text: "attempt 2" });
  });

  it("output: <label> makes the labelled step's stdout the node's result", async () => {
    const { result } = await run(box, { output: "build", template: [{ label: "build", template: "printf artifact" }, "printf noise"] });
    expect(result.text).toBe("artifact");
    // an output that names no step label (here an output file name) is ignored: stdout is the result
    const unknown = await run(box, { output: "out.ogg", template: ["printf a", "printf b"] });
    expect(unknown.result).toMatchObject({ ok: true, text: "b" });
  });

  it("output: <label> at the root naming a step that failed fails the call with that step, never '(no output)' as success", async () => {
    const failing = { label: "main", template: "sh -c 'printf partial; echo broke >&2; exit 5'" };
    const { result } = await run(box, { output: "main", template: ["printf pre", failing] });
    expect(result.ok).toBe(false);
    expect(result.text).toContain("Exit code 5");
    expect(result.text).toContain("partial");
    expect(result.text).not.toContain("the sequence went on");
    // a step after the chosen one that goes on does not change that
    const before = await run(box, { output: "main", template: [failing, "printf after"] });
    expect(before.result.ok).toBe(false);
    expect(before.result.text).toContain("Exit code 5");
    // the failed step is the call's failure, no longer one the sequence went on past
    expect(result.details["nonCriticalFailures"] ?? []).toEqual([]);
    // a chosen step that says `failure: continue` itself may fail: the call succeeds, naming it
    const allowed = await run(box, { output: "main", template: ["printf pre", { ...failing, failure: "continue" }, "printf post"] });
    expect(allowed.result.ok).toBe(true);
    expect(allowed.result.text).toContain("Step failed, the sequence went on");
    // not at the root, the node passes on nothing and the sequence goes on, naming the step
    const nested = await run(box, [{ output: "main", template: ["printf pre", failing] }, "printf next"]);
    expect(nested.result.ok).toBe(true);
    expect(nested.result.text).toContain("next");
    expect(nested.result.text).toContain("Step failed, the sequence went on");
  });

  it("accept_output review_evidence rejects output without the marker", async () => {
    for (const out of ["ACTOR_REVIEW_RESULT_BOGUS\\nreport", "prefix ACTOR_REVIEW_RESULT\\nreport", "report\\nACTOR_REVIEW_RESULT"]) {
      const { result } = await run(box, { accept_output: "review_evidence", template: `printf '${out}'` });
      expect(result.ok).toBe(false);
      expect(result.text).toContain("review evidence rejected: missing ACTOR_REVIEW_RESULT marker");
      expect(result.details["code"]).toBe(65);
    }
    const ok = await run(box, { accept_output: "review_evidence", template: "printf '\\n  \\n ACTOR_REVIEW_RESULT \\nreport'" });
    expect(ok.result.ok).toBe(true);
    const nope = await run(box, { accept_output: "review_evidence", template: "printf nope" });
    expect(nope.result.text).toBe("Exit code 65\n\nstderr:\nreview evidence rejected: missing ACTOR_REVIEW_RESULT marker\n\nstdout:\nnope");
  });
});

describe("no zombie or orphan", () => {
  it("a timed-out step's whole process group is gone, background children included", async () => {
    box.script("spawner", `sleep 30 & echo $! > "$(dirname "$0")/child"; echo $$ > "$(dirname "$0")/leader"; sleep 30`);
    // long enough for the script to write both files on a loaded machine (200 ms was not, at a
    // load average of 7): the group is killed only after they are there
    const { result } = await run(box, { timeout: 2000, template: "./spawner" });
    expect(result.ok).toBe(false);
    const leader = Number(readFileSync(`${box.dir}/leader`, "utf8"));
    const child = Number(readFileSync(`${box.dir}/child`, "utf8"));
    expect(await eventually(() => groupGone(leader))).toBe(true);
    // the background child was in the group: it is not a live process anywhere any more
    expect(await eventually(() => !liveProcess(child))).toBe(true);
  });
});
