// A symbolic link named like a recipe in the recipe root is never followed (it could point at any
// file), and never silently missing either: `list`, `inspect` and the doctor view say it, from
// whichever answer is given (the front door's list index, the view cache's kept answer, a full
// discovery), for exactly as long as the link is there. Real processes, real files.
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { nextTick } from "../support/compile-cache-box.js";

let dir: string;
let root: string;
let link: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "pi-linked-recipe-"));
  root = join(dir, "agent", "recipes");
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, "greet.json"), JSON.stringify({ description: "Greets", template: "echo hello" }));
  writeFileSync(join(dir, "dotfiles-tool.json"), JSON.stringify({ description: "Kept elsewhere", template: "echo linked" }));
  link = join(root, "dotfiles_tool.json");
  env = { PI_CODING_AGENT_DIR: join(dir, "agent") };
  await nextTick(dir, [root]);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const said = (): string =>
  `Recipe file ${link} is a symbolic link and was not loaded: a recipe must be a regular file in the recipe folder (the folder itself may be a link)`;

/** each command run three times: the later runs are the ones a cache could answer */
const COMMANDS: readonly (readonly string[])[] = [["list"], ["list", "--json"], ["inspect", "target=recipes", "view=summary"], ["inspect", "target=recipes", "view=doctor", "--json"]];
const answers = (): string[][] => COMMANDS.map((args) => [0, 1, 2].map(() => {
  const r = runCli(args, env);
  expect(r.status, args.join(" ")).toBe(0);
  return r.stdout;
}));

describe("a symlinked recipe file", () => {
  it("is said by every answer while it is there, and by none once it is gone, caches or not", async () => {
    // the caches current for the root without the link
    for (const out of answers().flat()) expect(out).not.toContain("symbolic link");
    expect(existsSync(join(root, ".cache", "list.json"))).toBe(true);

    symlinkSync(join(dir, "dotfiles-tool.json"), link);
    const [list, listJson, summary, doctor] = answers();
    for (const out of list!) {
      expect(out).toContain("- greet\n");
      expect(out).not.toContain("dotfiles_tool\n");
      expect(out).toContain(`Problems (details: inspect target=recipes view=doctor):\n- ${said()}\n`);
    }
    for (const out of listJson!) expect(JSON.parse(out)).toMatchObject({ ok: true, details: { tools: ["greet"], problems: [said()] } });
    for (const out of summary!) expect(out).toContain(said());
    for (const out of doctor!) {
      const { details } = JSON.parse(out) as { details: { diagnostic_details: { severity: string; message: string; action: string }[] } };
      expect(details.diagnostic_details).toContainEqual({ severity: "error", message: said(), action: "copy the file into the recipe folder in place of the link, or link the whole folder" });
    }

    unlinkSync(link);
    await nextTick(dir, [root]);
    for (const out of answers().flat()) expect(out).not.toContain("symbolic link");
    // and the link's target, copied in its place, is a tool
    writeFileSync(link, JSON.stringify({ description: "Kept elsewhere", template: "echo linked" }));
    expect(runCli(["list"], env).stdout).toContain("- dotfiles_tool\n");
  });

  it("is never written through, replaced or removed by register_tool: each change is refused, naming the link", () => {
    const target = join(dir, "dotfiles-tool.json");
    const kept = readFileSync(target, "utf8");
    const mdLink = join(root, "notes_tool.md");
    // (the test above left the file itself in the link's place)
    rmSync(link, { force: true });
    symlinkSync(target, link);
    symlinkSync(target, mdLink);
    try {
      const refused = (name: string, at: string, ...rest: string[]): void => {
        const r = runCli(["register_tool", `name=${name}`, ...rest], env);
        expect({ status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({
          status: 1,
          stdout: "",
          stderr: `Tool not changed: ${at} is a symbolic link; a recipe must be a regular file in the recipe folder, and the link makes no tool. Remove the link, or put the file itself in its place, first.\n`,
        });
      };
      refused("dotfiles_tool", link, "description=d", "template=echo new");
      refused("dotfiles_tool", link, "description=d", "template=echo new", "update=true");
      refused("dotfiles_tool", link, "template=null");
      // the JSON name of a Markdown link: writing the JSON twin would shadow what the link stands for
      refused("notes_tool", mdLink, "description=d", "template=echo new");
      refused("notes_tool", mdLink, "template=null");
      for (const at of [link, mdLink]) expect(lstatSync(at).isSymbolicLink()).toBe(true);
      expect(existsSync(join(root, "notes_tool.json"))).toBe(false);
      expect(readFileSync(target, "utf8")).toBe(kept);
      // --json says the same, and names the link
      const json = runCli(["register_tool", "name=dotfiles_tool", "template=null", "--json"], env);
      expect(json.status).toBe(1);
      expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, details: { symlink: link } });
    } finally {
      unlinkSync(link);
      unlinkSync(mdLink);
    }
  });
});
