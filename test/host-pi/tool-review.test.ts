// An approved tool portfolio review is carried out at Pi's session_start, before the tool set is
// read: the session offers and runs the renamed tool, and the demoted and merged-away ones are
// gone.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { approvedPortfolio } from "../support/portfolio.js";
import { call, makeSandbox, say, startPi, type PiRun, type PiSandbox } from "./sdk-harness.js";

let sandbox: PiSandbox;
let pi: PiRun | undefined;
afterEach(async () => {
  await pi?.close();
  pi = undefined;
  delete process.env["PI_CODING_AGENT_DIR"];
  sandbox?.cleanup();
});

describe("tool review activation in the Pi host", () => {
  test("session_start activates the approved portfolio before the tools are read", async () => {
    sandbox = makeSandbox();
    process.env["PI_CODING_AGENT_DIR"] = sandbox.agentDir;
    expect(await approvedPortfolio(sandbox.agentDir)).toBe("approved");
    pi = await startPi({ sandbox, responses: [call("renamed_tool", {}), call("inspect", { target: "recipes", view: "reviews" }), say("done")] });
    await pi.session.prompt("go");
    await pi.waitForRuns(1);
    const [renamed, reviews] = pi.outcomes;
    expect(renamed).toMatchObject({ tool: "renamed_tool", isError: false, text: expect.stringContaining("t0") });
    expect(reviews!.text).toContain("tool=completed");
    expect(existsSync(join(sandbox.recipeRoot, "tool_00.json"))).toBe(false);
    expect(existsSync(join(sandbox.recipeRoot, "drafts", "tool_01.json"))).toBe(true);
  }, 120_000);
});
