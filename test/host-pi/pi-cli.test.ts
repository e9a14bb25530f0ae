// The extension in the real `pi` command line (@earendil-works/pi-coding-agent 1.x, Node 22),
// driven by a scripted provider extension, in print mode and in RPC mode, without a network.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { EXTENSION_DIR, makeSandbox, type PiSandbox } from "./sdk-harness.js";
import { ensurePiCli, offlinePrefix, type PiCli } from "./pi-cli-setup.js";
import { nodeArgsFor, repoRoot } from "../support/cli.js";

const PROVIDER = join(import.meta.dirname, "fixtures", "scripted-provider.ts");
const BASE_ARGS = ["--offline", "--no-session", "--no-builtin-tools", "-ns", "-np", "-nc", "--provider", "pi-script", "--model", "scripted"];

let piCli: PiCli = { ok: false, reason: "not set up" };
let offline: ReturnType<typeof offlinePrefix> = { argv: [] };
let sandbox: PiSandbox;

beforeAll(() => {
  piCli = ensurePiCli();
  offline = offlinePrefix();
  if (!piCli.ok) console.warn(`[host-pi CLI tests skipped] ${piCli.reason}`);
  if (offline.note !== undefined) console.warn(`[host-pi CLI tests] ${offline.note}`);
}, 300_000);

beforeEach(() => {
  sandbox = makeSandbox();
});
afterEach(() => sandbox.cleanup());

function envFor(steps: unknown[]): NodeJS.ProcessEnv {
  const script = join(sandbox.root, "script.json");
  writeFileSync(script, JSON.stringify(steps));
  return { ...process.env, PI_CODING_AGENT_DIR: sandbox.agentDir, PI_SCRIPT_FILE: script, PI_ACTORS_AUTOMATIC_REVIEW: "0" };
}

function command(args: readonly string[]): [string, string[]] {
  if (!piCli.ok) throw new Error(piCli.reason);
  const argv = [...offline.argv, piCli.node, piCli.cli, ...args];
  return [argv[0]!, argv.slice(1)];
}

