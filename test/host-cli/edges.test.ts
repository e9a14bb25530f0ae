// Honest results at the edges of the command line: bare `pi-recipes`, mistyped mcp options, and
// the counts of the recipe views.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot, runCli, runCliJson } from "../support/cli.js";

const scratch = mkdtempSync(join(tmpdir(), "cli-edges-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A fresh, empty agent dir of its own. */
function agentDir(name: string): string {
  const dir = join(scratch, name);
  mkdirSync(join(dir, "recipes"), { recursive: true });
  return dir;
}

describe("the command line without a verb or with a mistyped option", () => {
  it("bare pi-recipes prints the help and exits 0", () => {
    const r = runCli([]);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("usage: pi-recipes <verb>");
    expect(r.stdout).toContain("pi-recipes <verb> --help");
  });

  it("pi-recipes mcp --prot suggests --port, like other verbs' unknown options", () => {
    for (const words of [["mcp", "--prot", "8000"], ["mcp", "--http", "--prot", "8000"]]) {
      const r = runCli(words);
      expect(r.status).toBe(2);
      expect(r.stderr).toContain(`pi-recipes: mcp: Unknown option '--prot'. Did you mean "--port"?`);
    }
  });
});

describe("an empty path argument", () => {
  it("is refused before anything runs: an empty word would leave the command line and shift the rest", () => {
    const dir = agentDir("empty-path");
    const env = { PI_CODING_AGENT_DIR: dir };
    writeFileSync(join(dir, "recipes", "so.json"), JSON.stringify({ description: "sort", args: ["out:path", "file:path"], template: "sort -o {out} {file}" }));
    const notes = join(scratch, "notes.txt");
    writeFileSync(notes, "b\na\n");
    for (const out of ["out=", 'out=""']) {
      const r = runCli(["call", "so", out, `file=${notes}`], env, scratch);
      expect(r.status, out).toBe(1);
      expect(r.stderr).toContain("Argument out must be a non-empty path.");
    }
    // null is no value at all: the argument is missing
    const missing = runCli(["call", "so", "out=null", `file=${notes}`], env, scratch);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain("Missing command template value: out");
    expect(readFileSync(notes, "utf8")).toBe("b\na\n");
    expect(runCli(["call", "so", `out=${notes}`, `file=${notes}`], env, scratch).status).toBe(0);
    expect(readFileSync(notes, "utf8")).toBe("a\nb\n");
  });
});

describe("a message to a recipe tool", () => {
  it("runs it for a call type or one its recipe's mailbox.accepts lists; any other type is refused, naming it, and runs nothing", () => {
    const dir = agentDir("message-types");
    const env = { PI_CODING_AGENT_DIR: dir };
    const marker = join(dir, "ran");
    writeFileSync(join(dir, "recipes", "sidefx.json"), JSON.stringify({ description: "touch a marker", template: `touch ${marker}` }));
    writeFileSync(join(dir, "recipes", "boxed.json"), JSON.stringify({ description: "touch a marker", template: `touch ${marker}`, mailbox: { accepts: ["mark.now"] } }));
    // every type is taken or refused in the runtime's unit test (test/runtime/verbs/message.test.ts);
    // here, through the command, a run's control refused, an undeclared type refused, a declared one run
    for (const [tool, type, accepts] of [["sidefx", "control.kill", "call, invoke, run"], ["boxed", "mark.later", "call, invoke, run, mark.now"]] as const) {
      const r = runCliJson(["message", `to=tool:${tool}`, `type=${type}`], env);
      expect(r.status).toBe(1);
      expect(r.body.ok).toBe(false);
      expect(r.body.text).toBe(
        `tool actor ${tool} does not accept message type "${type}"; it accepts ${accepts} (the call types, and what its recipe lists in mailbox.accepts). Nothing was run.`,
      );
      expect(existsSync(marker)).toBe(false);
    }
    for (const [tool, type] of [["boxed", "mark.now"]] as const) {
      const r = runCli(["message", `to=tool:${tool}`, `type=${type}`], env);
      expect(r.status).toBe(0);
      expect(r.stdout).toContain(`to=tool:${tool} type=${type} message=sent delivered=true`);
      expect(existsSync(marker)).toBe(true);
      rmSync(marker);
    }
  });
});

describe("a value holding a NUL byte", () => {
  it("is reported as a command that could not start, naming the argument, never as an exit code", () => {
    const dir = agentDir("nul-value");
    writeFileSync(join(dir, "recipes", "e.json"), JSON.stringify({ description: "echo", args: ["x"], template: "echo {x}" }));
    const r = runCliJson(["message", "to=tool:e", "type=call", 'body={"x":"a\\u0000b"}'], { PI_CODING_AGENT_DIR: dir });
    expect(r.status).toBe(1);
    expect(r.body.ok).toBe(false);
    expect(r.body.text).toContain('Could not start "echo": argument 1 holds a NUL byte, which no command line can carry');
    expect(r.body.text).not.toContain("Exit code");
  });
});

describe("control characters in what a recipe says", () => {
  it("reach the terminal escaped in the registry's views, and a command's own output as it printed it", () => {
    const dir = agentDir("control-chars");
    const env = { PI_CODING_AGENT_DIR: dir };
    // an escape sequence and a right-to-left override in a description (register_tool lets an agent write one)
    writeFileSync(join(dir, "recipes", "ctrl.json"), JSON.stringify({ description: "d\u001b[31mRED \u202eevil", template: "printf \u001b[32mgreen" }));
    // (the summary twice: the second is the kept answer the installed command prints itself)
    for (const args of [["inspect", "target=tool:ctrl"], ["inspect", "target=recipes", "view=summary", "verbose=true"], ["inspect", "target=recipes", "view=summary", "verbose=true"], ["list"]]) {
      const out = runCli(args, env).stdout;
      if (args[0] === "inspect") expect(out, args.join(" ")).toContain("d\\u001b[31mRED \\u202eevil");
      expect(out, args.join(" ")).not.toMatch(/[\u001b\u202e]/);
    }
    // --json keeps the text itself (JSON escapes it)
    expect(JSON.parse(runCli(["inspect", "target=tool:ctrl", "--json"], env).stdout).text).toContain("d\u001b[31mRED \u202eevil");
    // the command's colours are its own
    expect(runCli(["call", "ctrl"], env).stdout).toBe("\u001b[32mgreen\n");
  });

  it("reach the terminal escaped when a call, spawn or message is refused before any command runs, and in usage errors", () => {
    const dir = agentDir("control-chars-refused");
    const env = { PI_CODING_AGENT_DIR: dir };
    const file = join(dir, "recipes", "escarg.json");
    writeFileSync(file, JSON.stringify({ description: "e", args: ["a\u001b[2J"], template: "echo {a\u001b[2J}" }));
    writeFileSync(join(dir, "recipes", "loud.json"), JSON.stringify({ description: "l", template: "sh -c 'printf \u001b[31mred; exit 3'" }));
    for (const args of [
      ["call", "escarg"],
      ["spawn", `file=${file}`],
      ["call", "no\u001b[2J"],
      ["message", "to=run:x\u001by", "type=control.kill"],
      ["inspect", "target=run:x\u001by"],
      ["ver\u001bb"],
      ["call", "escarg", "k\u001b=1"],
    ]) {
      const r = runCli(args, env);
      expect(r.status, args.join(" ")).not.toBe(0);
      expect(r.stdout + r.stderr, args.join(" ")).toContain("\\u001b");
      expect(r.stdout + r.stderr, args.join(" ")).not.toMatch(/\u001b/);
    }
    // a command that ran and failed prints its own output as it is
    const loud = runCli(["call", "loud"], env);
    expect(loud.status).toBe(1);
    expect(loud.stderr).toContain("\u001b[31mred");
  });
});

describe("spawn template= of a word JSON reads as a number or a boolean", () => {
  it("runs that word as the command: template=true is the command true, not an empty template", () => {
    const env = { PI_CODING_AGENT_DIR: agentDir("spawn-json-word") };
    expect(runCli(["spawn", "template=true"], env)).toMatchObject({ status: 0, stdout: expect.stringMatching(/^\(no output\)\n/) });
    expect(runCli(["spawn", "template=false"], env)).toMatchObject({ status: 1, stderr: expect.stringMatching(/^Exit code 1\n/) });
  });
});

describe("spawn file= of a path that is no recipe", () => {
  it("says a file of another name is no recipe file, and a missing one is missing, each once", () => {
    const env = { PI_CODING_AGENT_DIR: agentDir("spawn-file") };
    const notes = join(scratch, "notes.txt");
    writeFileSync(notes, "echo hi\n");
    expect(runCli(["spawn", `file=${notes}`], env)).toEqual({
      status: 1,
      stdout: "",
      stderr: `Not a recipe file: ${notes} (a recipe file is named <name>.json or <name>.md)\n`,
    });
    const gone = join(scratch, "gone.json");
    expect(runCli(["spawn", `file=${gone}`], env)).toEqual({
      status: 1,
      stdout: "",
      stderr: `Failed to load recipe ${gone}: ENOENT: no such file or directory, open '${gone}'\n`,
    });
  });
});

describe("view=reviews", () => {
  it("counts the lineage of a tool called with pi-recipes call, before anything folded its launch", () => {
    const env = { PI_CODING_AGENT_DIR: agentDir("reviews") };
    expect(runCli(["register_tool", "name=greet", "template=echo hello", "description=Greet"], env).status).toBe(0);
    expect(runCli(["call", "greet"], env)).toMatchObject({ status: 0, stdout: "hello\n" });
    const r = runCli(["inspect", "target=recipes", "view=reviews"], env);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe("automatic_reviews draft=idle tool=idle\nlineages=1 revision_snapshots=0\n");
  });
});

describe("usage carried over from pi-actors", () => {
  it("a recipe's stored usage {calls: 7, last_called} shows in the summary, and the next launch makes it 8", () => {
    const dir = agentDir("carried");
    const last = "2025-01-02T03:04:05.000Z";
    writeFileSync(join(dir, "recipes", "hello.json"), JSON.stringify({ description: "Say hi", template: "echo hi", usage: { calls: 7, last_called: last } }));
    const env = { PI_CODING_AGENT_DIR: dir };
    const before = runCli(["inspect", "target=recipes", "view=summary"], env);
    expect(before.status).toBe(0);
    expect(before.stdout).toContain(`  usage: hello calls=7 last_call=${last}\n`);
    expect(runCli(["call", "hello"], env)).toMatchObject({ status: 0, stdout: "hi\n" });
    const after = runCli(["inspect", "target=recipes", "view=summary"], env).stdout;
    const line = after.split("\n").find((l) => l.startsWith("  usage: hello "));
    expect(line).toMatch(/^  usage: hello calls=8 last_call=\d{4}-\d\d-\d\dT[\d:.]+Z$/);
    // the last call is the launch just made, not the carried one
    expect(line).not.toContain(last);
  });
});

/** `key=value` tokens of a line, as numbers where they are numbers. */
function countsOf(line: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const m of line.matchAll(/(\w+)=(\d+)(?=\s|$)/g)) out[m[1]!] = Number(m[2]);
  return out;
}

describe("the recipe views' counts agree", () => {
  // a copy of the example registry, so usage state is never written into the repository
  const dir = join(scratch, "example");
  // (only the recipe files: other tests may have left usage state beside them)
  cpSync(join(repoRoot, "examples", "agent"), dir, { recursive: true, filter: (from) => !/[\\/]\.[^\\/]+$/.test(from) });
  const env = { PI_CODING_AGENT_DIR: dir };
  const view = (v: string): string => {
    const r = runCli(["inspect", "target=recipes", `view=${v}`], env);
    expect(r.status).toBe(0);
    return r.stdout;
  };

  it("doctor, summary and status (plain, --json and verbose) say the same numbers, and each is what they list", () => {
    const doctor = view("doctor").trimEnd().split("\n");
    const summary = view("summary").trimEnd().split("\n");
    const status = view("status").trimEnd();
    const head = countsOf(doctor[0]!);
    // the findings the doctor lists, counted by severity, are its counts
    const findings = doctor.slice(1).filter((l) => /^(error|warning|info) kind=/.test(l));
    const listed = { errors: 0, warnings: 0, info: 0 };
    for (const l of findings) listed[({ error: "errors", warning: "warnings", info: "info" } as const)[l.split(" ")[0] as "error"]] += 1;
    expect(head).toMatchObject({ ...listed, actions: findings.length });
    // one invalid recipe is one error, however many diagnostics it has
    expect(head).toMatchObject({ errors: 1, warnings: 3, info: 1 });
    // status is the summary's first line, and active is the number of tools the summary lists
    expect(summary[0]).toBe(status);
    const counts = countsOf(status);
    const tools = summary.find((l) => l.startsWith("  tools: "))!.slice("  tools: ".length).split(", ");
    expect(counts["active"]).toBe(tools.length);
    expect(counts["active"]).toBe(5);
    expect(counts["invalid"]).toBe(summary.filter((l) => l.startsWith("  invalid: ")).length);
    expect(counts["diagnostics"]).toBe(summary.filter((l) => l.startsWith("  diagnostic ")).length);
    // recommendations: one number in every view
    expect(counts["recommendations"]).toBe(head["recommendations"]);
    for (const v of ["doctor", "summary", "status"]) {
      const json = runCliJson(["inspect", "target=recipes", `view=${v}`], env).body;
      const details = json.details as { counts: Record<string, number>; recommendations: unknown[]; tools: unknown[]; remediations: unknown[] };
      expect(details.recommendations).toHaveLength(counts["recommendations"]!);
      expect(details.tools).toHaveLength(counts["active"]!);
      expect(details.remediations).toHaveLength(head["actions"]!);
      expect(details.counts).toMatchObject({ ...counts, ...head });
      const verbose = JSON.parse(runCli(["inspect", "target=recipes", `view=${v}`, "verbose=true"], env).stdout) as { counts: unknown };
      expect(verbose.counts).toEqual(details.counts);
    }
  }, 180_000);

  it("doctor reads well in a pipe: advice as written, and the did-you-mean warnings in the plain view", () => {
    writeFileSync(join(dir, "recipes", "typo.json"), JSON.stringify({ descripton: "Say hi", template: "echo hi" }));
    try {
      const text = view("doctor");
      expect(text).not.toMatch(/\w_\w*\/\w|,_|_or_/);
      expect(text).toContain("error kind=invalid id=release_notes: fix recipe syntax/config, or disable/delete/archive it to restore fallback\n");
      expect(text).toContain('\nwarning kind=authoring id=typo: unknown recipe field "descripton"; did you mean "description"?\n');
      expect(text).toContain("\nnext: inspect target=tool:release_notes | ");
      expect(countsOf(text.split("\n")[0]!)).toMatchObject({ errors: 1, warnings: 4, info: 1, actions: 6 });
    } finally {
      rmSync(join(dir, "recipes", "typo.json"));
    }
  });
});

describe("the summary's active list and its count", () => {
  it("details.active holds every name's winner, tool or not, and counts name both its length and the tools among it", () => {
    const dir = agentDir("active-entries");
    const put = (name: string, body: object | string): void =>
      writeFileSync(join(dir, "recipes", `${name}.json`), typeof body === "string" ? body : JSON.stringify(body));
    put("hello", { description: "Say hi", template: "echo hi" });
    put("broken", "not json");
    put("resting", { description: "Off", template: "echo off", disabled: true });
    put("inspect", { description: "Named like a built-in", template: "echo no" });
    const { details } = runCliJson(["inspect", "target=recipes", "view=summary", "verbose=true"], { PI_CODING_AGENT_DIR: dir }).body as unknown as {
      details: { counts: Record<string, number>; tools: { name: string }[]; active: { id: string; tool: boolean; invalid: boolean; disabled: boolean; reserved_name?: true }[] };
    };
    const ids = details.active.map((a) => a.id);
    expect(ids).toEqual(expect.arrayContaining(["broken", "hello", "inspect", "resting"]));
    expect(details.counts["active_entries"]).toBe(details.active.length);
    expect(details.counts["active"]).toBe(details.active.filter((a) => a.tool).length);
    expect(details.counts["active"]).toBe(details.tools.length);
    // every winner that is no tool is counted under one of its reasons
    const c = details.counts;
    expect(c["active_entries"]).toBe(c["active"]! + c["components"]! + c["invalid"]! + c["disabled"]! + details.active.filter((a) => a.reserved_name === true).length);
  });
});
