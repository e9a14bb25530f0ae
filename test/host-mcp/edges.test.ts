// What an MCP client and its operator are told at the edges: what the server serves (stderr),
// where relative paths resolve (the client's first MCP root), and a tool reached through
// `message` passes the same stale-call gate as a direct call.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { startHttpServer } from "./http-harness.js";
import { unaccountedLaunch, type CallContext } from "../../runtime/verbs/call.js";
import { connect, makeAgentDir, REPO, SERVER_ARGS, serverEnv, textOf, type AgentDir, type Connected } from "./harness.js";
import { makeNodeFileSystem } from "../../adapters/fs/node.js";

let agent: AgentDir | undefined;
let mcp: Connected | undefined;
afterEach(async () => {
  await mcp?.close();
  agent?.cleanup();
  mcp = undefined;
  agent = undefined;
});

/** Waits until the server's stderr holds `text` (it writes its start-up lines before serving). */
async function stderrContaining(stderr: () => string, text: string): Promise<string> {
  for (let i = 0; i < 200 && !stderr().includes(text); i++) await new Promise((r) => setTimeout(r, 50));
  return stderr();
}

describe("the MCP server says what it serves", () => {
  it("stdio: prints the agent dir and the recipe roots on stderr", async () => {
    agent = makeAgentDir();
    agent.write("greet", { template: "echo hello" });
    mcp = await connect(agent);
    const err = await stderrContaining(mcp.stderr, "recipe roots:");
    expect(err).toContain(`agent dir ${agent.dir} (from PI_CODING_AGENT_DIR); recipe roots: ${agent.recipes} (your recipes), ${join(REPO, "recipes")} (packaged components)`);
    expect(err).not.toContain("does not exist");
  });

  it("stdio: warns when the agent dir does not exist", async () => {
    agent = makeAgentDir();
    const missing = join(agent.dir, "no-such-agent");
    mcp = await connect({ ...agent, dir: missing });
    const err = await stderrContaining(mcp.stderr, "does not exist");
    expect(err).toContain(`warning: the agent dir ${missing} does not exist, so no recipe tools are served; set PI_CODING_AGENT_DIR`);
  });

  it("--http: prints the agent dir and warns when it does not exist", async () => {
    agent = makeAgentDir();
    const missing = join(agent.dir, "no-such-agent");
    const server = await startHttpServer({ ...agent, dir: missing });
    try {
      expect(server.stderr()).toContain(`agent dir ${missing} (from PI_CODING_AGENT_DIR); recipe roots: ${join(missing, "recipes")} (your recipes)`);
      expect(server.stderr()).toContain(`warning: the agent dir ${missing} does not exist`);
    } finally {
      await server.stop();
    }
  });
});

describe("relative path values", () => {
  it("resolve against the client's first MCP root when it offers roots, else the server's working directory", async () => {
    agent = makeAgentDir();
    agent.write("show", { description: "Print a file", template: "cat {file:path}" });
    const project = mkdtempSync(join(tmpdir(), "pi-recipes-root-"));
    try {
      writeFileSync(join(project, "note.txt"), "from the client's root\n");
      const transport = new StdioClientTransport({ command: process.execPath, args: SERVER_ARGS, cwd: REPO, env: serverEnv(agent.dir), stderr: "pipe" });
      const client = new Client({ name: "roots-client", version: "1.0.0" }, { capabilities: { roots: { listChanged: true } } });
      client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [{ uri: pathToFileURL(project).href, name: "project" }, { uri: pathToFileURL(REPO).href }] }));
      await client.connect(transport);
      try {
        const r = await client.callTool({ name: "show", arguments: { file: "note.txt" } });
        expect(textOf(r)).toBe("from the client's root");
        expect(r.isError).toBeFalsy();
      } finally {
        await client.close();
      }
      // a client without roots: the server's working directory (the repository here)
      mcp = await connect(agent);
      const plain = await mcp.client.callTool({ name: "show", arguments: { file: "note.txt" } });
      expect(plain.isError).toBe(true);
      const own = await mcp.client.callTool({ name: "show", arguments: { file: "package.json" } });
      expect(textOf(own)).toContain('"name": "pi-recipes"');
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });
});

