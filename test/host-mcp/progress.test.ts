import { describe, expect, it } from "vitest";
import { makeProcessRunner, type ProcessResult } from "../../adapters/process/ProcessRunner.js";
import { progressReporter, type ProgressUpdate } from "../../host-mcp/progress.js";

const done = (code: number): ProcessResult => ({
  code, killed: false, timedOut: false, stdout: new Uint8Array(), stderr: new Uint8Array(), stdoutBytes: 0, stderrBytes: 0,
  stdoutTruncated: false, stderrTruncated: false, durationMs: 1,
});

describe("progress of a synchronous recipe", () => {
  it("reports every command's start and end with strictly increasing progress", async () => {
    const updates: ProgressUpdate[] = [];
    const base = makeProcessRunner("fake", (inv) => Promise.resolve(done(inv.command === "/bin/false" ? 1 : 0)));
    const reporter = progressReporter("build", base, (u) => updates.push(u), { heartbeatMs: 60_000, now: () => 0 });
    await reporter.runner.run({ command: "/usr/bin/make", args: [], cwd: "/" });
    await reporter.runner.runWithRetry({ command: "/bin/false", args: [], cwd: "/" }, 2);
    reporter.stop();
    await reporter.runner.run({ command: "echo", args: [], cwd: "/" });
    expect(updates.map((u) => u.message)).toEqual([
      "build: started make",
      "build: finished make (exit 0), 0s elapsed",
      "build: started false",
      "build: finished false (exit 1), 0s elapsed",
      "build: started false",
      "build: finished false (exit 1), 0s elapsed",
    ]);
    expect(updates.map((u) => u.progress)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it("sends heartbeats while a long command runs", async () => {
    const updates: ProgressUpdate[] = [];
    let release: () => void = () => undefined;
    const base = makeProcessRunner("fake", () => new Promise<ProcessResult>((r) => (release = () => r(done(0)))));
    const isBeat = (u: ProgressUpdate) => u.message.startsWith("slow: 1 running, 0 finished");
    // the command ends as soon as the second heartbeat has arrived
    const reporter = progressReporter("slow", base, (u) => {
      updates.push(u);
      if (updates.filter(isBeat).length === 2) release();
    }, { heartbeatMs: 20 });
    await reporter.runner.run({ command: "sleep", args: ["9"], cwd: "/" });
    reporter.stop();
    expect(updates.filter(isBeat)).toHaveLength(2);
  });
});
