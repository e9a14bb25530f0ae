// A CLI that helps: --version, per-verb --help, short usage errors with exit 2, did-you-mean,
// tables on a terminal, next hints that run, and where a missing agent dir was looked for.
import { cpSync, mkdtempSync, rmSync, writeFileSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot, runCli, runCliJson } from "../support/cli.js";

const example = { PI_CODING_AGENT_DIR: join(repoRoot, "examples", "agent") };
const dir = mkdtempSync(join(tmpdir(), "cli-help-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("help and version", () => {
  it("--version prints the package version", () => {
    const version = (JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { version: string }).version;
    expect(runCli(["--version"])).toMatchObject({ status: 0, stdout: `pi-recipes ${version}\n` });
  });

  it("<verb> --help shows that verb's usage and examples, and loads no registry", () => {
    // an agent dir that cannot be read would fail any verb that opened the registry
    const broken = { PI_CODING_AGENT_DIR: join(dir, "not-a-dir-file") };
    writeFileSync(join(dir, "not-a-dir-file"), "x");
    for (const verb of ["inspect", "call", "register_tool", "spawn", "message", "schema", "list", "mcp", "watch"]) {
      const r = runCli([verb, "--help"], broken);
      expect(r.status).toBe(0);
      expect(r.stdout).toContain(`pi-recipes ${verb}`);
      expect(r.stdout).toContain("examples:");
      expect(r.stderr).toBe("");
    }
    expect(runCli(["help", "call"]).stdout).toContain("pi-recipes call word_count file=README.md");
  });

  it("mcp --help is help mcp: continuation lines stay under their line, and no --json is offered", () => {
    const own = runCli(["mcp", "--help"]);
    expect(own.status).toBe(0);
    expect(own).toEqual(runCli(["help", "mcp"]));
    const usage = own.stdout.split("examples:")[0]!.split("\n").slice(1).filter((l) => l !== "");
    // each line names the command once, or goes on under the line before it
    expect(usage.filter((l) => l.startsWith("  pi-recipes ")).map((l) => l.split(" ").filter((w) => w !== "")[1])).toEqual(["mcp", "mcp"]);
    expect(usage.filter((l) => !l.startsWith("  pi-recipes ")).every((l) => l.startsWith(" ".repeat(13)) && !l.includes("pi-recipes"))).toBe(true);
    expect(own.stdout).not.toContain("--json");
    expect(runCli(["help", "watch"]).stdout).toContain("add --json");
  });

  it("help with --json is the one JSON object --json promises, the text in it", () => {
    for (const [args, plain, details] of [
      [["list", "--help", "--json"], ["list", "--help"], { verb: "list" }],
      [["--json", "help", "call"], ["help", "call"], { verb: "call" }],
      [["--help", "--json"], ["--help"], {}],
    ] as const) {
      const r = runCli(args);
      expect(r.status, args.join(" ")).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual({ ok: true, text: runCli(plain).stdout.trimEnd(), details });
    }
  });

  it("the general help lists --help and --version", () => {
    const r = runCli(["--help"]);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("pi-recipes <verb> --help");
    expect(r.stdout).toContain("pi-recipes --version");
  });
});

describe("usage errors: exit 2, one short paragraph, did-you-mean", () => {
  it("a mistyped verb, option or key", () => {
    const verb = runCli(["inspct", "target=recipes"], example);
    expect(verb.status).toBe(2);
    expect(verb.stderr).toBe(`pi-recipes: unknown verb "inspct". Did you mean "inspect"?\nSee 'pi-recipes --help'.\n`);
    const key = runCli(["inspect", "tagret=recipes"], example);
    expect(key.status).toBe(2);
    expect(key.stderr).toContain('Did you mean "target"?');
    expect(key.stderr.split("\n").length).toBeLessThanOrEqual(3);
    const option = runCli(["list", "--jsno"], example);
    expect(option.status).toBe(2);
    expect(option.stderr).toContain('Did you mean "--json"?');
  });

  it("with --json, a malformed command line still prints one JSON object on stdout", () => {
    for (const args of [["inspct", "--json"], ["inspect", "tagret=recipes", "--json"], ["call", "--json"]]) {
      const r = runCli(args, example);
      expect(r.status, args.join(" ")).toBe(2);
      const body = JSON.parse(r.stdout) as { ok: boolean; text: string; details: Record<string, unknown> };
      expect(body.ok).toBe(false);
      expect(r.stderr).toContain(body.text);
    }
    const version = runCli(["--version", "--json"]);
    expect(version.status).toBe(0);
    expect((JSON.parse(version.stdout) as { details: { version: string } }).details.version).toMatch(/^\d+\.\d+\.\d+/);
  });
});