describe("the MCP message tool", () => {
  it("goes through the stale-call gate: a tool changed since the client's last list is refused once, not run", async () => {
    agent = makeAgentDir();
    agent.write("greet", { description: "Say hello", template: "echo hello {who}" });
    mcp = await connect(agent);
    await mcp.client.listTools();
    const seen = mcp.listChanged();
    agent.write("greet", { description: "Say hello", template: "echo CHANGED {who}" });
    await mcp.nextListChanged(seen);
    const stale = await mcp.client.callTool({ name: "message", arguments: { to: "tool:greet", type: "invoke", body: { who: "x" } } });
    expect(stale.isError).toBe(true);
    expect(textOf(stale)).toContain('Tool "greet" changed since your last tools/list');
    expect(textOf(stale)).not.toContain("CHANGED x");
    // shown the new definition by the refusal, the caller may retry
    const retried = await mcp.client.callTool({ name: "message", arguments: { to: "tool:greet", type: "invoke", body: { who: "x" } } });
    expect(retried.isError).toBeFalsy();
    expect(textOf(retried)).toContain("CHANGED x");
  });
});

/** until the client's tool list shows a tool described as `description` (5 s at most) */
async function listed(mcp: Connected, description: string): Promise<void> {
  for (let i = 0; i < 100 && !(await mcp.client.listTools()).tools.some((t) => t.description === description); i++) await new Promise((r) => setTimeout(r, 50));
}

describe("a JSON twin written beside a Markdown tool", () => {
  it("is never passed over by a call made at once: the Markdown's command does not run", async () => {
    agent = makeAgentDir();
    const md = join(agent.recipes, "ver.md");
    mcp = await connect(agent);
    for (let round = 0; round < 3; round++) {
      writeFileSync(md, `---\ndescription: md\n---\n\n\`\`\`template\necho FROM_MD_${round}\n\`\`\`\n`);
      rmSync(join(agent.recipes, "ver.json"), { force: true });
      // the client sees the Markdown tool
      await listed(mcp, "md");
      writeFileSync(join(agent.recipes, "ver.json"), JSON.stringify({ description: "json", template: `echo FROM_JSON_${round}` }));
      const r = await mcp.client.callTool({ name: "ver", arguments: {} });
      expect(textOf(r), `round ${round}`).not.toContain("FROM_MD");
      if (r.isError === true) expect(textOf(r)).toMatch(/changed since your last tools\/list|source changed/);
      else expect(textOf(r)).toContain(`FROM_JSON_${round}`);
    }
  }, 60_000);
});

describe("a recipe renamed, and the new name called at once", () => {
  it("runs under its new name, called or sent a message, and a name no file has is still refused as unknown", async () => {
    agent = makeAgentDir();
    mcp = await connect(agent);
    for (let round = 0; round < 3; round++) {
      const from = join(agent.recipes, `old_${round}.json`);
      writeFileSync(from, JSON.stringify({ description: `round ${round}`, template: `echo RENAMED_${round}` }));
      await listed(mcp, `round ${round}`);
      // the call goes out before the watcher's event of the rename can have been handled
      renameSync(from, join(agent.recipes, `new_${round}.json`));
      const r = await mcp.client.callTool({ name: `new_${round}`, arguments: {} });
      expect(textOf(r), `round ${round}`).toContain(`RENAMED_${round}`);
    }
    // the same through a message to the tool
    writeFileSync(join(agent.recipes, "old_m.json"), JSON.stringify({ description: "by message", template: "echo BY_MESSAGE" }));
    await listed(mcp, "by message");
    renameSync(join(agent.recipes, "old_m.json"), join(agent.recipes, "new_m.json"));
    const sent = await mcp.client.callTool({ name: "message", arguments: { to: "tool:new_m", type: "call", body: {} } });
    expect(textOf(sent)).toContain("BY_MESSAGE");
    const unknown = await mcp.client.callTool({ name: "no_such_tool", arguments: {} });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toMatch(/^Unknown tool: no_such_tool\./);
    // a name that is no file name is refused without looking outside the recipe folder
    const outside = await mcp.client.callTool({ name: "../x", arguments: {} });
    expect(outside.isError).toBe(true);
    expect(textOf(outside)).toMatch(/^Unknown tool: \.\.\/x\./);
  }, 60_000);
});

