import { readFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { recorder, run, sandbox, type Sandbox } from "./support.js";

let box: Sandbox;
beforeEach(() => {
  box = sandbox();
});
afterEach(() => box.cleanup());

describe("parallel nodes", () => {
  it("every branch gets the same stdin; the join flows to the next step", async () => {
    box.script("prepare", recorder("prepare", "prepared"));
    box.script("review-gpt", recorder("gpt", "gpt"));
    box.script("review-kimi", recorder("kimi", "kimi"));
    box.script("merge", `cat > "$(dirname "$0")/merge.in"; printf merged`);
    const { result } = await run(
      box,
      [
        "./prepare {file}",
        {
          parallel: true,
          template: [
            { label: "gpt", timeout: 120000, template: "./review-gpt {file}" },
            { label: "kimi", timeout: 120000, template: "./review-kimi {file}" },
          ],
        },
        "./merge {file}",
      ],
      { file: "f" },
    );
    expect(result.text).toBe("merged");
    const log = box.log();
    expect(log).toContain("gpt f | prepared");
    expect(log).toContain("kimi f | prepared");
    expect(readFileSync(`${box.dir}/merge.in`, "utf8")).toBe("--- branch: gpt status: done ---\ngpt\n--- branch: kimi status: done ---\nkimi");
    expect(result.details["softQuorum"]).toEqual({ coverage: 1, degraded: false, done: 2, expected: 2, failed: 0, usable: true });
  });

  it("all branches unusable under failure: branch", async () => {
    const { result } = await run(box, [
      { failure: "branch", parallel: true, template: [{ label: "empty", template: "true" }, { label: "bad", template: "sh -c 'printf boom >&2; exit 1'" }] },
    ]);
    expect(result.ok).toBe(false);
    expect(result.text).toContain("all parallel branches failed or produced empty output");
    expect(result.details["failureReason"]).toBe("all_branches_unusable");
    expect(result.details["softQuorum"]).toEqual({ coverage: 0.5, degraded: true, done: 1, expected: 2, failed: 1, usable: false });
    const branches = result.details["branches"] as { label: string; failureReason?: string }[];
    expect(branches.map((b) => [b.label, b.failureReason])).toEqual([["empty", "empty_output"], ["bad", "nonzero_exit"]]);
  });

  it("failure: branch on a branch stops only that branch", async () => {
    for (const [name, code] of [["work-a", 0], ["validate-a", 1], ["commit-a", 0], ["work-b", 0]] as const) {
      box.script(name, recorder(name, `${name} out`, code));
    }
    box.script("merge", `cat > "$(dirname "$0")/merge.in"; printf merged`);
    const { result } = await run(box, [
      {
        parallel: true,
        template: [
          { failure: "branch", label: "agent-a", template: ["./work-a", "./validate-a", "./commit-a"] },
          { label: "agent-b", template: "./work-b" },
        ],
      },
      "./merge",
    ]);
    expect(result.ok).toBe(true);
    const log = box.log();
    expect(log.some((l) => l.startsWith("commit-a"))).toBe(false);
    const merged = readFileSync(`${box.dir}/merge.in`, "utf8");
    expect(merged).toContain("branch: agent-a status: failed");
    expect(merged).toContain("--- branch: agent-b status: done ---\nwork-b out");
    expect(result.details["softQuorum"]).toMatchObject({ coverage: 0.5, usable: true });
  });

  it("a quorum header; with failure: branch an unmet quorum fails", async () => {
    const template = ["printf 'g out'", "true", "sh -c 'printf x >&2; exit 1'"];
    const join =
      "--- parallel_status: insufficient_data usable: 1 expected: 3 minimum: 2 ---\n" +
      "--- branch: branch 1 status: done ---\ng out\n--- branch: branch 2 status: done ---\n\n" +
      "--- branch: branch 3 status: failed ---\nexit: 1\nstderr: x";
    const failed = `Exit code 1\n\nstderr:\nx\nparallel branch quorum not met: usable 1/3, minimum 2\n\nstdout:\n${join}`;
    const hard = await run(box, { parallel: true, min_successful: 2, failure: "branch", template });
    expect(hard.result.ok).toBe(false);
    expect(hard.result.text).toBe(failed);
    expect(hard.result.details["failureReason"]).toBe("parallel_quorum_not_met");
    // the root has nothing to go on to: a missed quorum fails the call with the default failure too
    const root = await run(box, { parallel: true, min_successful: 2, template });
    expect(root.result).toMatchObject({ ok: false, text: failed });
    // inside a sequence that goes on, the result names the miss as it names a failed step
    const inner = await run(box, [{ parallel: true, min_successful: 2, template }, "printf after"]);
    expect(inner.result).toMatchObject({ ok: true, text: "after\n\nStep failed, the sequence went on: parallel node (exit 1): parallel branch quorum not met: usable 1/3, minimum 2" });
  });

  it("without min_successful, a root parallel node whose every branch failed fails the call; one branch done is enough", async () => {
    const all = await run(box, { parallel: true, template: ["false", "sh -c 'exit 2'"] });
    expect(all.result.ok).toBe(false);
    expect(all.result.text).toContain("all parallel branches failed or produced empty output");
    // branches that print nothing but succeed are not failures
    expect((await run(box, { parallel: true, template: ["true", "sh -c 'exit 2'"] })).result.ok).toBe(true);
    const inner = await run(box, [{ parallel: true, label: "fetch", template: ["false", "sh -c 'exit 2'"] }, "printf after"]);
    expect(inner.result).toMatchObject({ ok: true, text: "after\n\nStep failed, the sequence went on: parallel node fetch (exit 1): every branch failed (2)" });
  });

  it("failure: root on the parallel node makes any failing branch fail the run", async () => {
    const { result } = await run(box, [{ parallel: true, failure: "root", template: ["printf a", { label: "bad", template: "sh -c 'exit 6'" }] }, "printf after"]);
    expect(result.ok).toBe(false);
    expect(result.text).toBe("Exit code 6\n\nstep: bad");
  });

  it("a skipped branch is done with EMPTY output", async () => {
    const { result } = await run(
      box,
      ["printf prep", { parallel: true, template: [{ label: "skipped", when: "x", template: "printf a" }, "printf b"] }],
      { x: false },
    );
    expect(result.text).toBe("--- branch: skipped status: done ---\n\n--- branch: branch 2 status: done ---\nb");
  });

  it("concurrency bounds how many branches run at once", async () => {
    const branch = "sh -c 'echo start >> log; sleep 0.2; echo end >> log'";
    await run(box, { parallel: true, concurrency: 1, template: [branch, branch, branch] });
    expect(readFileSync(`${box.dir}/log`, "utf8").trim().split("\n")).toEqual(["start", "end", "start", "end", "start", "end"]);
  });

  it("a fanout over the limit is refused before anything runs", async () => {
    const { result } = await run(box, { parallel: true, template: ["true", "true", "true"] }, {}, { maxParallelBranches: 2 });
    expect(result.text).toBe("Command template parallel fanout 3 exceeds limit 2; set PI_RECIPES_MAX_PARALLEL_BRANCHES (or the older PI_ACTORS_MAX_PARALLEL_BRANCHES) to override intentionally.");
    const repeat = await run(box, { parallel: true, repeat: 5, template: "true" }, {}, { maxParallelBranches: 4 });
    expect(repeat.result.text).toContain("fanout 5 exceeds limit 4");
  });
});
