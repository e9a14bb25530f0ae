import { readFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { recorder, run, sandbox, type Sandbox } from "./support.js";

let box: Sandbox;
beforeEach(() => {
  box = sandbox();
});
afterEach(() => box.cleanup());

describe("sequences", () => {
  it("steps in order, stdout flows to the next stdin, the root gets no stdin, timeout applies", async () => {
    box.script("first", recorder("first", "first out"));
    box.script("second", recorder("second", "second out"));
    const { result } = await run(box, ["./first {file}", { template: "./second {lang=ru}", timeout: 5000 }], { file: "/tmp/a.ogg" });
    expect(result.ok).toBe(true);
    expect(result.text).toBe("second out");
    expect(box.log()).toEqual(["first /tmp/a.ogg | ", "second ru | first out"]);
    expect(result.details["command"]).toBe(`${box.dir}/first /tmp/a.ogg && ${box.dir}/second ru`);
  });

  it("a step a signal from elsewhere ends is named with the signal: it has no exit code of its own", async () => {
    const { result } = await run(box, ["printf a", { template: 'sh -c "kill -9 $$"', label: "doomed", failure: "branch" }]);
    expect(result.ok).toBe(false);
    expect(result.text).toMatch(/^Killed by signal SIGKILL \(no exit code of its own\)\n\nstderr:\ndoomed: killed by signal SIGKILL \(no exit code of its own\)\n\nstep: doomed$/);
    expect(result.details["signal"]).toBe("SIGKILL");
    // its own timeout is no signal from elsewhere: the killed run says so as before
    const own = await run(box, [{ template: "sleep 5", timeout: 100 }]);
    expect(own.result.text).toMatch(/^Exit code \d+ \(killed\)/);
    expect(own.result.details).not.toHaveProperty("signal");
  });

  it("a step over its timeout is killed and named", async () => {
    const { result } = await run(box, ["printf a", { template: "sleep 5", timeout: 123, label: "slow", failure: "branch" }]);
    expect(result.ok).toBe(false);
    expect(result.text).toMatch(/^Exit code \d+ \(killed\)\n\nstderr:\nslow: timed out after 123 ms\n\nstep: slow$/);
    expect(result.details["killed"]).toBe(true);
  });

  it("a failed first step is recorded, the second still runs", async () => {
    box.script("scan", recorder("scan", "", 1));
    box.script("transcribe", recorder("transcribe", "text"));
    const { result } = await run(box, ["./scan {file}", "./transcribe {file}"], { file: "/tmp/a.ogg" });
    expect(result.ok).toBe(true);
    expect(result.text).toBe(`text\n\nStep failed, the sequence went on: ${box.dir}/scan /tmp/a.ogg (exit 1)`);
    expect(result.details["nonCriticalFailures"]).toEqual([{ code: 1, command: `${box.dir}/scan /tmp/a.ogg`, killed: false }]);
  });

  it("a failing last step of the root fails the call, unless it says failure: continue; a failing first step gives the next empty stdin", async () => {
    box.script("a", recorder("a", "a out"));
    box.script("b", recorder("b", "b out", 2));
    // the last step gives the call its answer: failing, there is none
    const last = await run(box, ["./a", "./b"]);
    expect(last.result.ok).toBe(false);
    expect(last.result.text).toBe("Exit code 2\n\nstdout:\nb out\n\nstep: ./b");
    // asked for, it is swallowed as any other step
    const asked = await run(box, ["./a", { template: "./b", failure: "continue" }]);
    expect(asked.result.ok).toBe(true);
    expect(asked.result.text).toBe(`(no output)\n\nStep failed, the sequence went on: ${box.dir}/b (exit 2)`);
    expect(asked.result.details["nonCriticalFailures"]).toEqual([{ code: 2, command: `${box.dir}/b`, killed: false }]);
    // a sequence inside the root is no answer of its own: its failing last step is swallowed
    const inner = await run(box, [["./a", "./b"], "./a"]);
    expect(inner.result.ok).toBe(true);
    // but the answer's place passes down: whatever shape the last step has, its failure fails the call
    for (const template of [
      ["./a", ["./a", "./b"]],
      ["./a", { template: ["./a", "./b"] }],
      [["./a", "./b"]],
      ["./a", { template: "./b", repeat: 2 }],
      ["./a", { template: ["./b"], retry: 2 }],
      ["./a", { parallel: true, template: ["./b", "./b"] }],
      ["./a", { parallel: true, template: ["./a", "./b"], min_successful: 2 }],
    ] as const) {
      const r = await run(box, template as never);
      expect({ template, ok: r.result.ok }).toEqual({ template, ok: false });
    }
    // unless that step (or the node around it) says failure: continue
    expect((await run(box, ["./a", { template: ["./a", "./b"], failure: "continue" }])).result.ok).toBe(true);
    // or the node there answers with another step (`output`): its failing cleanup is no failure of the answer
    const picked = await run(box, ["./a", { output: "x", template: [{ label: "x", template: "./a" }, "./b"] }]);
    expect(picked.result.ok).toBe(true);
    expect(picked.result.text.startsWith("a out")).toBe(true);

    box.script("a", recorder("a", "a out", 2));
    box.script("b", recorder("b", "b out"));
    const first = await run(box, ["./a", "./b"]);
    expect(first.result.text).toBe(`b out\n\nStep failed, the sequence went on: ${box.dir}/a (exit 2)`);
    expect(box.log().at(-1)).toBe("b  | ");
  });

  it("a one-step root and a plain leaf fail the tool", async () => {
    expect((await run(box, ["sh -c 'exit 4'"])).result.text).toBe("Exit code 4");
    expect((await run(box, "sh -c 'echo bad >&2; exit 5'")).result.text).toBe("Exit code 5\n\nstderr:\nbad");
  });

  it("failure: branch stops the enclosing sequences and fails the tool; root stops everything", async () => {
    box.script("ok", recorder("ok", "fine"));
    const branch = await run(box, [{ failure: "branch", template: ["sh -c 'exit 3'", "./ok"] }, "./ok"]);
    // a branch failure ends every enclosing sequence up to the nearest parallel branch (here: the tool)
    expect(branch.result.ok).toBe(false);
    expect(branch.result.text).toBe("Exit code 3\n\nstep: sh -c 'exit 3'");
    expect(box.log()).toEqual([]);
    const root = await run(box, [{ failure: "root", template: "sh -c 'exit 3'", label: "gate" }, "./ok"]);
    expect(root.result.ok).toBe(false);
    expect(root.result.text).toBe("Exit code 3\n\nstep: gate");
    expect(root.result.details["step"]).toBe("gate");
  });

  it("repeat gives each copy its index, prev, next, repeat and padded forms, in sequence", async () => {
    box.script("r", recorder("r", "x"));
    const { result } = await run(box, { repeat: 3, template: "./r {index} {prev} {next} {repeat} {_index} {index+1}" });
    expect(result.ok).toBe(true);
    expect(box.log()).toEqual(["r 0 2 1 3 00 1 | ", "r 1 0 2 3 01 2 | x", "r 2 1 0 3 02 3 | x"]);
  });

  it("a 10 MB stdout flows complete to the next step and is reported truncated with the full output saved", async () => {
    const big = "sh -c 'head -c 10000000 /dev/zero | tr \"\\\\0\" x'";
    const piped = await run(box, [big, "wc -c"]);
    expect(piped.result.text.trim()).toBe("10000000");
    const alone = await run(box, big);
    expect(alone.result.ok).toBe(true);
    // one line, of which only the end is shown: the notice says so after the counts
    expect(alone.result.text).toMatch(/\[Output truncated: 1 of 1 lines \(50\.0KB of 9\.5MB\); the first line shown is only the last 50\.0KB of a 9\.5MB line\. Full output saved to: .*my_tool-stdout\.txt\]$/);
    expect(alone.result.details["stdoutTruncated"]).toBe(true);
    expect(alone.result.details["stdoutBytes"]).toBe(10_000_000);
    expect(readFileSync(alone.result.details["fullOutputPath"] as string).length).toBe(10_000_000);
  });
});