describe("an edit that adds a default, and a call made at once without that value", () => {
  it("is judged by the file as it is now, never refused with the schema the edit replaced", async () => {
    agent = makeAgentDir();
    const file = join(agent.recipes, "greet.json");
    mcp = await connect(agent);
    for (let round = 0; round < 3; round++) {
      writeFileSync(file, JSON.stringify({ description: `needs a name ${round}`, template: "echo hello {name}" }));
      await listed(mcp, `needs a name ${round}`);
      writeFileSync(file, JSON.stringify({ description: `has a default ${round}`, template: "echo hello {name}", defaults: { name: `world${round}` } }));
      const r = await mcp.client.callTool({ name: "greet", arguments: {} });
      expect(textOf(r), `round ${round}`).not.toContain("Missing");
      if (r.isError === true) {
        // refused once with the tool as it is now: its new description and schema
        expect(textOf(r)).toMatch(/changed since your last tools\/list|source changed/);
        expect(JSON.stringify(r.structuredContent)).toContain(`has a default ${round}`);
      } else expect(textOf(r)).toContain(`hello world${round}`);
    }
  }, 60_000);
});

describe("a value missing for a step the run reached, while the file gets a description-only edit", () => {
  it("is refused once: the steps before it never run a second time", async () => {
    agent = makeAgentDir();
    const log = join(agent.dir, "ran.log");
    const file = join(agent.recipes, "late.json");
    const recipe = (description: string): string =>
      JSON.stringify({ description, args: ["flag", "missing"], template: [`sh -c 'echo ran >> ${log}; sleep 1'`, { when: "{flag}", template: "echo {missing}" }] });
    writeFileSync(file, recipe("first"));
    mcp = await connect(agent);
    await listed(mcp, "first");
    const call = mcp.client.callTool({ name: "late", arguments: { flag: true } });
    // the edit lands while the first step runs
    await new Promise((r) => setTimeout(r, 400));
    writeFileSync(file, recipe("second"));
    const r = await call;
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain("missing");
    expect(readFileSync(log, "utf8")).toBe("ran\n");
  }, 60_000);
});

describe("a recipe folder that is a symbolic link", () => {
  it("is followed when the link is swapped for one to another folder, as a deploy swaps it", async () => {
    agent = makeAgentDir();
    rmSync(agent.recipes, { recursive: true });
    const [a, b] = [join(agent.dir, "dA"), join(agent.dir, "dB")];
    mkdirSync(a);
    mkdirSync(b);
    writeFileSync(join(a, "only_a.json"), JSON.stringify({ description: "a", template: "echo A" }));
    writeFileSync(join(b, "only_b.json"), JSON.stringify({ description: "b", template: "echo B" }));
    symlinkSync(a, agent.recipes);
    mcp = await connect(agent);
    const names = async (): Promise<string[]> => (await mcp!.client.listTools()).tools.map((t) => t.name).filter((n) => n.endsWith("_a") || n.endsWith("_b"));
    expect(await names()).toEqual(["only_a"]);
    const seen = mcp.listChanged();
    symlinkSync(b, join(agent.dir, "next"));
    renameSync(join(agent.dir, "next"), agent.recipes);
    await mcp.nextListChanged(seen);
    for (let i = 0; i < 100 && (await names()).join() !== "only_b"; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await names()).toEqual(["only_b"]);
    expect(textOf(await mcp.client.callTool({ name: "only_b", arguments: {} }))).toContain("B");
    // and files written into the new target are seen
    writeFileSync(join(b, "new_b.json"), JSON.stringify({ description: "n", template: "echo N" }));
    for (let i = 0; i < 100 && (await names()).length < 2; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await names()).toEqual(["new_b", "only_b"].sort());
  }, 60_000);
});

