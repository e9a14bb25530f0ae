// A recipe whose delegation target or import does not load, through the real `pi-recipes`: the
// problem keeps its fixed text (agents match on it), and the doctor's action for it says what the
// text cannot: a delegation target may be missing as well as lack a template, and a missing import
// is a file to create where its "from" points, not a syntax error to fix.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, runCliJson } from "../support/cli.js";

let dir: string;
let recipes: string;
let env: NodeJS.ProcessEnv;
const write = (name: string, body: object): void => writeFileSync(join(recipes, `${name}.json`), JSON.stringify(body));

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "pi-recipes-unloaded-"));
  recipes = join(dir, "agent", "recipes");
  mkdirSync(recipes, { recursive: true });
  env = { PI_CODING_AGENT_DIR: join(dir, "agent") };
  write("to_missing", { description: "d", template: join(dir, "nowhere", "x.json") });
  write("untemplated", { description: "no template here" });
  write("to_untemplated", { description: "d", template: "untemplated" });
  write("imports_missing", { description: "d", imports: { f: "nothere.json" }, template: "echo {f.name}" });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const DELEGATE = "the delegated recipe file it names is missing or has no template: create it with one, or correct the path in the template";

describe("a delegation target or import that does not load", () => {
  it("keeps its fixed text, and the doctor's action says to create the file or correct the path", () => {
    const list = runCli(["list"], env).stdout;
    expect(list).toContain(`- Failed to load recipe ${join(recipes, "to_missing.json")}: Template recipe must define template: ${join(dir, "nowhere", "x.json")}\n`);
    expect(list).toContain(`- Failed to load recipe ${join(recipes, "imports_missing.json")}: Recipe import not found: f\n`);

    const doctor = runCliJson(["inspect", "target=recipes", "view=doctor"], env);
    const details = doctor.body.details["diagnostic_details"] as { id?: string; message: string; action: string }[];
    const actionOf = (id: string): string | undefined => details.find((d) => d.id === id && d.message.startsWith("Failed to load recipe "))?.action;
    expect(actionOf("to_missing")).toBe(DELEGATE);
    expect(actionOf("to_untemplated")).toBe(DELEGATE);
    expect(actionOf("imports_missing")).toBe(`no recipe file is where the import's "from" points: create it, or fix "from"`);
    // a recipe without a template of its own keeps its own step
    expect(details.find((d) => d.id === "untemplated" && d.message.startsWith("Invalid recipe: "))?.action).toBe("add a template field or remove the recipe");
  });
});
