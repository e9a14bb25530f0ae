import { describe, expect, it } from "vitest";
import { runKillText, runStartedText, runStatusLine, runStatusText, runTailText, type RunView } from "../../../core/views/run-views.js";

const run: RunView = {
  run_id: "review-1",
  tool: "docs review",
  status: "running",
  pid: 4242,
  pgid: 4242,
  exit_code: null,
  started_at: "2026-06-10T12:00:00.000Z",
  ended_at: null,
  correlation_id: "flow-7",
  run_dir: "/a/runs/review-1",
  stdout_path: "/a/runs/review-1/stdout.log",
  stderr_path: "/a/runs/review-1/stderr.log",
};
const done: RunView = { ...run, status: "failed", exit_code: 3, ended_at: "2026-06-10T12:00:05.000Z", result_text: "\nExit code 3\n\nstderr:\nbad" };

describe("run views", () => {
  it("one compact status line", () => {
    expect(runStatusLine(run)).toBe("run review-1 tool=docs_review status=running exit=- started=2026-06-10T12:00:00.000Z ended=- pid=4242");
    expect(runStatusLine({ ...done, pid: null, started_at: null })).toBe("run review-1 tool=docs_review status=failed exit=3 started=- ended=2026-06-10T12:00:05.000Z pid=-");
  });

  it("the started answer points at the follow-up commands", () => {
    expect(runStartedText(run)).toBe(
      [
        "run review-1 tool=docs_review status=running exit=- started=2026-06-10T12:00:00.000Z ended=- pid=4242",
        "run_id: review-1",
        "run_dir: /a/runs/review-1",
        "stdout: /a/runs/review-1/stdout.log",
        "stderr: /a/runs/review-1/stderr.log",
        "correlation_id: flow-7",
        "next: inspect target=run:review-1 view=status | inspect target=run:review-1 view=tail | message to=run:review-1 type=control.kill",
      ].join("\n"),
    );
  });

  it("status of a finished run carries its result and only the tail as next step", () => {
    const text = runStatusText({ ...done, error: "line one\n  line two" });
    expect(text).toContain("\nerror: line one line two\n");
    expect(text).toContain("\nresult:\nExit code 3\n\nstderr:\nbad\n");
    expect(text.endsWith("next: inspect target=run:review-1 view=tail")).toBe(true);
  });

  it("tail sections say how much they show", () => {
    expect(runTailText(done, { lines: 2, stdout: ["a", "b"], stderr: [] })).toBe(
      `${runStatusLine(done)}\n--- stdout (last 2 lines) ---\na\nb\n--- stderr: (empty) ---`,
    );
    expect(runTailText(done, { lines: 40, stdout: ["a"], stderr: ["w"] })).toBe(`${runStatusLine(done)}\n--- stdout (1 line) ---\na\n--- stderr (1 line) ---\nw`);
  });

  it("kill answers", () => {
    expect(runKillText({ ...done, status: "killed" }, "killed").split("\n")[0]).toBe("to=run:review-1 type=control.kill message=sent delivered=true status=killed");
    expect(runKillText(done, "not_running").split("\n")[0]).toBe("to=run:review-1 type=control.kill message=not_sent reason=run_failed");
  });
});