describe("a FIFO named like a recipe, made while the server runs", () => {
  it("is seen as discovery sees it: invalid, and shadowing the Markdown tool of its name", async () => {
    agent = makeAgentDir();
    writeFileSync(join(agent.recipes, "ver.md"), "---\ndescription: md\n---\n\n```template\necho FROM_MD\n```\n");
    mcp = await connect(agent);
    expect((await mcp.client.listTools()).tools.map((t) => t.name)).toContain("ver");
    const seen = mcp.listChanged();
    expect(spawnSync("mkfifo", [join(agent.recipes, "ver.json")]).status).toBe(0);
    await mcp.nextListChanged(seen);
    expect((await mcp.client.listTools()).tools.map((t) => t.name)).not.toContain("ver");
    const r = await mcp.client.callTool({ name: "ver", arguments: {} });
    expect(r.isError).toBe(true);
    expect(textOf(r)).not.toContain("FROM_MD");
  }, 60_000);
});

describe("message to a recipe tool over MCP", () => {
  it("a type the tool does not take (a run control, a review control, a typo) is refused and runs nothing", async () => {
    agent = makeAgentDir();
    const marker = join(agent.dir, "ran");
    agent.write("sidefx", { description: "touch a marker", template: `touch ${marker}` });
    mcp = await connect(agent);
    await mcp.client.listTools();
    for (const type of ["control.kill", "review.retry", "bogus"]) {
      const r = await mcp.client.callTool({ name: "message", arguments: { to: "tool:sidefx", type } });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toBe(`tool actor sidefx does not accept message type "${type}"; it accepts call, invoke, run (the call types, and what its recipe lists in mailbox.accepts). Nothing was run.`);
      expect(existsSync(marker)).toBe(false);
    }
    const called = await mcp.client.callTool({ name: "message", arguments: { to: "tool:sidefx", type: "call" } });
    expect(called.isError).toBeFalsy();
    expect(existsSync(marker)).toBe(true);
  });
});

