// The real `pi-recipes call` and `pi-recipes spawn` commands, as child processes.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, runCliJson } from "../support/cli.js";

let dir: string;
let env: NodeJS.ProcessEnv;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "pi-recipes-cli-call-"));
  const recipes = join(dir, "agent", "recipes");
  mkdirSync(recipes, { recursive: true });
  writeFileSync(join(recipes, "greet.json"), JSON.stringify({ description: "Greet", defaults: { greeting: "hello" }, template: ["printf '%s, %s' {greeting} {name}", "tr a-z A-Z"] }));
  // each value given once, twenty times on the command line: more than one command line takes
  writeFileSync(join(recipes, "twenty.json"), JSON.stringify({ args: ["s"], template: `printf [%s]\\n -- ${Array(20).fill("{s}").join(" ")}` }));
  writeFileSync(join(recipes, "check_tool.json"), JSON.stringify({ args: ["file", "mode:enum(check,fix)"], defaults: { mode: "check" }, template: "printf '%s %s' {file} {mode}" }));
  writeFileSync(join(recipes, "envdump.json"), JSON.stringify({ description: "Print the environment", template: "env" }));
  env = { PI_CODING_AGENT_DIR: join(dir, "agent") };
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("pi-recipes call", () => {
  it("runs a tool and prints its output", () => {
    const r = runCli(["call", "greet", "name=world"], env);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe("HELLO, WORLD\n");
  });

  it("a command never sees the HTTP server's token, which the caller's environment holds", () => {
    const r = runCli(["call", "envdump"], { ...env, PI_RECIPES_MCP_TOKEN: "0123456789abcdef0123456789abcdef-test-token", PI_RECIPES_MCP_TOKEN_FILE: join(dir, "token") });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`PI_CODING_AGENT_DIR=${join(dir, "agent")}\n`);
    expect(r.stdout).not.toContain("PI_RECIPES_MCP_TOKEN");
  });

  it("--json prints the whole result", () => {
    const r = runCliJson(["call", "greet", "name=you", "greeting=hi"], env);
    expect(r.status).toBe(0);
    expect(r.body.text).toBe("HI, YOU");
    expect(r.body.details).toMatchObject({ code: 0, tool: "greet" });
  });

  it("exits 1 with the usage hint on a bad argument", () => {
    const r = runCli(["call", "check_tool", "file=README.md", "mode=delete"], env);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(
      'Invalid arguments for tool "check_tool": Argument mode must be one of: check, fix.\n\nExpected call shape for check_tool:\ncheck_tool({\n  "file": "<file>",\n  "mode": "check"\n})\nRequired: file\nOptional: mode\n',
    );
  });

  it("a command line too long for the system fails saying so, and its result does not carry the whole value back", () => {
    const value = "v".repeat(120_000);
    const r = runCliJson(["call", "twenty", `s=${value}`], env);
    expect(r.status).toBe(1);
    expect(r.body.text).toBe(
      'Could not start "printf": the arguments are too long for one command line (2400037 bytes in all, the longest argument 120000 bytes: over the bound on a whole command line, ARG_MAX, the environment counted in); pass large input on stdin or in a file instead',
    );
    const command = r.body.details["command"] as string;
    expect(command).toMatch(/^printf '\[%s\]\\n' -- v+…\[2398038 characters left out\]…v+$/);
    expect(command.length).toBeLessThan(2100);
    // a short one is shown whole, as it was run
    expect(runCliJson(["call", "twenty", "s=w"], env).body.details["command"]).toBe(`printf '[%s]\\n' -- ${Array(20).fill("w").join(" ")}`);
  });

  it("exits 1 for an unknown tool and 2 without a tool name", () => {
    expect(runCli(["call", "nope"], env)).toMatchObject({ status: 1 });
    expect(runCli(["call"], env).status).toBe(2);
  });
});

describe("pi-recipes spawn", () => {
  it("runs an inline template with values", () => {
    const r = runCli(["spawn", 'template=["printf {word}", "wc -c"]', 'values={"word":"abcd"}'], env);
    expect(r.status).toBe(0);
    // the output, then the draft the inline template was captured as
    expect(r.stdout).toMatch(/^\s*4\ndraft_recipe=\S+\/recipes\/drafts\/spawn-\d+\.json\n$/);
  });

  it("runs a registry recipe by name and exits 1 when the run fails", () => {
    expect(runCli(["spawn", "recipe=greet", 'values={"name":"x"}'], env).stdout).toBe("HELLO, X\n");
    const r = runCli(["spawn", "template=sh -c 'exit 7'"], env);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^Exit code 7\ndraft_recipe=\S+\.json\n$/);
  });
});
