// `sandbox` recipes through the real `pi-recipes` command and the real bubblewrap: what a
// confined command may write, reach and read, that nothing it starts outlives the run, that
// async runs are confined too, and that a sandboxed recipe never runs unconfined.
//
// These tests need bubblewrap (`bwrap`) and user namespaces. `.ci/run` installs bubblewrap when
// it is missing; where it still cannot start, the first test fails and says why: they never skip.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { findOnPath, probeBubblewrap } from "../../adapters/process/bwrap.js";
import { readRun, runsRootOf } from "../../runtime/runs/store.js";
import { cliNodeArgs, repoRoot, type CliRun } from "../support/cli.js";
import { finished, nodeFs, waitFor } from "./runs/support.js";
import { connect, makeAgentDir } from "../host-mcp/harness.js";
import { makeNodeFileSystem } from "../../adapters/fs/node.js";
import { makeNodeScanPort } from "../../adapters/fs/scan.js";
import { openSession } from "../../runtime/session.js";
import { callNamed } from "../../runtime/verbs/call.js";
import { spawn as spawnVerb } from "../../runtime/verbs/spawn.js";

// each test runs the real CLI several times; on a loaded 2-core machine one run can take seconds
vi.setConfig({ testTimeout: 180_000, hookTimeout: 180_000 });

const CLI = cliNodeArgs();