describe("a listed tool that changed without a watcher event, or stopped loading", () => {
  it("an edited import outside the recipe folder is refused once as a change, then runs as edited", async () => {
    agent = makeAgentDir();
    const comp = join(agent.dir, "comps", "c.json");
    mkdirSync(join(agent.dir, "comps"));
    writeFileSync(comp, JSON.stringify({ args: ["w"], template: "echo ONE {w}" }));
    agent.write("imp", { args: ["w"], imports: { c: comp }, template: { name: "c" } });
    mcp = await connect(agent);
    await mcp.client.listTools();
    expect(textOf(await mcp.client.callTool({ name: "imp", arguments: { w: "a" } })).trim()).toBe("ONE a");
    writeFileSync(comp, JSON.stringify({ args: ["w"], template: "echo TWO {w}" }));
    const stale = await mcp.client.callTool({ name: "imp", arguments: { w: "a" } });
    expect(stale.isError).toBe(true);
    expect(textOf(stale)).toContain('Tool "imp" changed since your last tools/list (its recipe');
    expect(textOf(stale)).not.toContain("ONE a");
    expect(textOf(await mcp.client.callTool({ name: "imp", arguments: { w: "a" } })).trim()).toBe("TWO a");
  });

  it("a call right after an edit, before the watcher says so, is refused once with the new schema; a description-only edit runs", async () => {
    agent = makeAgentDir();
    agent.write("alpha", { description: "A", template: "echo v1" });
    mcp = await connect(agent);
    await mcp.client.listTools();
    expect(textOf(await mcp.client.callTool({ name: "alpha", arguments: {} })).trim()).toBe("v1");
    agent.write("alpha", { description: "A", args: ["x"], template: "echo v2 {x}" });
    // whichever comes first, the watcher's report or this call: one refusal, carrying the new schema
    const refused = await mcp.client.callTool({ name: "alpha", arguments: {} });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('Tool "alpha" changed since your last tools/list');
    expect(refused.structuredContent).toMatchObject({ stale: true, parameters: { properties: { x: {} } } });
    expect(textOf(await mcp.client.callTool({ name: "alpha", arguments: { x: "y" } })).trim()).toBe("v2 y");
    // the description alone: nothing executable changed, so the call runs
    agent.write("alpha", { description: "A, described again", args: ["x"], template: "echo v2 {x}" });
    const ran = await mcp.client.callTool({ name: "alpha", arguments: { x: "z" } });
    expect(ran.isError, textOf(ran)).toBeFalsy();
    expect(textOf(ran).trim()).toBe("v2 z");
  });

  it("a listed tool whose recipe no longer loads is refused with the loader's reason, not as deleted", async () => {
    agent = makeAgentDir();
    const path = agent.write("tmp_a", { description: "A", template: "echo a" });
    mcp = await connect(agent);
    await mcp.client.listTools();
    const seen = mcp.listChanged();
    writeFileSync(path, '{"description":"A", "template": ');
    await mcp.nextListChanged(seen);
    const r = await mcp.client.callTool({ name: "tmp_a", arguments: {} });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain(`Recipe tmp_a is invalid: ${path}`);
    expect(textOf(r)).not.toContain("deleted or renamed");
  });
});

describe("launch accounting is not optional", () => {
  it("a call context without its launch check does not type-check (tsc checks this file)", () => {
    const paths = { cwd: "/", home: "/", tmpRoot: "/tmp" };
    // @ts-expect-error every launch path must say how its launches are accounted
    const unaccounted: CallContext = { paths };
    const accounted: CallContext = { paths, fs: makeNodeFileSystem(), launch: unaccountedLaunch };
    expect(typeof accounted.launch).toBe("function");
    expect(unaccounted.paths).toBe(paths);
  });
});

describe("the recipe views' counts", () => {
  it("are the same over MCP as on the command line, in every view", async () => {
    agent = makeAgentDir();
    // a copy of the example registry, so no usage state is written into the repository
    // (only the recipe files: other tests may have left usage state beside them)
    cpSync(join(REPO, "examples", "agent", "recipes"), agent.recipes, { recursive: true, filter: (from) => !/[\\/]\.[^\\/]+$/.test(from) });
    mcp = await connect(agent);
    const env = { PI_CODING_AGENT_DIR: agent.dir };
    for (const view of ["status", "summary", "doctor"]) {
      const overMcp = await mcp.client.callTool({ name: "inspect", arguments: { target: "recipes", view } });
      const cli = runCli(["inspect", "target=recipes", `view=${view}`], env);
      expect(cli.status).toBe(0);
      expect(textOf(overMcp)).toBe(cli.stdout.trimEnd());
    }
    const doctor = textOf(await mcp.client.callTool({ name: "inspect", arguments: { target: "recipes", view: "doctor" } }));
    expect(doctor.split("\n")[0]).toMatch(/^recipes doctor errors=1 warnings=3 info=1 actions=5 recommendations=8 /);
    const status = textOf(await mcp.client.callTool({ name: "inspect", arguments: { target: "recipes" } }));
    expect(status).toMatch(/^recipes active=5 components=1 drafts=1 shadowed=1 invalid=1 disabled=1 current_policy=0 recommendations=8 /);
  }, 120_000);
});
