// The package users get: `npm pack`, installed from the tarball into an empty folder, then its
// built entry points are run as a user runs them: the `pi-recipes` bin, its MCP server through
// the MCP SDK client, and its Pi extension from the installed `dist/` through the Pi SDK. Nothing
// here depends on how `dist/` is built; only on what the package.json ships and points to.
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, echoLast, makeSandbox, startPi } from "../host-pi/sdk-harness.js";
import { packedTarball } from "../support/packed-package.js";
import { withExtraCa } from "../support/extra-ca.js";

const REPO = resolve(import.meta.dirname, "../..");
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

let work = "";
let installed = "";
let bin = "";
let agentDir = "";

const envFor = (dir: string): Record<string, string> => {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  env["PI_CODING_AGENT_DIR"] = dir;
  return env;
};

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "pi-recipes-pack-"));
  // `npm pack` runs `prepare` (or packs dist/ as it is when that is a build of the current files),
  // so the tarball holds whatever the build produces today (made once
  // per test run, test/support/packed-package.ts)
  const tarball = await packedTarball();
  const app = join(work, "app");
  cpSync(join(REPO, "examples", "agent"), join(work, "agent"), { recursive: true });
  agentDir = join(work, "agent");
  writeFileSync(join(agentDir, "recipes", "greet.json"), JSON.stringify({ description: "Say hello", template: "echo hello {who}" }));
  execFileSync("mkdir", ["-p", app]);
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "pack-test-app", version: "1.0.0", private: true }));
  execFileSync(npm, ["install", "--no-audit", "--no-fund", "--prefer-offline", tarball], { cwd: app, env: withExtraCa(), encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  installed = join(app, "node_modules", "pi-recipes");
  bin = join(app, "node_modules", ".bin", "pi-recipes");
}, 600_000);

afterAll(() => {
  if (work !== "") rmSync(work, { recursive: true, force: true });
});

describe("the packed package", () => {
  it("ships the built entry points package.json names, and no sources or tests", () => {
    const manifest = JSON.parse(readFileSync(join(installed, "package.json"), "utf8")) as { bin: Record<string, string>; pi: { extensions: string[] } };
    expect(realpathSync(bin)).toBe(realpathSync(join(installed, manifest.bin["pi-recipes"]!)));
    for (const ext of manifest.pi.extensions) expect(readFileSync(join(installed, ext), "utf8")).not.toBe("");
    const files = execFileSync("find", [".", "-path", "./node_modules", "-prune", "-o", "-type", "f", "-print"], { cwd: installed, encoding: "utf8" }).split("\n");
    expect(files.filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))).toEqual([]);
    expect(files.filter((f) => f.includes(".test."))).toEqual([]);
  });

  it("its pi-recipes bin lists the tools of an agent dir", () => {
    const out = execFileSync(bin, ["list"], { cwd: work, env: envFor(agentDir), encoding: "utf8" });
    // the example registry has an invalid recipe on purpose; list names it after the tools
    expect(out).toBe(
      [
        "Registered tools:", "- call_subagent", "- check_tool", "- greet", "- recent_commits", "- transcribe_audio", "- word_count", "",
        "Problems (details: inspect target=recipes view=doctor):",
        "- Recipe release_notes is invalid and blocks lower-priority recipes",
        `- Invalid recipe: ${join(agentDir, "recipes", "release_notes.json")}: Expected double-quoted property name in JSON at position 116 (line 4 column 1)`,
        "",
      ].join("\n"),
    );
  });

  it("its MCP server answers the MCP SDK client over stdio: lists and calls a tool", async () => {
    const transport = new StdioClientTransport({ command: bin, args: ["mcp"], cwd: work, env: envFor(agentDir), stderr: "pipe" });
    const client = new Client({ name: "pack-test", version: "1.0.0" });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain("greet");
      expect(tools.map((t) => t.name)).toContain("register_tool");
      const result = await client.callTool({ name: "greet", arguments: { who: "package" } });
      expect(result.isError).toBeFalsy();
      expect((result.content as { type: string; text: string }[]).map((c) => c.text).join("")).toBe("hello package");
    } finally {
      await client.close();
    }
  });

  it("its Pi extension loads from the installed dist/ through the Pi SDK and runs a recipe", async () => {
    const sandbox = makeSandbox();
    writeFileSync(join(sandbox.recipeRoot, "greet.json"), JSON.stringify({ description: "Say hello", template: "echo hello {who}" }));
    const manifest = JSON.parse(readFileSync(join(installed, "package.json"), "utf8")) as { pi: { extensions: string[] } };
    // the extension finds its agent dir as in a user's Pi: from the environment
    const savedDir = process.env["PI_CODING_AGENT_DIR"];
    process.env["PI_CODING_AGENT_DIR"] = sandbox.agentDir;
    const pi = await startPi({
      sandbox,
      load: "path",
      extensionPath: join(installed, manifest.pi.extensions[0]!),
      responses: [call("greet", { who: "pi" }), call("inspect", { target: "tool:pi-actors", view: "status" }), echoLast("saw: ")],
    });
    try {
      await pi.session.prompt("greet pi");
      await pi.waitForRuns(1);
      expect(pi.outcomes[0]).toEqual({ tool: "greet", isError: false, text: "hello pi" });
      // the extension that ran is the installed one, from its built files
      const status = pi.outcomes[1]!.text;
      expect(status).toContain(`path=${realpathSync(installed)} `);
      expect(status).toContain(`entrypoint=${join(realpathSync(installed), manifest.pi.extensions[0]!)} `);
      expect(status).toContain(`packaged_recipes=${join(realpathSync(installed), "recipes")}`);
    } finally {
      await pi.close();
      if (savedDir === undefined) delete process.env["PI_CODING_AGENT_DIR"];
      else process.env["PI_CODING_AGENT_DIR"] = savedDir;
      sandbox.cleanup();
    }
  });
});