function runCli(args: readonly string[], extra: Record<string, string>, cwd: string): CliRun {
  const r = spawnSync(process.execPath, [...CLI, ...args], { cwd, env: { ...process.env, ...extra }, encoding: "utf8", timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** runCli without blocking this process (a server of the test must be able to answer). */
function callAsync(args: readonly string[], extra: Record<string, string> = {}): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...CLI, "call", ...args], { cwd: work, env: { ...process.env, ...env, ...extra } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

let dir: string;
let agent: string;
let work: string;
let home: string;
let env: Record<string, string>;

const recipe = (name: string, body: unknown): void => writeFileSync(join(agent, "recipes", `${name}.json`), JSON.stringify(body));
const call = (args: readonly string[], extra: Record<string, string> = {}) => runCli(["call", ...args], { ...env, ...extra }, work);

/** Pids of live processes whose argv is exactly `argv`. */
function processesRunning(argv: readonly string[]): number[] {
  const wanted = `${argv.join("\0")}\0`;
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "latin1");
      if (stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z")) continue;
      if (readFileSync(`/proc/${entry}/cmdline`, "latin1") === wanted) found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

const sleepFor = (seconds: number): string[] => ["sleep", String(seconds)];
let nonce = 4000 + Math.floor(Math.random() * 1000);
/** A sleep length no other process on the machine uses, so its process can be found by argv. */
const uniqueSleep = (): number => (nonce += 1);

async function goneWithin(argv: readonly string[], ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (processesRunning(argv).length === 0) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return processesRunning(argv).length === 0;
}

const strays: number[] = [];
/** Kills what a failing test left behind (unconfined sleeps), so the failure is all it leaves. */
function reap(argv: readonly string[]): void {
  for (const pid of processesRunning(argv)) {
    strays.push(pid);
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "pi-recipes-sandbox-"));
  agent = join(dir, "agent");
  work = join(dir, "work");
  home = join(dir, "home");
  mkdirSync(join(agent, "recipes"), { recursive: true });
  mkdirSync(join(work, "allowed"), { recursive: true });
  mkdirSync(join(home, ".ssh"), { recursive: true });
  mkdirSync(join(home, ".aws"), { recursive: true });
  writeFileSync(join(home, ".ssh", "id_rsa"), "SECRET-KEY\n");
  writeFileSync(join(home, ".aws", "credentials"), "SECRET-AWS\n");
  writeFileSync(join(home, "notes.txt"), "PUBLIC\n");
  env = { PI_CODING_AGENT_DIR: agent, HOME: home, PI_RECIPES_SANDBOX: "off" };
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("bubblewrap on this machine", () => {
  it("is installed and can start a sandbox (.ci/run installs it; without it every sandbox test below fails)", async () => {
    const available = await probeBubblewrap(process.env);
    expect(available, "bubblewrap cannot run here: install it (apt-get install bubblewrap) and allow user namespaces").toMatchObject({ ok: true });
  });
});

describe("sandbox: what a confined command may write", () => {
  it("writes inside `write` succeed (an output file named by a typed value is created) and writes outside fail", () => {
    recipe("put", { description: "touch", sandbox: { write: ["allowed/", "{out}"] }, args: ["target:path", "out:path=unused.txt"], template: "touch {target}" });
    recipe("copy", { description: "copy", sandbox: { write: ["{out}"] }, args: ["src:path", "out:path"], template: "cp {src} {out}" });

    const inside = call(["put", "target=allowed/made.txt"]);
    expect(inside.stderr + inside.stdout).not.toContain("Read-only");
    expect(inside.status).toBe(0);
    expect(existsSync(join(work, "allowed", "made.txt"))).toBe(true);

    const outside = call(["put", "target=outside.txt"]);
    expect(outside.status).not.toBe(0);
    expect(outside.stdout + outside.stderr).toContain("Read-only file system");
    expect(existsSync(join(work, "outside.txt"))).toBe(false);

    const home_ = call(["put", `target=${join(home, "planted.txt")}`]);
    expect(home_.status).not.toBe(0);
    expect(existsSync(join(home, "planted.txt"))).toBe(false);

    writeFileSync(join(work, "source.txt"), "copied text\n");
    const copy = call(["copy", "src=source.txt", "out=result.txt"]);
    expect(copy.status).toBe(0);
    expect(readFileSync(join(work, "result.txt"), "utf8")).toBe("copied text\n");
  });

  it("a value cannot widen the grant: `{out}` naming a folder (or the root) is refused before anything runs", () => {
    recipe("stamp", { description: "touch", sandbox: { write: ["{out}"] }, args: ["out:path", "victim:path"], template: "touch {victim}" });
    for (const out of [".", "/", home]) {
      const r = call(["stamp", `out=${out}`, `victim=${join(work, "widened.txt")}`]);
      expect(r.status, out).toBe(1);
      expect(r.stdout + r.stderr, out).toContain("stamp is sandboxed and its sandbox could not be prepared: sandbox.write:");
      expect(r.stdout + r.stderr, out).toContain("the recipe grants a file there");
      expect(existsSync(join(work, "widened.txt")), out).toBe(false);
    }
    // a folder grant (`{dir}/`) may not be the root or the home folder either
    recipe("stamp_in", { description: "touch", sandbox: { write: ["{dir}/"] }, args: ["dir:path", "victim:path"], template: "touch {victim}" });
    const root = call(["stamp_in", "dir=/", `victim=${join(home, "widened.txt")}`]);
    expect(root.stdout + root.stderr).toContain("would make the whole file system writable");
    const homeDir = call(["stamp_in", `dir=${home}`, `victim=${join(home, "widened.txt")}`]);
    expect(homeDir.stdout + homeDir.stderr).toContain("would make the home folder writable");
    expect(existsSync(join(home, "widened.txt"))).toBe(false);
    // a folder the recipe names before the value (`allowed/{name}/`) is not left by `..`
    recipe("stamp_under", { description: "touch", sandbox: { write: ["allowed/{name}/"] }, args: ["name", "victim:path"], template: "touch {victim}" });
    const escaped = call(["stamp_under", "name=../..", `victim=${join(work, "widened.txt")}`]);
    expect(escaped.stdout + escaped.stderr).toContain(`sandbox.write: ${dirname(work)} is outside ${join(work, "allowed")}`);
    expect(existsSync(join(work, "widened.txt"))).toBe(false);
    // inside it, as the recipe wrote
    const inside = call(["stamp_in", "dir=allowed", "victim=allowed/stamped.txt"]);
    expect(inside.status).toBe(0);
    expect(existsSync(join(work, "allowed", "stamped.txt"))).toBe(true);
  });

  it("the registry's own folders stay read-only inside, whatever the write paths cover", () => {
    // a folder grant that a value points at the recipe root, and `sandbox: true` run from a
    // folder that holds the agent dir: neither may plant a recipe (one saying `sandbox: false`)
    recipe("plant", { description: "touch", sandbox: { write: ["{dir}/"] }, args: ["dir:path", "victim:path"], template: "touch {victim}" });
    const planted = join(agent, "recipes", "planted.json");
    const viaGrant = call(["plant", `dir=${join(agent, "recipes")}`, `victim=${planted}`]);
    expect(viaGrant.status).not.toBe(0);
    expect(viaGrant.stdout + viaGrant.stderr).toContain(`sandbox.write: ${join(agent, "recipes")} is inside ${agent}, the registry's own folder`);
    expect(existsSync(planted)).toBe(false);
    // nor is an output file made there before the run: an empty recipe named like a tool blocks it
    recipe("stamp_out", { description: "stamp", sandbox: { write: ["{out}"] }, args: ["out:path"], template: "echo hi" });
    const blocker = join(agent, "recipes", "word_count.json");
    expect(call(["stamp_out", `out=${blocker}`]).status).not.toBe(0);
    expect(existsSync(blocker)).toBe(false);
    recipe("put_from_above", { description: "touch", sandbox: true, args: ["target:path"], template: "touch {target}" });
    const fromAbove = runCli(["call", "put_from_above", `target=${planted}`], env, dir);
    expect(fromAbove.status).not.toBe(0);
    expect(existsSync(planted)).toBe(false);
    // the rest of the working directory is still the command's to write
    expect(runCli(["call", "put_from_above", `target=${join(work, "from-above.txt")}`], env, dir).status).toBe(0);
    expect(existsSync(join(work, "from-above.txt"))).toBe(true);
  });

  it("`sandbox: true` writes only under the working directory", () => {
    recipe("put_here", { description: "touch", sandbox: true, args: ["target:path"], template: "touch {target}" });
    expect(call(["put_here", "target=here.txt"]).status).toBe(0);
    expect(existsSync(join(work, "here.txt"))).toBe(true);
    expect(call(["put_here", `target=${join(home, "there.txt")}`]).status).not.toBe(0);
    expect(existsSync(join(home, "there.txt"))).toBe(false);
    // run from `/` (as an MCP client may start a server), the working directory is everything:
    // refused, not run unconfined in all but name
    const fromRoot = runCli(["call", "put_here", `target=${join(home, "from-root.txt")}`], env, "/");
    expect(fromRoot.status).toBe(1);
    expect(fromRoot.stdout + fromRoot.stderr).toContain("sandbox.write: / is the root, so a grant of the working directory would leave nothing read-only");
    expect(existsSync(join(home, "from-root.txt"))).toBe(false);
  });
});

describe("sandbox: network", () => {
  let server: Server;
  let port = 0;
  let connections = 0;
  beforeAll(async () => {
    server = createServer((socket) => {
      connections += 1;
      socket.end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as { port: number }).port;
    writeFileSync(
      join(work, "connect.mjs"),
      `import { connect } from "node:net";
const s = connect(Number(process.argv[2]), "127.0.0.1");
s.on("connect", () => { console.log("connected"); s.end(); process.exit(0); });
s.on("error", (e) => { console.error("no connection: " + e.code); process.exit(3); });
`,
    );
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("with network: false a connection to a TCP server on 127.0.0.1 fails; the same recipe unconfined connects", async () => {
    const body = { description: "connect", args: ["node:path", "port:int"], template: "{node} connect.mjs {port}" };
    recipe("reach_confined", { ...body, sandbox: { network: false } });
    recipe("reach_open", body);

    const confined = await callAsync(["reach_confined", `node=${process.execPath}`, `port=${port}`]);
    expect(confined.status).not.toBe(0);
    expect(confined.stdout + confined.stderr).toContain("no connection");
    expect(connections).toBe(0);

    const open = await callAsync(["reach_open", `node=${process.execPath}`, `port=${port}`]);
    expect(open.stdout + open.stderr).toContain("connected");
    expect(open.status).toBe(0);
    expect(connections).toBe(1);
  });

  it("a recipe that runs a confined recipe's commands (an imported component, a delegated step) is confined too", async () => {
    recipe("reach_component", { description: "connect", args: ["node:path", "port:int"], sandbox: { network: false }, template: "{node} connect.mjs {port}" });
    recipe("reach_importer", { description: "imports it", imports: { c: "reach_component" }, args: ["node:path", "port:int"], template: [{ name: "c" }] });
    recipe("reach_delegator", { description: "delegates a step", args: ["node:path", "port:int"], template: ["echo start", "reach_component"] });
    const before = connections;
    for (const tool of ["reach_importer", "reach_delegator"]) {
      const r = await callAsync([tool, `node=${process.execPath}`, `port=${port}`]);
      // the connection was refused inside the sandbox (a step of a sequence that fails is
      // reported in the text; the sequence itself goes on)
      expect(r.stdout + r.stderr).toContain("no connection");
    }
    expect(connections).toBe(before);
  });

    it("a list of host names is an invalid-recipe diagnostic, never ignored", () => {
    recipe("reach_hosts", { description: "hosts", sandbox: { network: ["example.com"] }, template: "echo hi" });
    const r = call(["reach_hosts"]);
    expect(r.status).not.toBe(0);
    expect(r.stdout + r.stderr).toContain('field "sandbox" must be true, false or an object with only network (true or false: a list of host names cannot be enforced by bubblewrap)');
    expect(r.stdout).not.toContain("hi\n");
  });
});

describe("sandbox: read_deny", () => {
  it("hides ~/.ssh (a folder) and ~/.aws/credentials (a file); the rest of home stays readable", () => {
    const body = { description: "cat", args: ["file:path"], template: "cat {file}" };
    recipe("peek_denied", { ...body, sandbox: { read_deny: ["~/.ssh", "~/.aws/credentials"] } });
    recipe("peek_confined", { ...body, sandbox: true });
    const inHome = (args: readonly string[]) => runCli(["call", ...args], env, home);

    const key = inHome(["peek_denied", `file=${join(home, ".ssh", "id_rsa")}`]);
    expect(key.stdout + key.stderr).not.toContain("SECRET-KEY");
    expect(key.status).not.toBe(0);
    const aws = inHome(["peek_denied", `file=${join(home, ".aws", "credentials")}`]);
    expect(aws.stdout + aws.stderr).not.toContain("SECRET-AWS");
    expect(inHome(["peek_denied", "file=notes.txt"]).stdout).toContain("PUBLIC");

    // without the network (`sandbox: true`) the credential stores are hidden all the same; with it,
    // a recipe that does not deny them reads them
    expect(inHome(["peek_confined", `file=${join(home, ".ssh", "id_rsa")}`]).stdout).not.toContain("SECRET-KEY");
    recipe("peek_online", { ...body, sandbox: { network: true } });
    expect(inHome(["peek_online", `file=${join(home, ".ssh", "id_rsa")}`]).stdout).toContain("SECRET-KEY");
  });
});

describe("sandbox: no capabilities inside", () => {
  it("a confined command holds none, so even run by root it cannot remount / writable or lift a read_deny mask", () => {
    const secret = join(home, ".ssh", "id_rsa");
    recipe("confined_sh", { description: "sh", args: ["cmd"], sandbox: { write: ["."], read_deny: ["~/.ssh"] }, template: "sh -c {cmd}" });
    const escaped = join(dir, "ESCAPED");
    const r = runCli(["call", "confined_sh", `cmd=grep CapEff /proc/self/status; mount -o remount,bind,rw /; umount ${join(home, ".ssh")}; touch ${escaped}; cat ${secret}; true`], env, home);
    expect(r.stdout).toMatch(/CapEff:\s+0000000000000000/);
    expect(r.stdout + r.stderr).not.toContain("SECRET-KEY");
    expect(existsSync(escaped)).toBe(false);
  });
});

describe("sandbox: nothing outlives the run", () => {
  const setsidSleep = (seconds: number): Record<string, unknown> => ({
    description: "a child that leaves the process group",
    sandbox: true,
    template: `sh -c "setsid sleep ${seconds} & wait"`,
  });

  it("a child started through setsid is gone after a timeout", async () => {
    const seconds = uniqueSleep();
    recipe("escape_timeout", { ...setsidSleep(seconds), timeout: 1500 });
    try {
      const r = call(["escape_timeout"]);
      expect(r.stdout + r.stderr).toContain("timed out after 1500 ms");
      expect(await goneWithin(sleepFor(seconds), 3000)).toBe(true);
    } finally {
      reap(sleepFor(seconds));
    }
  });

  it("a child started through setsid is gone after the calling process is killed", async () => {
    const seconds = uniqueSleep();
    recipe("escape_kill", setsidSleep(seconds));
    let cli: ChildProcess | undefined;
    try {
      cli = spawn(process.execPath, [...CLI, "call", "escape_kill"], {
        cwd: work,
        env: { ...process.env, ...env },
        stdio: "ignore",
      });
      await waitFor("the setsid child to start", () => (processesRunning(sleepFor(seconds)).length > 0 ? true : undefined));
      cli.kill("SIGKILL");
      expect(await goneWithin(sleepFor(seconds), 3000)).toBe(true);
    } finally {
      cli?.kill("SIGKILL");
      reap(sleepFor(seconds));
    }
  });
});

describe("sandbox: nothing outlives an MCP session", () => {
  it("a setsid child of a running call is gone once the MCP client disconnects and the server exits", async () => {
    const seconds = uniqueSleep();
    const mcpAgent = makeAgentDir();
    mcpAgent.write("escape_mcp", { description: "a child that leaves the group", sandbox: true, template: `sh -c "setsid sleep ${seconds} & wait"` });
    const mcp = await connect(mcpAgent);
    try {
      const pending = mcp.client.callTool({ name: "escape_mcp", arguments: {} }).catch(() => undefined);
      await waitFor("the setsid child to start", () => (processesRunning(sleepFor(seconds)).length > 0 ? true : undefined));
      await mcp.close();
      await pending;
      expect(await goneWithin(sleepFor(seconds), 5000)).toBe(true);
    } finally {
      reap(sleepFor(seconds));
      mcpAgent.cleanup();
    }
  });
});

describe("sandbox: async runs", () => {
  it("an async run's steps are confined: a write outside fails, one inside succeeds", async () => {
    recipe("put_later", { description: "touch later", async: true, sandbox: { write: ["allowed/"] }, args: ["target:path"], template: "touch {target}" });
    const runsRoot = runsRootOf(join(agent, "tmp", "pi-recipes"));

    expect(call(["put_later", "target=allowed/later.txt", "run_id=sbx-in"]).status).toBe(0);
    expect(await finished(runsRoot, "sbx-in")).toMatchObject({ status: "succeeded" });
    expect(existsSync(join(work, "allowed", "later.txt"))).toBe(true);

    expect(call(["put_later", "target=later-outside.txt", "run_id=sbx-out"]).status).toBe(0);
    expect(await finished(runsRoot, "sbx-out")).toMatchObject({ status: "failed" });
    expect(existsSync(join(work, "later-outside.txt"))).toBe(false);
    expect(readFileSync(join(runsRoot, "sbx-out", "stderr.log"), "utf8")).toContain("Read-only file system");
  });

  it("control.kill of an async run leaves no setsid child behind", async () => {
    const seconds = uniqueSleep();
    recipe("escape_async", { description: "a child that leaves the group", async: true, sandbox: true, template: `sh -c "setsid sleep ${seconds} & wait"` });
    const runsRoot = runsRootOf(join(agent, "tmp", "pi-recipes"));
    try {
      expect(call(["escape_async", "run_id=sbx-kill"]).status).toBe(0);
      await waitFor("the setsid child to start", () => (processesRunning(sleepFor(seconds)).length > 0 ? true : undefined));
      const kill = runCli(["message", "to=run:sbx-kill", "type=control.kill"], env, work);
      expect(kill.stdout).toContain("status=killed");
      expect((await readRun(nodeFs, runsRoot, "sbx-kill"))?.status).toBe("killed");
      expect(await goneWithin(sleepFor(seconds), 3000)).toBe(true);
    } finally {
      reap(sleepFor(seconds));
    }
  });
});

describe("sandbox: no bubblewrap, no run", () => {
  let bin: string;
  beforeAll(() => {
    // a PATH with what the recipes run, but no bwrap
    bin = join(dir, "bin-without-bwrap");
    mkdirSync(bin, { recursive: true });
    const touch = findOnPath("touch", process.env);
    if (touch === undefined) throw new Error("touch is not on PATH");
    symlinkSync(touch, join(bin, "touch"));
  });

  it("a sandboxed recipe is refused with one line saying what to install; an unsandboxed one still runs", () => {
    recipe("strict_touch", { description: "touch", sandbox: true, args: ["target:path"], template: "touch {target}" });
    recipe("plain_touch", { description: "touch", args: ["target:path"], template: "touch {target}" });
    const noBwrap = { PATH: bin };

    const refused = call(["strict_touch", "target=refused.txt"], noBwrap);
    expect(refused.status).not.toBe(0);
    expect(refused.stderr.trim()).toBe(
      "strict_touch is sandboxed and cannot run unconfined: bwrap not found on PATH; install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap)",
    );
    expect(existsSync(join(work, "refused.txt"))).toBe(false);

    expect(call(["plain_touch", "target=plain.txt"], noBwrap).status).toBe(0);
    expect(existsSync(join(work, "plain.txt"))).toBe(true);
  });

  it("PI_RECIPES_SANDBOX=on confines every tool without an explicit `sandbox: false`", () => {
    recipe("plain_touch", { description: "touch", args: ["target:path"], template: "touch {target}" });
    recipe("open_touch", { description: "touch", sandbox: false, args: ["target:path"], template: "touch {target}" });
    const on = { PATH: bin, PI_RECIPES_SANDBOX: "on" };

    const refused = call(["plain_touch", "target=now-refused.txt"], on);
    expect(refused.stderr).toContain("plain_touch is sandboxed and cannot run unconfined: bwrap not found on PATH");
    expect(existsSync(join(work, "now-refused.txt"))).toBe(false);
    expect(call(["open_touch", "target=open.txt"], on).status).toBe(0);
    expect(existsSync(join(work, "open.txt"))).toBe(true);

    // with bubblewrap on PATH, the same tool runs confined: it may write its working directory only
    expect(call(["plain_touch", "target=confined.txt"], { PI_RECIPES_SANDBOX: "on" }).status).toBe(0);
    expect(existsSync(join(work, "confined.txt"))).toBe(true);
    expect(call(["plain_touch", `target=${join(home, "escaped.txt")}`], { PI_RECIPES_SANDBOX: "on" }).status).not.toBe(0);
    expect(existsSync(join(home, "escaped.txt"))).toBe(false);

    // an inline template of `spawn` too: confined, or refused without bubblewrap
    const spawnTouch = (target: string, extra: Record<string, string>) => runCli(["spawn", `template=touch ${target}`], { ...env, ...extra }, work);
    expect(spawnTouch(join(home, "spawned.txt"), { PI_RECIPES_SANDBOX: "on" }).status).not.toBe(0);
    expect(existsSync(join(home, "spawned.txt"))).toBe(false);
    expect(spawnTouch("spawned-here.txt", { PI_RECIPES_SANDBOX: "on" }).status).toBe(0);
    expect(existsSync(join(work, "spawned-here.txt"))).toBe(true);
    const noBwrapSpawn = spawnTouch("spawn-refused.txt", on);
    expect(noBwrapSpawn.stderr).toContain("spawn is sandboxed and cannot run unconfined: bwrap not found on PATH");
    expect(existsSync(join(work, "spawn-refused.txt"))).toBe(false);
    // not launched, so not captured as a draft either
    const drafts = join(agent, "recipes", "drafts");
    const captured = existsSync(drafts) ? readdirSync(drafts).map((f) => readFileSync(join(drafts, f), "utf8")) : [];
    expect(captured.some((text) => text.includes("spawn-refused"))).toBe(false);
    expect(captured.some((text) => text.includes("spawned-here"))).toBe(true);
    // and unconfined with the setting off
    expect(spawnTouch(join(home, "spawned.txt"), {}).status).toBe(0);
    expect(existsSync(join(home, "spawned.txt"))).toBe(true);
  });

  it("PI_RECIPES_SANDBOX=on: a tool does not run unconfined because the file it delegates to says `sandbox: false`", () => {
    // the target lies in the working directory, which a confined command may write: an agent
    // registers a harmless wrapper of it, then rewrites the target to opt out
    const target = join(work, "target.json");
    const on = { PI_RECIPES_SANDBOX: "on" };
    writeFileSync(target, JSON.stringify({ description: "t", args: ["target:path"], template: "touch {target}" }));
    const registered = runCli(["register_tool", "name=wrapper", "description=d", `template=${target}`], { ...env, ...on }, work);
    expect(registered.status, registered.stderr).toBe(0);
    writeFileSync(target, JSON.stringify({ description: "t", sandbox: false, args: ["target:path"], template: "touch {target}" }));
    expect(call(["wrapper", `target=${join(home, "delegated-escape.txt")}`], on).status).not.toBe(0);
    expect(existsSync(join(home, "delegated-escape.txt"))).toBe(false);
    // confined, not broken: inside the working directory it runs
    expect(call(["wrapper", "target=delegated-here.txt"], on).status).toBe(0);
    expect(existsSync(join(work, "delegated-here.txt"))).toBe(true);
    // the same through spawn file= of the wrapper, and of a wrapper a person wrote in the recipe root
    recipe("person_wrapper", { description: "w", template: target });
    expect(runCli(["spawn", `file=${join(agent, "recipes", "wrapper.json")}`, `values={"target":"${join(home, "spawn-escape.txt")}"}`], { ...env, ...on }, work).status).not.toBe(0);
    expect(call(["person_wrapper", `target=${join(home, "person-escape.txt")}`], on).status).not.toBe(0);
    expect(existsSync(join(home, "spawn-escape.txt")) || existsSync(join(home, "person-escape.txt"))).toBe(false);
    // a wrapper that says it itself opts out, as a person may write it
    recipe("person_open", { description: "w", sandbox: false, template: target });
    expect(call(["person_open", `target=${join(home, "opted-out.txt")}`], on).status).toBe(0);
    expect(existsSync(join(home, "opted-out.txt"))).toBe(true);
  });
});

describe("sandbox: the host's setting, not this process's", () => {
  it("a session opened with PI_RECIPES_SANDBOX=on in its environment confines its calls, though this process has it unset", async () => {
    // (this process's own environment never says on: the session's must be what decides)
    expect(process.env["PI_RECIPES_SANDBOX"]).toBeUndefined();
    recipe("plain_touch", { description: "touch", args: ["target:path"], template: "touch {target}" });
    const session = openSession({
      env: { PI_CODING_AGENT_DIR: agent, HOME: home, PATH: process.env["PATH"] ?? "", PI_RECIPES_SANDBOX: "on" },
      cwd: work,
      home,
      packagedRoot: null,
      fs: makeNodeFileSystem(),
      scan: makeNodeScanPort(),
    });
    try {
      const run = (target: string) => callNamed(session.toolNamed("plain_touch"), "plain_touch", { target }, session.callContext());
      const outside = join(home, "session-escaped.txt");
      const escaped = await run(outside);
      expect(escaped.ok).toBe(false);
      expect(existsSync(outside)).toBe(false);
      // the working directory stays writable, as `sandbox: true` grants
      expect((await run("session-inside.txt")).ok).toBe(true);
      expect(existsSync(join(work, "session-inside.txt"))).toBe(true);
      // spawn of an inline template is judged by the same setting
      const spawned = join(home, "session-spawned.txt");
      const viaSpawn = await spawnVerb(session.registry(), { template: `touch ${spawned}` }, session.callContext());
      expect(viaSpawn.ok).toBe(false);
      expect(existsSync(spawned)).toBe(false);
    } finally {
      await session.close();
    }
  });
});

describe("sandbox: the host's own secrets", () => {
  it("Pi's credentials in the agent dir (auth.json, models.json) cannot be read from inside; the rest of the agent dir can", () => {
    writeFileSync(join(agent, "auth.json"), '{"anthropic":"SECRET-AUTH"}');
    writeFileSync(join(agent, "models.json"), '{"providers":{"x":{"apiKey":"SECRET-MODELS"}}}');
    writeFileSync(join(agent, "settings.json"), '{"theme":"dark"}');
    recipe("peek_confined", { description: "read", sandbox: true, args: ["file:path"], template: "cat {file}" });
    recipe("peek_plain", { description: "read", sandbox: false, args: ["file:path"], template: "cat {file}" });
    try {
      expect(call(["peek_plain", `file=${join(agent, "auth.json")}`]).stdout).toContain("SECRET-AUTH");
      for (const name of ["auth.json", "models.json"]) {
        const r = call(["peek_confined", `file=${join(agent, name)}`]);
        expect(r.stdout + r.stderr, name).not.toContain("SECRET");
      }
      expect(call(["peek_confined", `file=${join(agent, "settings.json")}`]).stdout).toContain("dark");
    } finally {
      for (const name of ["auth.json", "models.json", "settings.json"]) rmSync(join(agent, name), { force: true });
    }
  });
});

describe("sandbox: the host's own command sockets", () => {
  it("a socket in the user's runtime folder (where the session bus and systemd --user listen) cannot be reached from inside", async () => {
    // outside /tmp, which every sandbox already replaces
    const runtime = mkdtempSync(join("/var/tmp", "pi-recipes-runtime-"));
    const server = createServer((c) => c.end("reached\n"));
    try {
      const socket = join(runtime, "bus");
      await new Promise<void>((ready) => server.listen(socket, ready));
      writeFileSync(join(work, "connect.cjs"), 'const c = require("net").connect(process.argv[2]); c.on("data", (d) => process.stdout.write(d)); c.on("error", (e) => { process.stderr.write(e.code + "\\n"); process.exit(3); });\n');
      const template = `${process.execPath} connect.cjs {socket}`;
      recipe("bus_confined", { description: "connect", sandbox: true, args: ["socket"], template });
      recipe("bus_open", { description: "connect", sandbox: false, args: ["socket"], template });
      const withRuntime = { XDG_RUNTIME_DIR: runtime };
      const open = await callAsync(["bus_open", `socket=${socket}`], withRuntime);
      expect(open.stdout).toContain("reached");
      const confined = await callAsync(["bus_confined", `socket=${socket}`], withRuntime);
      expect(confined.status).not.toBe(0);
      expect(confined.stdout).not.toContain("reached");
    } finally {
      server.close();
      rmSync(runtime, { recursive: true, force: true });
    }
  });
});

describe("sandbox: register_tool", () => {
  it("writes the field as given, refuses a host list, and the registered tool runs confined", () => {
    const register = (args: readonly string[]) => runCli(["register_tool", ...args], env, work);
    const hosts = register(["name=reg_hosts", "description=d", "template=touch {target}", 'sandbox={"network":["example.com"]}']);
    expect(hosts.status).not.toBe(0);
    expect(hosts.stdout + hosts.stderr).toContain("a list of host names cannot be enforced by bubblewrap");
    expect(existsSync(join(agent, "recipes", "reg_hosts.json"))).toBe(false);

    expect(register(["name=reg_boxed", "description=d", "template=touch {target}", "sandbox=true"]).status).toBe(0);
    expect(JSON.parse(readFileSync(join(agent, "recipes", "reg_boxed.json"), "utf8"))).toMatchObject({ sandbox: true });
    expect(call(["reg_boxed", `target=${join(home, "registered.txt")}`]).status).not.toBe(0);
    expect(existsSync(join(home, "registered.txt"))).toBe(false);
  });

  it("with PI_RECIPES_SANDBOX=on, register_tool writes no tool that runs unconfined: new, updated or promoted", () => {
    const on = { ...env, PI_RECIPES_SANDBOX: "on" };
    const register = (args: readonly string[], e: Record<string, string> = on) => runCli(["register_tool", ...args], e, work);
    const refusal = 'PI_RECIPES_SANDBOX=on: register_tool does not write a tool that runs unconfined ("sandbox": false)';
    // a new tool that opts out
    const fresh = register(["name=reg_open", "description=d", "template=touch {target}", "sandbox=false"]);
    expect(fresh.status).toBe(1);
    expect(fresh.stdout + fresh.stderr).toContain(refusal);
    expect(existsSync(join(agent, "recipes", "reg_open.json"))).toBe(false);
    // an unconfined tool a person wrote: its command may not be changed through register_tool
    recipe("hand_open", { description: "written by hand", sandbox: false, args: ["target:path"], template: "touch {target}" });
    const before = readFileSync(join(agent, "recipes", "hand_open.json"), "utf8");
    const update = register(["name=hand_open", "update=true", "template=rm -rf {target}"]);
    expect(update.stdout + update.stderr).toContain(refusal);
    expect(readFileSync(join(agent, "recipes", "hand_open.json"), "utf8")).toBe(before);
    // a draft that opts out is not promoted
    mkdirSync(join(agent, "recipes", "drafts"), { recursive: true });
    writeFileSync(join(agent, "recipes", "drafts", "open_draft.json"), JSON.stringify({ description: "d", sandbox: false, template: "echo hi" }));
    const promoted = register(["name=from_draft", "draft=open_draft.json"]);
    expect(promoted.stdout + promoted.stderr).toContain(refusal);
    expect(existsSync(join(agent, "recipes", "from_draft.json"))).toBe(false);
    // nor one that grants itself what no caller's value may choose: the home folder's start-up
    // files, a repository's hooks, the home folder or the whole file system
    for (const write of ["~/.bashrc", "~/.config/systemd/user/", ".git/hooks/", "{name}/.git/config", "~/bin/", "/", home, "~/.{name}"]) {
      const wide = register(["name=reg_wide", "description=d", "template=echo {name}", `sandbox=${JSON.stringify({ write: [write] })}`]);
      expect(wide.stdout + wide.stderr, write).toContain(`PI_RECIPES_SANDBOX=on: register_tool does not write a tool whose sandbox.write names ${JSON.stringify(write)}`);
      expect(existsSync(join(agent, "recipes", "reg_wide.json")), write).toBe(false);
    }
    expect(register(["name=reg_narrow", "description=d", "template=echo {name}", `sandbox=${JSON.stringify({ write: ["build/", "~/out/{name}.txt", "."] })}`]).status).toBe(0);
    // off (the default), the field is the recipe's to say
    expect(register(["name=reg_open", "description=d", "template=touch {target}", "sandbox=false"], env).status).toBe(0);
  });

  it("with PI_RECIPES_SANDBOX=on, spawn file= runs no file outside a recipe root unconfined", () => {
    const on = { ...env, PI_RECIPES_SANDBOX: "on" };
    const marker = join(dir, "spawned-unconfined.txt");
    const open = { description: "d", sandbox: false, template: `touch ${marker}` };
    writeFileSync(join(work, "open.json"), JSON.stringify(open));
    mkdirSync(join(agent, "recipes", "drafts"), { recursive: true });
    writeFileSync(join(agent, "recipes", "drafts", "open_spawn.json"), JSON.stringify(open));
    for (const file of [join(work, "open.json"), join(agent, "recipes", "drafts", "open_spawn.json")]) {
      const r = runCli(["spawn", `file=${file}`], on, work);
      expect(r.status, file).toBe(1);
      expect(r.stdout + r.stderr, file).toContain(`PI_RECIPES_SANDBOX=on: spawn file= does not run ${file} unconfined`);
      expect(existsSync(marker), file).toBe(false);
    }
    // a recipe a person put in the recipe root may opt out, spawned by file or by name
    recipe("root_open", open);
    expect(runCli(["spawn", `file=${join(agent, "recipes", "root_open.json")}`], on, work).status).toBe(0);
    expect(existsSync(marker)).toBe(true);
  });
});

describe("sandbox: the README's example", () => {
  it("runs as written: it writes the file it was asked for and cannot read ~/.ssh", () => {
    const readme = readFileSync(join(repoRoot, "README.md"), "utf8");
    const at = readme.indexOf("`recipes/sorted_copy.json`");
    expect(at, "the README names recipes/sorted_copy.json").toBeGreaterThan(-1);
    const block = /```json\n([\s\S]*?)```/.exec(readme.slice(at));
    expect(block, "a json block follows it").not.toBeNull();
    writeFileSync(join(agent, "recipes", "sorted_copy.json"), block![1]!);
    writeFileSync(join(work, "names.txt"), "carol\nalice\nbob\n");

    const ok = call(["sorted_copy", "file=names.txt", "out=sorted/names.txt"]);
    expect(ok.status, ok.stderr).toBe(0);
    expect(readFileSync(join(work, "sorted", "names.txt"), "utf8")).toBe("alice\nbob\ncarol\n");
    // and what it may not read stays unread, even when asked for by path
    const stolen = call(["sorted_copy", `file=${join(home, ".ssh", "id_rsa")}`, "out=stolen.txt"]);
    expect(stolen.status).not.toBe(0);
    const copied = existsSync(join(work, "stolen.txt")) ? readFileSync(join(work, "stolen.txt"), "utf8") : "";
    expect(copied).not.toContain("SECRET-KEY");
  });
});

describe("sandbox: what the views say", () => {
  it("status shows the sandbox in use, or why there is none", () => {
    const withBwrap = runCli(["inspect", "target=tool:pi-actors", "view=status"], env, work);
    expect(withBwrap.stdout.trim()).toMatch(/ sandbox_all=off sandbox=bubblewrap \d+\.\d+\.\d+$/);
    const bin = join(dir, "bin-empty");
    mkdirSync(bin, { recursive: true });
    const without = runCli(["inspect", "target=tool:pi-actors", "view=status"], { ...env, PATH: bin, PI_RECIPES_SANDBOX: "on" }, work);
    expect(without.stdout.trim()).toMatch(/ sandbox_all=on sandbox=none \(bwrap not found on PATH; install bubblewrap \(Debian\/Ubuntu: apt-get install bubblewrap; .*\)\)$/);
  });

  it("summary and doctor show a confined tool's policy; doctor suggests sandbox for unconfined network, shell and eval tools", () => {
    recipe("fetch_open", { description: "fetch", args: ["url"], template: "curl -- {url}" });
    recipe("fetch_boxed", { description: "fetch", sandbox: { network: false, write: ["out/"], read_deny: ["~/.ssh"] }, args: ["url"], template: "curl -- {url}" });
    const summary = runCli(["inspect", "target=recipes", "view=summary"], env, work);
    expect(summary.stdout).toContain("sandbox: fetch_boxed network=off write=out/ read_deny=~/.ssh");
    expect(summary.stdout).not.toContain("sandbox: fetch_open");
    const doctor = runCli(["inspect", "target=recipes", "view=doctor", "verbose=true"], env, work);
    const remedies = (JSON.parse(doctor.stdout) as { remediations: { id: string; kind: string; action: string }[] }).remediations;
    expect(remedies.find((r) => r.id === "fetch_open")).toMatchObject({ kind: "unconfined_risk", action: expect.stringContaining('add "sandbox": true') as unknown });
    expect(remedies.find((r) => r.id === "fetch_boxed")).toBeUndefined();
    const compact = runCli(["inspect", "target=recipes", "view=doctor"], env, work);
    expect(compact.stdout).toContain("sandbox id=fetch_boxed network=off write=out/ read_deny=~/.ssh");
    expect(runCli(["inspect", "target=tool:fetch_boxed"], env, work).stdout).toContain("\nsandbox: network=off write=out/ read_deny=~/.ssh");
    expect(runCli(["inspect", "target=tool:fetch_open"], env, work).stdout).not.toContain("sandbox:");
    expect(runCli(["inspect", "target=tool:fetch_open"], { ...env, PI_RECIPES_SANDBOX: "on" }, work).stdout).toContain("\nsandbox: network=off write=.");
  });

  it("MCP annotations say openWorldHint: false for a tool whose network is off", async () => {
    const mcpAgent = makeAgentDir();
    mcpAgent.write("net_open", { description: "open", template: "echo open" });
    mcpAgent.write("net_off", { description: "off", sandbox: true, template: "echo off" });
    mcpAgent.write("net_on", { description: "on", sandbox: { network: true }, template: "echo on" });
    const mcp = await connect(mcpAgent);
    try {
      const tools = (await mcp.client.listTools()).tools;
      const hint = (name: string): unknown => tools.find((t) => t.name === name)?.annotations?.openWorldHint;
      expect([hint("net_open"), hint("net_off"), hint("net_on")]).toEqual([true, false, true]);
    } finally {
      await mcp.close();
      mcpAgent.cleanup();
    }
  });
});

afterAll(() => {
  if (strays.length > 0) console.error(`sandbox tests killed processes a run left behind: ${strays.join(", ")}`);
});
