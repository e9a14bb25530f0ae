// What a call or spawn that a signal reached answers: cut short, it says so and exits with the
// signal's code; succeeded all the same, its success and exit 0 agree.
import { describe, expect, it } from "vitest";
import { exitCodeAfter, interruptedResult } from "../../host-cli/interrupt.js";

describe("a result a signal reached", () => {
  it("cut short: the reason is the signal, the text says so, and the exit code is 128 + n", () => {
    const failed = { ok: false, text: "Exit code 1 (killed)", details: { failureReason: "command_failed" } };
    expect(interruptedResult(failed, "SIGTERM")).toEqual({
      ok: false,
      text: "Exit code 1 (killed)\n\nInterrupted by SIGTERM: the command was ended (exit 143).",
      details: { failureReason: "interrupted", interrupted: "SIGTERM" },
    });
    expect(exitCodeAfter(failed, "SIGINT")).toBe(130);
  });

  it("succeeded before the signal could end it: left as it is, and no signal's exit code on an ok result", () => {
    const ok = { ok: true, text: "done", details: {} };
    expect(interruptedResult(ok, "SIGINT")).toBe(ok);
    expect(exitCodeAfter(ok, "SIGINT")).toBeUndefined();
  });
});
