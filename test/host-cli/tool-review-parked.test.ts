// A tool portfolio review that failed as often as it may is parked: no reply is read until a
// `review.retry`. A reply file given then says it was not read and prints the retry, as the draft
// review does; after the retry the same command reviews again. The real command, 36 tools.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, runCliJson } from "../support/cli.js";

let agent: string;
beforeAll(() => {
  agent = mkdtempSync(join(tmpdir(), "pi-recipes-portfolio-parked-"));
  mkdirSync(join(agent, "recipes"));
});
afterAll(() => rmSync(agent, { recursive: true, force: true }));

describe("a parked tool portfolio review", () => {
  it("says a reply file given to it was not read, and gives the retry, quoted for a shell", () => {
    const env = { PI_CODING_AGENT_DIR: agent, PI_RECIPES_REVIEWER: "" };
    for (let i = 0; i < 36; i++) writeFileSync(join(agent, "recipes", `tool_${String(i).padStart(2, "0")}.json`), JSON.stringify({ description: `Tool ${i}`, template: `printf t${i}` }));
    expect(runCliJson(["review", "scope=tool"], env).body.details["phase"]).toBe("captured");
    const junk = join(agent, "it's junk $(x).txt");
    writeFileSync(junk, "no result marker here\n");
    const answers = [1, 2, 3].map(() => runCliJson(["review", "scope=tool", "--scripted", junk], env));
    for (const a of answers) expect(a.status).toBe(1);
    // only the failure that parks it names the retry
    expect(answers.map((a) => a.body.text.includes("\nretry: "))).toEqual([false, false, true]);

    const parked = runCliJson(["review", "scope=tool", "--scripted", junk], env);
    expect(parked.status).toBe(1);
    expect(parked.body.ok).toBe(false);
    expect(parked.body.text).toContain(`\nnot read: ${junk} (the review of this portfolio failed 3 times, and no reply is read until a retry)`);
    expect(parked.body.text).not.toContain("reviewer=none");
    const retry = /\nretry: (pi-recipes message .*), then (pi-recipes review scope=tool --scripted .*)$/.exec(parked.body.text);
    expect(retry).not.toBeNull();
    expect(retry![1]).toBe(`pi-recipes message to=tool:pi-actors type=review.retry body='{"scope":"tool"}'`);
    // the printed file name, read back by a shell, is the file (nothing in it runs)
    expect(spawnSync("sh", ["-c", `printf %s ${retry![2]!.slice("pi-recipes review scope=tool --scripted ".length)}`], { encoding: "utf8" }).stdout).toBe(junk);

    // the printed retry unparks it: the same review reads the file again (and fails on it again)
    expect(runCli(["message", "to=tool:pi-actors", "type=review.retry", 'body={"scope":"tool"}'], env).status).toBe(0);
    const again = runCliJson(["review", "scope=tool", "--scripted", junk], env).body.text;
    expect(again).not.toContain("not read:");
    expect(again).toMatch(/steps=failed .*\nlast_error: Tool reviewer output marker is missing\./s);
  }, 120_000);
});
