// An entry of the recipe folder meant as a recipe by its name but never loaded (a folder named
// like a recipe, `Greet.JSON`, `greet.yaml`) is never silently missing: `list`, `inspect` and the
// doctor view say it, from whichever answer is given (the front door's list index, the view
// cache's kept answer, a full discovery), for exactly as long as it is there. Real processes, real
// files.
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { nextTick } from "../support/compile-cache-box.js";

let dir: string;
let root: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "pi-stray-entries-"));
  root = join(dir, "agent", "recipes");
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, "greet.json"), JSON.stringify({ description: "Greets", template: "echo hello" }));
  env = { PI_CODING_AGENT_DIR: join(dir, "agent") };
  await nextTick(dir, [root]);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** each command run three times: the later runs are the ones a cache could answer */
const COMMANDS: readonly (readonly string[])[] = [["list"], ["list", "--json"], ["inspect", "target=recipes", "view=doctor", "--json"]];
const answers = (): string[][] => COMMANDS.map((args) => [0, 1, 2].map(() => {
  const r = runCli(args, env);
  expect(r.status, args.join(" ")).toBe(0);
  return r.stdout;
}));

const CASES = [
  {
    name: "a folder named like a recipe",
    make: (at: string) => mkdirSync(join(at, "inner"), { recursive: true }),
    entry: "tools.json",
    said: (path: string) => `Recipe file ${path} is a folder and was not loaded: a recipe must be a regular file in the recipe folder`,
    action: "move the folder out of the recipe folder: a recipe is one file",
    fixed: undefined,
  },
  {
    name: "an upper-case ending",
    make: (at: string) => writeFileSync(at, JSON.stringify({ description: "Shouts", template: "echo HI" })),
    entry: "Shout.JSON",
    said: (path: string) => `Recipe file ${path} was not loaded: a recipe file's name ends in .json or .md, in lower case: rename it to Shout.json`,
    action: "rename the file to the lower-case ending, or move it out of the recipe folder",
    fixed: "Shout.json",
  },
  {
    name: "a YAML file",
    make: (at: string) => writeFileSync(at, "description: Waves\ntemplate: echo wave\n"),
    entry: "wave.yaml",
    said: (path: string) => `Recipe file ${path} was not loaded: a recipe is a .json file, or a .md file with its fields as YAML frontmatter`,
    action: "write it as a .md recipe (the fields as YAML frontmatter, the template in a fenced block) or as .json, or move it out of the recipe folder",
    fixed: undefined,
  },
] as const;

describe("stray entries in the recipe folder", () => {
  it("are each said by every answer while they are there, and by none once they are gone, caches or not", async () => {
    // the caches current for the root without them
    for (const out of answers().flat()) expect(out).not.toContain("was not loaded");

    for (const { make, entry } of CASES) make(join(root, entry));
    await nextTick(dir, [root]);
    const texts = CASES.map(({ entry, said }) => said(join(root, entry))).sort();
    const [list, listJson, doctor] = answers();
    for (const out of list!) {
      expect(out).toContain("- greet\n");
      expect(out).toContain(`Problems (details: inspect target=recipes view=doctor):\n${texts.map((t) => `- ${t}\n`).join("")}`);
    }
    for (const out of listJson!) expect(JSON.parse(out)).toMatchObject({ ok: true, details: { tools: ["greet"], problems: texts } });
    for (const out of doctor!) {
      const { details } = JSON.parse(out) as { details: { diagnostic_details: { severity: string; message: string; action: string }[] } };
      for (const { entry, said, action } of CASES) expect(details.diagnostic_details).toContainEqual({ severity: "error", message: said(join(root, entry)), action });
    }

    // renamed as the text says, it is a tool; else removed, it is forgotten
    for (const { entry, fixed } of CASES) {
      if (fixed === undefined) rmSync(join(root, entry), { recursive: true });
      else renameSync(join(root, entry), join(root, fixed));
    }
    await nextTick(dir, [root]);
    for (const out of answers().flat()) expect(out).not.toContain("was not loaded");
    expect(runCli(["list"], env).stdout).toBe("Registered tools:\n- Shout\n- greet\n");
  });
});
