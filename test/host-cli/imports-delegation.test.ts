// What a recipe borrows from the recipes it places in its template, through the real
// `pi-recipes schema` and `pi-recipes call`: an imported component keeps its argument types,
// defaults and descriptions inside a sequence as it does as the whole template, and a recipe that
// delegates to another recipe file shows that file's argument descriptions (its own win).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";

let dir: string;
let env: NodeJS.ProcessEnv;
let components: string;
const write = (folder: string, name: string, body: object): void => writeFileSync(join(folder, `${name}.json`), JSON.stringify(body));
const schemaOf = (tool: string): unknown => {
  const r = runCli(["schema", tool], env);
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout) as unknown;
};

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "pi-recipes-imports-delegation-"));
  const recipes = join(dir, "agent", "recipes");
  components = join(dir, "components");
  mkdirSync(recipes, { recursive: true });
  mkdirSync(components, { recursive: true });
  write(components, "show", {
    description: "Show a file and a count",
    args: ["file:path", "count:int"],
    defaults: { file: "notes.txt", count: 3 },
    arg_descriptions: { file: "The file to show", count: "How many times" },
    template: "printf '%s %s\\n' {file} {count}",
  });
  const imports = { show: join(components, "show.json") };
  write(recipes, "whole", { description: "The component as the whole template", imports, template: { name: "show" } });
  write(recipes, "in_sequence", { description: "The component as a step", imports, template: [{ name: "show" }, "tr a-z A-Z"] });

  write(components, "target", {
    description: "Count words",
    args: ["file:path", "mode:enum(words,lines)"],
    defaults: { mode: "words" },
    arg_descriptions: { file: "The text file whose words to count", mode: "What to count" },
    template: "printf '%s %s\\n' {file} {mode}",
  });
  write(recipes, "delegating", { description: "Delegates", template: join(components, "target.json") });
  write(recipes, "delegating_own", { description: "Delegates, describing file itself", arg_descriptions: { file: "Its own words" }, template: join(components, "target.json") });
  env = { PI_CODING_AGENT_DIR: join(dir, "agent") };
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("an imported component inside a sequence", () => {
  it("keeps its types, defaults and descriptions in the schema, as the whole-template form does", () => {
    const expected = {
      additionalProperties: false,
      properties: {
        file: { description: "The file to show", type: "string", default: "notes.txt" },
        count: { description: "How many times", type: "integer", default: 3 },
      },
      required: [],
      type: "object",
    };
    expect(schemaOf("whole")).toEqual(expected);
    expect(schemaOf("in_sequence")).toEqual(expected);
  });

  it("validates and rewrites the values by those types, and runs with the defaults", () => {
    // a path value starting with "-" reaches the command as "./-…", never as an option
    expect(runCli(["call", "in_sequence", "file=-n"], env)).toMatchObject({ status: 0, stdout: "./-N 3\n" });
    const bad = runCli(["call", "in_sequence", "count=many"], env);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain("Argument count must be an integer.");
    expect(runCli(["call", "in_sequence"], env)).toMatchObject({ status: 0, stdout: "NOTES.TXT 3\n" });
    expect(runCli(["call", "whole", "file=-n"], env)).toMatchObject({ status: 0, stdout: "./-n 3\n" });
  });
});

describe("a recipe delegating to another recipe file", () => {
  it("shows the target's argument descriptions; its own win where both describe one", () => {
    const properties = (tool: string): Record<string, { description: string }> => (schemaOf(tool) as { properties: Record<string, { description: string }> }).properties;
    expect(properties("delegating")["file"]?.description).toBe("The text file whose words to count");
    expect(properties("delegating")["mode"]?.description).toBe("What to count");
    expect(properties("delegating_own")["file"]?.description).toBe("Its own words");
    expect(properties("delegating_own")["mode"]?.description).toBe("What to count");
  });
});
