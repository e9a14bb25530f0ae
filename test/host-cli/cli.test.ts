// The real command on the shipped example registry.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliNodeArgs, repoRoot, runCli, runCliJson } from "../support/cli.js";

const example = { PI_CODING_AGENT_DIR: join(repoRoot, "examples", "agent") };
type Row = Record<string, unknown>;

describe("pi-recipes CLI on examples/agent", () => {
  it("inspect summary --json lists tools, shadowed, invalid, disabled, drafts, diagnostics", () => {
    const { status, body } = runCliJson(["inspect", "target=recipes", "view=summary"], example);
    expect(status).toBe(0);
    expect(body.ok).toBe(true);
    const d = body.details as Record<string, Row[]>;
    for (const key of ["tools", "shadowed", "invalid", "disabled", "drafts", "diagnostics"]) expect(Array.isArray(d[key])).toBe(true);
    for (const key of ["tools", "shadowed", "invalid", "disabled", "drafts"]) {
      for (const row of d[key]!) {
        expect(typeof row["name"]).toBe("string");
        expect(typeof row["path"]).toBe("string");
        expect(["json", "md"]).toContain(row["format"]);
      }
    }
    expect(d["tools"]!.map((t) => t["name"])).toEqual(["call_subagent", "check_tool", "recent_commits", "transcribe_audio", "word_count"]);
    expect(d["shadowed"]!.map((t) => [t["name"], t["format"], String(t["shadowed_by"]).endsWith("recipes/recent_commits.json")])).toEqual([
      ["recent_commits", "md", true],
    ]);
    const invalid = d["invalid"]!;
    expect(invalid.map((t) => t["name"])).toEqual(["release_notes"]);
    expect((invalid[0]!["errors"] as string[]).join(" ")).toContain("release_notes.json");
    expect(d["disabled"]!.map((t) => t["name"])).toEqual(["old_deploy"]);
    expect(d["drafts"]!.map((t) => t["name"])).toEqual(["grep_todos"]);
  });

  it("the text printed is the text of --json", () => {
    const plain = runCli(["inspect", "target=recipes", "view=summary"], example);
    const { body } = runCliJson(["inspect", "target=recipes", "view=summary"], example);
    expect(plain.status).toBe(0);
    expect(plain.stdout).toBe(body.text.endsWith("\n") ? body.text : body.text + "\n");
    expect(plain.stdout).toMatch(/recipes active=\d+ components=\d+ drafts=1 shadowed=1 invalid=1 disabled=1/);
  });

  it("schema prints the JSON parameter schema of a tool", () => {
    const r = runCli(["schema", "check_tool"], example);
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      additionalProperties: false,
      properties: {
        file: { description: "The file to check", type: "string" },
        request_timeout: { description: "Int argument: request_timeout", type: "integer", default: 60000 },
        speed: { description: "Number argument: speed", type: "number", default: 1.5 },
        dry_run: { description: "Bool argument: dry_run", type: "boolean", default: true },
        mode: { description: "Enum argument: mode", enum: ["check", "fix"], type: "string", default: "check" },
      },
      required: ["file"],
      type: "object",
    });
  });

  it("list prints what register_tool lists", () => {
    const r = runCli(["list"], example);
    expect(r.status).toBe(0);
    const [tools, problems] = r.stdout.split("\n\n");
    expect(tools).toBe("Registered tools:\n- call_subagent\n- check_tool\n- recent_commits\n- transcribe_audio\n- word_count");
    // the example's deliberately broken recipe is not silently missing
    expect(problems).toMatch(/^Problems \(details: inspect target=recipes view=doctor\):\n- [^]*release_notes\.json: Expected double-quoted/);
  });

  it("exit 1 when the registry answers with an error", () => {
    const unknown = runCli(["schema", "nope"], example);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain("Unknown tool: nope");
    const invalid = runCliJson(["schema", "release_notes"], example);
    expect(invalid.status).toBe(1);
    expect(invalid.body.ok).toBe(false);
    expect(invalid.body.text).toContain("release_notes.json");
    expect(runCli(["inspect", "target=recipes", "view=bogus"], example).status).toBe(1);
    const empty = runCli(["inspect", "target="], example);
    expect(empty.status).toBe(1);
    expect(empty.stderr).toContain('Unknown inspect target: "".');
    // an option the target has no use for is refused, never ignored unseen
    expect(runCli(["inspect", "target=tool:word_count", "view=bogus"], example)).toMatchObject({
      status: 1,
      stderr: "inspect tool:word_count has one view and takes no view=bogus; views belong to target=recipes, run:<id> and tool:pi-actors.\n",
    });
    expect(runCli(["inspect", "target=recipes", "lines=3"], example)).toMatchObject({
      status: 1,
      stderr: "lines applies to target=run:<id> only (the tail of a run's output); inspect recipes takes no lines.\n",
    });
  });

  it("exit 2 on a malformed command line", () => {
    // (bare `pi-recipes` is the help, exit 0: test/host-cli/edges.test.ts)
    expect(runCli([""], example).status).toBe(2);
    expect(runCli(["frobnicate"], example).status).toBe(2);
    expect(runCli(["schema"], example).status).toBe(2);
    // nothing named to inspect, as schema without a tool
    const noTarget = runCliJson(["inspect"], example);
    expect(noTarget.status).toBe(2);
    expect(noTarget.body).toMatchObject({ ok: false, text: "inspect requires target=recipes, target=tool:<name> or target=run:<id>", details: { usage_error: true } });
    expect(runCli(["list", "x=1"], example).status).toBe(2);
    const twice = runCli(["inspect", "target=a", "target=b"], example);
    expect(twice.status).toBe(2);
    expect(twice.stderr).toContain('argument "target" given twice');
  });

  it("a reader that goes away (`| head -0`) ends the command quietly, without a stack trace", async () => {
    const child = spawn(process.execPath, [...cliNodeArgs(), "list"], {
      cwd: repoRoot,
      env: { ...process.env, ...example },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout.destroy();
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((done) => child.on("close", done));
    expect(stderr).not.toContain("EPIPE");
    expect(code).toBe(0);
  });

  it("an empty agent dir has no tools", () => {
    const r = runCli(["list"], { PI_CODING_AGENT_DIR: join(repoRoot, "examples", "no-such-agent") });
    expect(r.status).toBe(0);
    expect(r.stdout).toBe("No registered tools.\n");
  });
});
