// Launch accounting through the real command: call, spawn recipe= and message to=tool: count, usage shows in the
// verbose summary, and an unused tool gets the operator-gated cleanup recommendation.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, runCliJson } from "../support/cli.js";

let agent: string;
beforeAll(() => {
  agent = mkdtempSync(join(tmpdir(), "pi-recipes-usage-"));
  mkdirSync(join(agent, "recipes"));
  writeFileSync(join(agent, "recipes", "hello.json"), JSON.stringify({ template: "printf hi" }));
  writeFileSync(join(agent, "recipes", "unused.json"), JSON.stringify({ template: "printf never" }));
});
afterAll(() => rmSync(agent, { recursive: true, force: true }));

describe("usage through the CLI", () => {
  it("counts call, spawn recipe= and message to=tool:, and reports usage and recommendations", () => {
    const env = { PI_CODING_AGENT_DIR: agent };
    expect(runCli(["call", "hello"], env).stdout).toBe("hi\n");
    expect(runCli(["call", "hello"], env).stdout).toBe("hi\n");
    expect(runCli(["spawn", "recipe=hello"], env).stdout).toBe("hi\n");
    expect(runCli(["message", "to=tool:hello", "type=run"], env).status).toBe(0);
    const { status, body } = runCliJson(["inspect", "target=recipes", "view=summary", "verbose=true"], env);
    expect(status).toBe(0);
    const active = body.details["active"] as { id: string; usage?: Record<string, unknown> }[];
    expect(active.find((a) => a.id === "hello")?.usage).toMatchObject({ lifetime_calls: 4, calls: 4, revision_calls: 4 });
    expect(active.find((a) => a.id === "unused")?.usage).toMatchObject({ lifetime_calls: 0, calls: 0 });
    const recommendations = body.details["recommendations"] as { id: string; reason: string }[];
    expect(recommendations.filter((r) => r.id === "unused").map((r) => r.reason)).toEqual(["active user tool has no recorded launches"]);
    expect(recommendations.some((r) => r.id === "hello")).toBe(false);
  });

  it("a revision restarts revision_calls and keeps lifetime_calls", () => {
    const env = { PI_CODING_AGENT_DIR: agent };
    writeFileSync(join(agent, "recipes", "hello.json"), JSON.stringify({ template: "printf hello" }));
    expect(runCli(["call", "hello"], env).stdout).toBe("hello\n");
    const { body } = runCliJson(["inspect", "target=recipes", "view=summary", "verbose=true"], env);
    const active = body.details["active"] as { id: string; usage?: Record<string, unknown> }[];
    expect(active.find((a) => a.id === "hello")?.usage).toMatchObject({ lifetime_calls: 5, revision_calls: 1 });
  });
});
