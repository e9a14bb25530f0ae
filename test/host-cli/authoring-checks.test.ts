// Mistakes caught when a recipe is written, through the real `pi-recipes` command: register_tool
// refuses an argument type it does not know, with the message a recipe file declaring it gets.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";

let dir: string;
let env: NodeJS.ProcessEnv;
let root: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "pi-recipes-authoring-"));
  root = join(dir, "agent", "recipes");
  mkdirSync(root, { recursive: true });
  env = { PI_CODING_AGENT_DIR: join(dir, "agent") };
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const UNKNOWN_INTEGER = 'field "args" declares unknown type "integer" for n; use string, path, int, number, bool, array or enum(a,b)';

describe("register_tool args with an unknown type", () => {
  it("is refused with the unknown type and the valid ones, as a hand-written recipe is, and nothing is written", () => {
    const r = runCli(["register_tool", "name=count_up", "description=Count", "template=seq {n}", "args=n:integer"], env);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(`${UNKNOWN_INTEGER}\n`);
    expect(existsSync(join(root, "count_up.json"))).toBe(false);

    // the same declaration written by hand: the same message, in the recipe's diagnostic
    writeFileSync(join(root, "by_hand.json"), JSON.stringify({ description: "Count", args: ["n:integer"], template: "seq {n}" }));
    const byHand = runCli(["call", "by_hand", "n=3"], env);
    expect(byHand.status).toBe(1);
    expect(byHand.stderr).toContain(`: ${UNKNOWN_INTEGER}\n`);
    rmSync(join(root, "by_hand.json"));
  });

  it("a known type is still stored as written", () => {
    const r = runCli(["register_tool", "name=count_to", "description=Count", "template=seq {n}", "args=n:int"], env);
    expect(r).toMatchObject({ status: 0, stdout: 'Registered tool "count_to" (args: n).\n' });
    expect(runCli(["call", "count_to", "n=x"], env).stderr).toContain("Argument n must be an integer.");
  });
});
