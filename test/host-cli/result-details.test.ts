// What a call's result says, through the real `pi-recipes call`: a process a signal ended has no
// exit code (`code` null, `signal` named), a timeout is its own reason, a sequence's commands are
// listed one by one, and a truncation notice says when it shows only the end of a line.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, runCliJson } from "../support/cli.js";

let dir: string;
let env: NodeJS.ProcessEnv;
const recipe = (name: string, body: object): void => writeFileSync(join(dir, "agent", "recipes", `${name}.json`), JSON.stringify(body));

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "pi-recipes-result-details-"));
  mkdirSync(join(dir, "agent", "recipes"), { recursive: true });
  recipe("sleepy", { description: "Over its timeout", template: { template: "sleep 5", timeout: 300 } });
  recipe("sleepy_node", { description: "A sequence over its timeout", template: { timeout: 300, template: ["sleep 5", "echo after"] } });
  recipe("selfkill", { description: "Ended by a signal", template: 'sh -c "kill -9 $$"' });
  recipe("exits", { description: "Exits 3", template: "sh -c 'exit 3'" });
  recipe("longline", { description: "One 3 MB line", template: "sh -c 'head -c 3000000 /dev/zero | tr \"\\\\0\" x'" });
  recipe("fail_mid", { description: "A step fails, the sequence goes on", template: ["echo start", "sh -c 'echo oops >&2; exit 3'", "echo end"] });
  env = { PI_CODING_AGENT_DIR: join(dir, "agent") };
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a failed call's exit code and reason", () => {
  it("a step its timeout ended: reason timeout, the milliseconds, no exit code, and a failed CLI status", () => {
    const r = runCliJson(["call", "sleepy"], env);
    expect(r.status).toBe(1);
    expect(r.body.ok).toBe(false);
    expect(r.body.text).toContain("sleep 5: timed out after 300 ms");
    expect(r.body.details).toMatchObject({ code: null, killed: true, failureReason: "timed_out", timeoutMs: 300 });
  });

  it("a sequence its node timeout ended says timeout the same way", () => {
    const r = runCliJson(["call", "sleepy_node"], env);
    expect(r.status).toBe(1);
    expect(r.body.text).toContain("timed out after 300 ms");
    expect(r.body.details).toMatchObject({ code: null, failureReason: "timed_out", timeoutMs: 300 });
  });

  it("a process a signal from elsewhere ended: code null, the signal named", () => {
    const r = runCliJson(["call", "selfkill"], env);
    expect(r.status).toBe(1);
    expect(r.body.text.startsWith("Killed by signal SIGKILL (no exit code of its own)")).toBe(true);
    expect(r.body.details).toMatchObject({ code: null, signal: "SIGKILL", failureReason: "command_failed" });
    expect(r.body.details).not.toHaveProperty("timeoutMs");
  });

  it("a process that exited keeps its own code", () => {
    const r = runCliJson(["call", "exits"], env);
    expect(r.status).toBe(1);
    expect(r.body.details).toMatchObject({ code: 3, failureReason: "command_failed" });
    expect(r.body.details).not.toHaveProperty("signal");
  });
});

describe("the commands a sequence ran", () => {
  it("are listed one by one in details.steps, the failed one too, beside the && line kept in details.command", () => {
    const r = runCliJson(["call", "fail_mid"], env);
    expect(r.status).toBe(0);
    expect(r.body.text.startsWith("end\n\nStep failed, the sequence went on: sh -c 'echo oops >&2; exit 3' (exit 3): oops")).toBe(true);
    expect(r.body.details["steps"]).toEqual(["echo start", "sh -c 'echo oops >&2; exit 3'", "echo end"]);
    expect(r.body.details["command"]).toBe("echo start && sh -c 'echo oops >&2; exit 3' && echo end");
    expect(r.body.details).not.toHaveProperty("stepsLeftOut");
  });

  it("a one-command call has no list: details.command is that command", () => {
    const r = runCliJson(["call", "exits"], env);
    expect(r.body.details).not.toHaveProperty("steps");
    expect(r.body.details["command"]).toBe("sh -c 'exit 3'");
  });
});

describe("the truncation notice", () => {
  it("says that only the end of one long line is shown", () => {
    const r = runCli(["call", "longline"], env);
    expect(r.status).toBe(0);
    const notice = r.stdout.trimEnd().split("\n").at(-1)!;
    expect(notice).toMatch(/^\[Output truncated: 1 of 1 lines \(50\.0KB of 2\.9MB\); the first line shown is only the last 50\.0KB of a 2\.9MB line\. Full output saved to: .+longline-stdout\.txt\]$/);
    expect(r.stdout.startsWith("x".repeat(50 * 1024) + "\n\n[Output truncated")).toBe(true);
  });
});
