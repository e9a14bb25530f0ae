// The commands that need one tool (`call`, `schema`, `inspect target=tool:<name>`) answer the same
// whether the tool comes from its one compile cache entry under a current list index
// (runtime/registry.ts toolNamed) or from a full discovery. Real processes, real files.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { nextTick } from "../support/compile-cache-box.js";

let dir: string;
let root: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "pi-one-tool-"));
  root = join(dir, "agent", "recipes");
  mkdirSync(root, { recursive: true });
  const write = (name: string, body: unknown): void => writeFileSync(join(root, name), typeof body === "string" ? body : JSON.stringify(body));
  write("greet.json", { description: "Greets", args: ["who:string", "times:int"], defaults: { times: "1" }, template: "echo hello {who} {times}" });
  write("words.md", "---\ndescription: Counts words\nargs: [file:path]\n---\n\n```template\nwc -w {file}\n```\n");
  write("off.json", { description: "off", disabled: true, template: "echo off" });
  write("broken.json", "{ not json");
  env = { PI_CODING_AGENT_DIR: join(dir, "agent") };
  await nextTick(dir, [root]);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const COMMANDS: readonly (readonly string[])[] = [
  ["call", "greet", "who=you", "--json"],
  ["call", "greet", "who=you", "times=x"],
  ["schema", "words", "--json"],
  ["inspect", "target=tool:greet", "--json"],
  // a mistyped name, and a recipe that makes no tool
  ["call", "gret", "--json"],
  ["inspect", "target=tool:broken", "--json"],
];

/** `list` until the list index is current (it is written from the second pass on, once every
 *  file is older than a pass) */
function indexCurrent(): void {
  for (let i = 0; i < 3; i++) expect(runCli(["list"], env).status).toBe(0);
  expect(existsSync(join(root, ".cache", "list.json"))).toBe(true);
}

describe("one tool by name, on the command line", () => {
  it("answers each command the same from the list index as from a discovery", () => {
    indexCurrent();
    for (const args of COMMANDS) {
      // (each command that ran a discovery wrote the index again)
      expect(existsSync(join(root, ".cache", "list.json"))).toBe(true);
      const fromIndex = runCli(args, env);
      // without the list index the same command runs a full discovery
      rmSync(join(root, ".cache", "list.json"));
      const fromDiscovery = runCli(args, env);
      expect({ args, ...fromIndex }).toEqual({ args, ...fromDiscovery });
    }
  });

  it("answers them as expected", () => {
    expect(runCli(["call", "greet", "who=you"], env)).toMatchObject({ status: 0, stdout: "hello you 1\n" });
    expect(runCli(["call", "gret"], env)).toMatchObject({ status: 1, stderr: "Unknown tool: gret. Registered tools: greet, words. Did you mean \"greet\"?\n" });
    expect(runCli(["schema", "off"], env)).toMatchObject({ status: 1, stderr: expect.stringContaining("Recipe off is disabled") });
    expect(runCli(["inspect", "target=tool:words"], env)).toMatchObject({ status: 0, stdout: expect.stringContaining("description: Counts words") });
  });
});
