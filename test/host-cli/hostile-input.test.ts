// No stack trace from any input: every verb of the real command, fed hostile values (very long,
// `..`, control characters, a NUL byte, malformed JSON) and run in a recipe root that is a
// symlink loop, fails with exit 1 or 2 and an error whose first line says what is wrong, never
// "internal error" and never a stack frame. A malformed command line is exactly one line; an
// answer of the registry may go on after its first line where its text is meant to (the call
// shape of a tool, the stderr of a command that could not run).
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliNodeArgs, repoRoot } from "../support/cli.js";

interface Run {
  readonly args: readonly string[];
  readonly agent: string;
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** the real CLI, asynchronously, so that a few runs share the machine's cores */
function runAsync(args: readonly string[], agent: string): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...cliNodeArgs(), ...args], {
      cwd: repoRoot,
      env: { ...process.env, PI_CODING_AGENT_DIR: agent, PI_RECIPES_REVIEWER: "" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ args, agent, status, stdout, stderr });
    });
  });
}

async function runAll(jobs: ReadonlyArray<readonly [readonly string[], string]>, parallel = 2): Promise<Run[]> {
  const out: Run[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < jobs.length) {
      const [args, agent] = jobs[next++]!;
      out.push(await runAsync(args, agent));
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return out;
}

const HOSTILE: Readonly<Record<string, string>> = {
  long: "a".repeat(5000),
  dots: "../../../../no-such-folder/../../etc/passwd",
  control: "a\u0001b\u001b[31mc\u007fd\te",
  // the command line decodes a quoted value as JSON: this is how a NUL byte gets in
  nul: '"a\\u0000b"',
  json: '{"a":[1,',
};

/** every verb, each parameter that names something (tools are given values to run on too) */
const forms = (v: string): string[][] => [
  ["list", v],
  ["inspect", `target=${v}`],
  ["inspect", "target=recipes", `view=${v}`],
  ["inspect", `target=run:${v}`],
  ["inspect", `target=tool:${v}`],
  ["schema", v],
  ["call", v],
  ["call", "echo_it", `${v}=1`],
  ["spawn", `template=${v}`],
  ["spawn", `file=${v}`],
  ["spawn", `recipe=${v}`],
  ["spawn", "template=echo {x}", `values=${v}`],
  ["message", `to=${v}`, "type=invoke"],
  ["message", "to=tool:echo_it", `type=${v}`],
  ["message", "to=tool:echo_it", "type=invoke", `body=${v}`],
  ["message", `to=run:${v}`, "type=control.kill"],
  ["register_tool", `name=${v}`, "template=null"],
  ["register_tool", "name=x", `draft=${v}`],
  // (a path such as `../../etc/passwd`, a word with control characters and unbalanced braces are
  // valid command templates, written with a warning at most: only the other values are errors)
  ...(v === HOSTILE["nul"] || v === HOSTILE["long"] ? [["register_tool", "name=x", "description=d", `template=${v}`]] : []),
  ["review", `scope=${v}`],
  ["review", "--scripted", v],
  ["watch", v],
  ["mcp", "--port", v],
];

/** verbs that touch the recipe root, run where that root is a symlink loop */
const inLoop: string[][] = [
  ["register_tool"],
  ["register_tool", "name=x", "description=d", "template=echo x"],
  ["register_tool", "name=x", "template=null"],
  ["register_tool", "name=x", "draft=d.json"],
  ["review"],
  ["schema", "x"],
  ["call", "x"],
  ["message", "to=tool:x", "type=invoke"],
];

let base: string;
let agent: string;
let loop: string;
beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), "pi-recipes-hostile-"));
  agent = join(base, "agent");
  mkdirSync(join(agent, "recipes"), { recursive: true });
  writeFileSync(join(agent, "recipes", "echo_it.json"), JSON.stringify({ description: "Echo", template: "echo {text}" }));
  loop = join(base, "loop");
  mkdirSync(loop);
  symlinkSync(join(loop, "recipes"), join(loop, "recipes")); // the recipe root points at itself
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** The lines that make up the error: notes about the agent dir and the pointer to help aside. */
const errorLines = (r: Run): string[] =>
  (r.stderr + (r.status === 0 ? "" : r.stdout))
    .split("\n")
    .filter((l) => l !== "" && !l.startsWith("pi-recipes: note:") && !/^See 'pi-recipes( \S+)? --help'\.$/.test(l));

const shown = (r: Run): string => `${r.args.map((a) => JSON.stringify(a.length > 40 ? `${a.slice(0, 40)}…` : a)).join(" ")} in ${r.agent === agent ? "agent" : "loop"}`;

describe("hostile input through every verb", () => {
  it("answers each with one line of error, exit 1 or 2, no stack trace", async () => {
    const jobs: Array<readonly [string[], string]> = [
      ...Object.values(HOSTILE).flatMap((v) => forms(v).map((args) => [args, agent] as const)),
      ...inLoop.map((args) => [args, loop] as const),
    ];
    const runs = await runAll(jobs);
    const problems = runs.flatMap((r) => {
      const text = r.stdout + r.stderr;
      const wrong: string[] = [];
      if (r.status !== 1 && r.status !== 2) wrong.push(`exit ${String(r.status)}`);
      if (/^\s+at /m.test(text)) wrong.push("a stack frame");
      if (text.includes("internal error")) wrong.push('"internal error"');
      const lines = errorLines(r);
      if (r.stdout !== "") wrong.push(`stdout ${JSON.stringify(r.stdout.slice(0, 200))}`);
      if (lines.length === 0 || lines[0]!.trim() === "") wrong.push("no error text");
      if (r.status === 2 && lines.length !== 1) wrong.push(`${lines.length} lines of usage error: ${JSON.stringify(lines.join("\n").slice(0, 300))}`);
      return wrong.length === 0 ? [] : [`${shown(r)}: ${wrong.join(", ")}`];
    });
    expect(runs).toHaveLength(jobs.length);
    expect(problems).toEqual([]);
  }, 600_000);
});
