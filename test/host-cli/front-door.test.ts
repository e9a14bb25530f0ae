// The installed command (the package's bin, host-cli/front-door.ts) answers `--version`, help, a
// `list` it can prove without the registry and an `inspect` the view cache kept by itself; everything else it hands to the full command
// (host-cli/main.ts). Whoever answers, the answer is the same: stdout, stderr and exit status of
// the bin equal the full command's in each state below, and in the states it is meant to answer,
// the bin answered without loading the full command at all.
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cliNodeArgs, nodeArgsFor, repoRoot } from "../support/cli.js";
import { loadLogArgs, readLoadLog } from "../support/load-log.js";

interface Answer {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

let dir: string;
let agent: string;
let env: NodeJS.ProcessEnv;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "pi-front-door-"));
  agent = join(dir, "agent");
  env = { ...process.env, PI_CODING_AGENT_DIR: agent, HOME: dir };
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const spawnAnswer = (node: readonly string[], args: readonly string[]): Answer => {
  const r = spawnSync(process.execPath, [...node, ...args], { cwd: dir, env, encoding: "utf8", timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
};

/** the full command's answer */
const full = (args: readonly string[]): Answer => spawnAnswer(nodeArgsFor(join(repoRoot, "host-cli", "main.ts")), args);

/** the bin's answer, and whether it loaded the full command (in the build one CommonJS file,
 *  main.cjs, run through vm.Script; from the sources the module host-cli/main.ts) */
function bin(args: readonly string[]): Answer & { readonly handedOn: boolean } {
  const log = join(dir, `loaded-${Math.random().toString(36).slice(2)}.log`);
  const answer = spawnAnswer([...loadLogArgs(log, join(dir, "x.js")), ...cliNodeArgs()], args);
  const { files } = readLoadLog(log);
  return { ...answer, handedOn: files.some((f) => /\/host-cli\/main\.(js|ts|cjs)$/.test(f)) };
}

const LISTS = [["list"], ["list", "--json"], ["--json", "list"]] as const;

/** The bin and the full command answer each form of `list` alike; returns whether the bin answered
 *  them itself. The full command goes second: on a miss the first run writes the list index, and
 *  the bin's answer must then equal the one the full command gives from it. */
function sameLists(): boolean[] {
  return LISTS.map((args) => {
    const { handedOn, ...answer } = bin(args);
    expect(answer, args.join(" ")).toEqual(full(args));
    return !handedOn;
  });
}

const recipe = (name: string, body: unknown): void => writeFileSync(join(agent, "recipes", name), typeof body === "string" ? body : JSON.stringify(body));

describe("the installed command", () => {
  it("answers --version and help itself, as the full command does", () => {
    for (const args of [["--version"], ["--version", "--json"], ["--json", "--version"], ["-V"], ["--help"], ["-h"], [], ["help"], ["help", "call"], ["list", "--help"], ["--help", "inspect", "target=recipes"], ["list", "--help", "--json"], ["--json", "--help"], ["help", "call", "--json"]]) {
      const { handedOn, ...answer } = bin(args);
      expect(answer, args.join(" ")).toEqual(full(args));
      expect(handedOn).toBe(false);
    }
  });

  it("answers list for an agent dir without a recipe root itself (with the note on stderr)", () => {
    expect(sameLists()).toEqual([true, true, true]);
    expect(bin(["list"]).stderr).toContain(`no agent directory at ${agent}`);
    // the agent dir there, the recipe root not yet: no note, the same prepared list
    mkdirSync(agent);
    expect(sameLists()).toEqual([true, true, true]);
  });

  it("answers list from a current list index, problems included; a changed recipe goes to the full command", () => {
    mkdirSync(join(agent, "recipes"), { recursive: true });
    recipe("greet.json", { description: "Greet", args: ["who"], template: "echo hello {who}" });
    recipe("broken.json", { description: "no template" });
    recipe("notes.md", "---\ndescription: Notes\nargs: [text]\n---\n\n```template\necho {text}\n```\n");
    // the first list discovers and writes the index, the second settles a file as new as the pass
    full(["list"]);
    full(["list"]);
    expect(sameLists()).toEqual([true, true, true]);
    const listed = bin(["list"]);
    expect(listed.stdout).toContain("- greet\n- notes");
    expect(listed.stdout).toContain("Problems");
    expect(listed.status).toBe(0);

    // an edit: the index no longer holds, and the bin hands the list on (the full command then
    // writes a new index, which the next bin run answers from)
    recipe("greet.json", { description: "Greet twice", args: ["who"], template: "echo hello hello {who}" });
    recipe("wave.json", { description: "Wave", template: "echo bye" });
    expect(bin(["list"])).toMatchObject({ handedOn: true });
    full(["list"]);
    expect(sameLists()).toEqual([true, true, true]);
    expect(bin(["list"]).stdout).toContain("- wave");
  });

  it("hands on a list when the recipe root's mode changed or a plan is pending", () => {
    mkdirSync(join(agent, "recipes"), { recursive: true });
    recipe("greet.json", { description: "Greet", args: ["who"], template: "echo hello {who}" });
    full(["list"]);
    full(["list"]);
    expect(sameLists()).toEqual([true, true, true]);
    // the index recorded the root's mode (a writable root is a diagnostic of discovery)
    chmodSync(join(agent, "recipes"), 0o775);
    expect(bin(["list"])).toMatchObject({ handedOn: true });
    full(["list"]);
    expect(sameLists()).toEqual([true, true, true]);
    // a journal a killed register_tool left: the full command settles it before it lists
    mkdirSync(join(agent, "recipes", ".usage", "register-journal"), { recursive: true });
    writeFileSync(join(agent, "recipes", ".usage", "register-journal", "x.journal.json"), "{}");
    expect(bin(["list"])).toMatchObject({ handedOn: true });
    // the full command settled it (a torn journal is put aside): the next list is the bin's again
    expect(bin(["list"])).toMatchObject({ handedOn: false });
  });

  it("answers inspect target=recipes from the view cache's kept answer; a changed recipe or another view goes to the full command", () => {
    mkdirSync(join(agent, "recipes"), { recursive: true });
    recipe("greet.json", { description: "Greet", args: ["who"], template: "echo hello {who}" });
    recipe("broken.json", { description: "no template" });
    const journal = join(agent, "recipes", ".usage", "register-journal", "p.journal.json");
    mkdirSync(dirname(journal), { recursive: true });
    const views = [
      ["inspect", "target=recipes", "view=summary", "--json"],
      ["inspect", "target=recipes", "view=doctor"],
      ["inspect", "target=recipes", "view=imports", "--json"],
      ["inspect", "target=recipes", "view=summary", "verbose=true"],
    ] as const;
    // the first computes (and keeps nothing for a file as new as the pass), the second keeps
    for (const args of views) for (let i = 0; i < 2; i++) full(args);
    for (const args of views) {
      const { handedOn, ...answer } = bin(args);
      expect(answer, args.join(" ")).toEqual(full(args));
      expect(answer.status).toBe(0);
      expect(handedOn, args.join(" ")).toBe(false);
    }
    // not kept: another target, the reviews view, an argument the views do not take
    for (const args of [["inspect", "target=tool:greet"], ["inspect", "target=recipes", "view=reviews"], ["inspect", "target=recipes", "lines=3"]]) {
      const { handedOn, ...answer } = bin(args);
      expect(answer, args.join(" ")).toEqual(full(args));
      expect(handedOn, args.join(" ")).toBe(true);
    }
    // a plan a killed command left pending (in a journal folder that was there, empty, when the
    // answer was kept): the full command settles it first
    writeFileSync(journal, "{}");
    expect(bin(views[1])).toMatchObject({ handedOn: true });
    rmSync(journal, { force: true });
    // a recipe changed since: the kept answer no longer holds
    recipe("greet.json", { description: "Greet twice", args: ["who"], template: "echo hello hello {who}" });
    const changed = bin(views[0]);
    expect(changed.handedOn).toBe(true);
    expect(changed.stdout).toContain("Greet twice");
  });

  it("hands every other command line to the full command, usage errors included", () => {
    mkdirSync(join(agent, "recipes"), { recursive: true });
    for (const args of [["list", "extra"], ["list", "x=1"], ["list", "--stream"], ["lst"], ["lst", "--help"], ["help", "nothing"], ["mcp", "--help"], ["--bogus"], ["inspect", "target=recipes"], ["inspect", "x", "target=recipes"]]) {
      const { handedOn, ...answer } = bin(args);
      expect(answer, args.join(" ")).toEqual(full(args));
      expect(handedOn, args.join(" ")).toBe(true);
    }
  });
});