describe("where things were looked for", () => {
  it("a missing agent dir is named", () => {
    const missing = join(dir, "no-agent");
    const r = runCli(["list"], { PI_CODING_AGENT_DIR: missing });
    expect(r.status).toBe(0);
    expect(r.stderr).toContain(`no agent directory at ${missing} (from PI_CODING_AGENT_DIR)`);
  });

  it("a command that does not exist is 'not found on PATH', with no invented exit code", () => {
    // a call is counted in the agent dir's ledger: run it on a copy, not on the repository's examples
    const agent = join(dir, "agent");
    cpSync(join(repoRoot, "examples", "agent"), agent, { recursive: true, filter: (from) => !/[\\/]\.[^\\/]+$/.test(from) });
    const r = runCli(["call", "check_tool", "file=x"], { PI_CODING_AGENT_DIR: agent });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('Could not start "checker": not found on PATH');
    expect(r.stderr).not.toContain("Exit code");
  });
});

describe("views", () => {
  it("on a terminal, summary and doctor are tables with each invalid recipe's actual error", () => {
    const tables = { ...example, PI_RECIPES_TABLES: "1" };
    const summary = runCli(["inspect", "target=recipes", "view=summary"], tables).stdout;
    expect(summary).toMatch(/^Tools \(5\)$/m);
    expect(summary).toMatch(/^ {2}release_notes {2}release_notes\.json: Expected double-quoted property name/m);
    expect(summary).toContain("  pi-recipes inspect target=recipes view=doctor");
    // every diagnostic the head line counts has its row, not only the invalid recipes
    const counted = Number(/ diagnostics=(\d+)/.exec(summary)?.[1]);
    expect(counted).toBeGreaterThan(0);
    expect(summary).toMatch(new RegExp(`^Diagnostics \\(${counted}\\)$`, "m"));
    expect(summary.split("\n").filter((l) => /^ {2}(error|warning|info) {2,}\S/.test(l))).toHaveLength(Math.min(counted, 20));
    // every row of the tools table starts its description in the same column, however long its args
    const lines = summary.split("\n");
    const from = lines.indexOf("Tools (5)") + 1;
    const toolRows = lines.slice(from, lines.indexOf("", from));
    expect(toolRows).toHaveLength(6);
    const column = toolRows[0]!.indexOf("DESCRIPTION");
    for (const row of toolRows.slice(1)) expect(row.slice(column - 2, column + 1), row).toMatch(/^ {2}\S$/);
    const doctor = runCli(["inspect", "target=recipes", "view=doctor"], tables).stdout;
    expect(doctor).toMatch(/^Invalid recipes \(1\)$/m);
    expect(doctor).toContain("release_notes.json: Expected double-quoted property name");
    // the findings table lists what the head line counts, with the same severities
    const head = /errors=(\d+) warnings=(\d+) info=(\d+) actions=(\d+)/.exec(doctor);
    expect(head).not.toBeNull();
    const [, errors, warnings, info, actions] = head!.map(Number);
    expect(doctor).toMatch(new RegExp(`^Findings \\(${actions}\\)$`, "m"));
    const findingRows = doctor.split("\n").filter((l) => /^ {2}(error|warning|info) /.test(l));
    expect(findingRows).toHaveLength(actions!);
    expect(findingRows.filter((l) => l.startsWith("  error ")).length).toBe(errors);
    expect(findingRows.filter((l) => l.startsWith("  warning ")).length).toBe(warnings);
    expect(findingRows.filter((l) => l.startsWith("  info ")).length).toBe(info);
    // without a terminal the compact form stays
    expect(runCli(["inspect", "target=recipes", "view=summary"], example).stdout).toMatch(/^recipes active=\d+ /);
  });

  it("with verbose=true the tables keep the view's head line, not the first line of the JSON", () => {
    const tables = { ...example, PI_RECIPES_TABLES: "1" };
    for (const [view, head] of [["summary", /^recipes active=\d+ components=\d+ .* diagnostics=\d+$/], ["doctor", /^recipes doctor errors=\d+ warnings=\d+ /]] as const) {
      const plain = runCli(["inspect", "target=recipes", `view=${view}`], tables);
      const verbose = runCli(["inspect", "target=recipes", `view=${view}`, "verbose=true"], tables);
      expect(verbose.status).toBe(0);
      const first = verbose.stdout.split("\n")[0]!;
      expect(first).toMatch(head);
      // the same head line as without verbose=true, and the same tables under it
      expect(verbose.stdout).toBe(plain.stdout);
    }
  });

  it("every command a view suggests next is one the CLI accepts", () => {
    const suggested = new Set<string>();
    for (const params of [["target=recipes", "view=summary"], ["target=recipes", "view=doctor"], ["target=tool:pi-actors", "view=triage"]]) {
      const { body } = runCliJson(["inspect", ...params], example);
      for (const a of (body.details["next_actions"] as string[] | undefined) ?? []) {
        // a hint is a command, never prose
        expect(a).toMatch(/^(inspect|spawn|message|register_tool|call) /);
        // spawn would run the example draft over the whole checkout: the others are run here
        if (!a.startsWith("spawn ")) suggested.add(a);
      }
    }
    expect(suggested.size).toBeGreaterThan(0);
    for (const action of suggested) {
      const r = runCli(action.split(" "), example);
      expect(r.status, `${action}: ${r.stderr}`).not.toBe(2);
      expect(r.stderr).not.toMatch(/Unknown (inspect target|run view|view)/);
    }
  });
});