describe("host-pi in the real pi CLI (1.x on Node 22)", () => {
  test("print mode (-p) with -e: a recipe tool and the runtime status", async (ctx) => {
    if (!piCli.ok) return ctx.skip();
    writeFileSync(join(sandbox.recipeRoot, "pre_made.json"), JSON.stringify({ description: "Made before", template: "echo made {x}" }));
    const env = envFor([
      { tool: "pre_made", args: { x: "print" } },
      { tool: "inspect", args: { target: "tool:pi-actors", view: "status" } },
      { text: "status:", echoLastToolResult: true },
    ]);
    const [cmd, args] = command(["-p", ...BASE_ARGS, "-ne", "-e", PROVIDER, "-e", join(EXTENSION_DIR, "index.ts"), "go"]);
    const run = spawnSync(cmd, args, { cwd: sandbox.cwd, env, encoding: "utf8", timeout: 60_000 });
    expect(run.stderr).not.toMatch(/Extension error|Error:/);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(
      new RegExp(`^status:pi-recipes version=\\S+ mode=source automatic_review=false reviewer=\\S+ path=\\S+ entrypoint=${join(EXTENSION_DIR, "index.ts")}`),
    );
    expect(run.stdout).toContain(`recipes=${sandbox.recipeRoot}`);
  });

  test("RPC mode after `pi install`: register_tool, the extension starts the next run, the new tool runs there", async (ctx) => {
    if (!piCli.ok) return ctx.skip();
    const env = envFor([
      { tool: "register_tool", args: { name: "cli_greet", description: "Greet from the CLI", template: "echo hello {who}" } },
      { text: "registered" },
      { tool: "cli_greet", args: { who: "rpc" } },
      { tool: "message", args: { to: "tool:cli_greet", type: "call", body: { who: "message" } } },
      { text: "done:", echoLastToolResult: true },
    ]);
    const [icmd, iargs] = command(["install", EXTENSION_DIR]);
    const install = spawnSync(icmd, iargs, { cwd: sandbox.cwd, env, encoding: "utf8", timeout: 60_000 });
    expect(install.status, install.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(sandbox.agentDir, "settings.json"), "utf8")).packages).toHaveLength(1);

    const [cmd, args] = command(["--mode", "rpc", ...BASE_ARGS, "-e", PROVIDER]);
    const child = spawn(cmd, args, { cwd: sandbox.cwd, env, stdio: ["pipe", "pipe", "pipe"] });
    const events: { type: string; toolName?: string; isError?: boolean; result?: { content?: { text?: string }[] } }[] = [];
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    let buffer = "";
    const ended = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out; events: ${events.map((e) => e.type).join(",")}; stderr: ${stderr}`)), 60_000);
      child.stdout.on("data", (d: Buffer) => {
        buffer += d.toString();
        let nl;
        while ((nl = buffer.indexOf("\n")) >= 0) {
          const line = buffer.slice(0, nl);
          buffer = buffer.slice(nl + 1);
          if (line.trim() === "") continue;
          const event = JSON.parse(line) as (typeof events)[number];
          events.push(event);
          if (events.filter((e) => e.type === "agent_end").length === 2) {
            clearTimeout(timer);
            resolve();
          }
        }
      });
      child.on("exit", (code) => reject(new Error(`pi exited early (${code}): ${stderr}`)));
    });
    child.stdin.write(JSON.stringify({ id: "1", type: "prompt", message: "make a tool and use it" }) + "\n");
    try {
      await ended;
    } finally {
      // wait for its shut-down (ledger folding under the locks in the recipe folder) before the
      // sandbox is removed
      const exited = child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once("exit", resolve));
      child.kill();
      await exited;
    }
    const tools = events
      .filter((e) => e.type === "tool_execution_end")
      .map((e) => ({ tool: e.toolName, isError: e.isError, text: (e.result?.content ?? []).map((c) => c.text ?? "").join("") }));
    expect(tools.map((t) => `${t.tool}:${t.isError}`)).toEqual(["register_tool:false", "cli_greet:false", "message:false"]);
    expect(tools[0]!.text).toBe('Registered tool "cli_greet" (args: who).');
    expect(tools[1]!.text.trim()).toBe("hello rpc");
    expect(tools[2]!.text).toContain("reason=tool_invoked tool=cli_greet invoked=true\nhello message");
  });
});

// The same Node 22 runs the pi-recipes command's loader (host-cli/code-cache.ts): there node's own
// cache of compiled code serves the command's file and nothing is kept beside it. Here rather than
// in test/host-cli/code-cache.test.ts, so that one file installs the harness (npm ci in
// test/pi-cli), never two at once.
describe("the pi-recipes command's code cache on Node 22", () => {
  test("node's own cache serves the file: nothing is kept beside it", (ctx) => {
    if (!piCli.ok) return ctx.skip();
    const dir = mkdtempSync(join(tmpdir(), "pi-code-cache-22-"));
    try {
      const file = join(dir, "command.cjs");
      writeFileSync(file, `process.stdout.write(require("node:path").basename(__filename) + " " + process.version.split(".")[0] + "\\n");\n`);
      const nodeCache = join(dir, "node-cache");
      const runner = nodeArgsFor(join(repoRoot, "test", "support", "run-with-code-cache.ts"));
      for (let i = 0; i < 2; i++) {
        const r = spawnSync(piCli.node, [...runner, file], { encoding: "utf8", timeout: 60_000, env: { ...process.env, NODE_COMPILE_CACHE: nodeCache, XDG_CACHE_HOME: join(dir, "xdg") } });
        expect({ status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({ status: 0, stdout: "command.cjs v22\n", stderr: "" });
      }
      expect(existsSync(join(dir, ".command.cjs.v8"))).toBe(false);
      expect(existsSync(join(dir, "xdg"))).toBe(false);
      expect(readdirSync(nodeCache).length).toBeGreaterThan(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
