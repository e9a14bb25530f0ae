// A recipe in the user's recipe folder named like one of the host's built-in tools (`inspect`,
// `spawn`, `message`, `register_tool`) is never registered, and never silently missing: `list`
// shows its file under Problems, the summary counts it as no component and says it as an error,
// and the doctor names its file, from whichever answer is given (the front door's list index, the
// view cache's kept answer, a full discovery). Renamed, it is a tool. Real processes, real files.
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { nextTick } from "../support/compile-cache-box.js";

let dir: string;
let root: string;
let env: NodeJS.ProcessEnv;

const RESERVED = ["inspect", "message", "register_tool", "spawn"] as const;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "pi-reserved-names-"));
  root = join(dir, "agent", "recipes");
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, "greet.json"), JSON.stringify({ description: "Greets", template: "echo hello" }));
  for (const name of RESERVED) writeFileSync(join(root, `${name}.json`), JSON.stringify({ description: `My ${name}`, template: `echo ${name}` }));
  env = { PI_CODING_AGENT_DIR: join(dir, "agent") };
  await nextTick(dir, [root]);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const said = (name: string): string =>
  `Recipe file ${join(root, `${name}.json`)} is not registered: "${name}" is the name of a built-in tool, and a recipe named like a built-in tool is never a tool; rename the file`;

/** each command run three times: the later runs are the ones a cache could answer */
const thrice = (args: readonly string[]): string[] => [0, 1, 2].map(() => {
  const r = runCli(args, env);
  expect(r.status, args.join(" ")).toBe(0);
  return r.stdout;
});

interface Remedy { id: string; kind: string; severity: string; path: string; reason: string; action: string }

describe("a user recipe named like a built-in tool", () => {
  it("is a problem naming its file in list, summary and doctor, never a component", () => {
    for (const out of thrice(["list"])) {
      expect(out).toContain("Registered tools:\n- greet\n");
      expect(out).toContain(`Problems (details: inspect target=recipes view=doctor):\n${RESERVED.map((n) => `- ${said(n)}\n`).join("")}`);
    }
    for (const out of thrice(["inspect", "target=recipes", "view=summary"])) {
      const components = /^ {2}components: (.*)$/m.exec(out)?.[1]?.split(", ") ?? [];
      for (const name of RESERVED) {
        expect(components).not.toContain(name);
        expect(out).toContain(`  diagnostic error: ${said(name)}\n`);
      }
    }
    for (const out of thrice(["inspect", "target=recipes", "view=doctor", "verbose=true", "--json"])) {
      const { details } = JSON.parse(out) as {
        details: { counts: { components: number; errors: number }; active: { id: string; reserved_name?: boolean }[]; remediations: Remedy[] };
      };
      for (const name of RESERVED) {
        expect(details.remediations).toContainEqual({
          id: name,
          kind: "reserved_name",
          severity: "error",
          path: join(root, `${name}.json`),
          reason: said(name),
          action: "rename the recipe file: a recipe named like a built-in tool is never registered",
        });
        expect(details.active.find((a) => a.id === name)).toMatchObject({ reserved_name: true });
      }
      // every finding is about a file: none without an id or a path
      expect(details.remediations.filter((r) => r.id === "-" || r.path === "")).toEqual([]);
      expect(details.counts.errors).toBe(RESERVED.length);
      expect(details.counts.components).toBe(details.active.filter((a) => a.id !== "greet" && !RESERVED.includes(a.id as never)).length);
    }
  });

  it("renamed as the text says, is a tool, and the problem is gone", async () => {
    renameSync(join(root, "inspect.json"), join(root, "my_inspect.json"));
    await nextTick(dir, [root]);
    for (const out of thrice(["list"])) {
      expect(out).toContain("- my_inspect\n");
      expect(out).not.toContain("inspect.json is not registered");
      expect(out).toContain(`- ${said("spawn")}\n`);
    }
  });
});
