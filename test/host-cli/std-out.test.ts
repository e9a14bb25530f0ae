// The command's stdout and stderr written without node's stream objects (host-cli/std-out.ts):
// in order, handed to the stream for good when the descriptor is full, quiet when the reader has
// gone, and whole through a pipe whose reader is slow, whichever part of the command prints.
import { spawn, spawnSync } from "node:child_process";
import { closeSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { generateAgent } from "../../bench/generate.js";
import { output } from "../../host-cli/std-out.js";
import { cliNodeArgs, repoRoot } from "../support/cli.js";
import { nextTick } from "../support/compile-cache-box.js";

const text = (b: Uint8Array): string => Buffer.from(b).toString("utf8");
const errno = (code: string): Error => Object.assign(new Error(code), { code });

/** a stream standing in for process.stdout, recording what it is given */
function fakeStream(isTTY = false) {
  const got: string[] = [];
  let made = 0;
  const stream = {
    write: (chunk: string | Uint8Array) => (got.push(typeof chunk === "string" ? chunk : text(chunk)), true),
    writableLength: 7,
    isTTY,
    on: () => stream,
    listenerCount: () => 1,
  };
  return { got, made: () => made, make: () => (made++, stream as never) };
}

describe.skipIf(process.platform === "win32")("writes to the descriptor", () => {
  it("in order, all of each chunk, without making the stream", () => {
    const fake = fakeStream();
    const written: string[] = [];
    // a descriptor that takes at most 3 bytes a call
    const out = output(9, fake.make, (_fd, bytes, offset, length) => (written.push(text(bytes.subarray(offset, offset + Math.min(3, length)))), Math.min(3, length)));
    expect(out.write("hello ")).toBe(true);
    expect(out.write(new TextEncoder().encode("wörld\n"))).toBe(true);
    expect(written.join("")).toBe("hello wörld\n");
    expect(out.writableLength).toBe(0);
    expect(fake.made()).toBe(0);
  });

  it("a full non-blocking descriptor (EAGAIN) hands the rest, and every later write, to the stream", () => {
    const fake = fakeStream();
    const written: string[] = [];
    let calls = 0;
    const out = output(9, fake.make, (_fd, bytes, offset, length) => {
      if (++calls === 3) throw errno("EAGAIN");
      const n = Math.min(4, length);
      written.push(text(bytes.subarray(offset, offset + n)));
      return n;
    });
    expect(out.write("first ")).toBe(true);
    out.write("second ");
    out.write("third");
    expect(written).toEqual(["firs", "t "]);
    expect(fake.got).toEqual(["second ", "third"]);
    expect(written.join("") + fake.got.join("")).toBe("first second third");
    expect(out.writableLength).toBe(7);
  });

  it("a reader that has gone (EPIPE): the rest is dropped, quietly, and whoever waits is told", () => {
    const fake = fakeStream();
    let calls = 0;
    const failures: unknown[] = [];
    const out = output(9, fake.make, () => {
      calls++;
      throw errno("EPIPE");
    }, (e) => failures.push(e));
    let told = 0;
    out.whenGone(() => told++);
    expect(out.write("lost")).toBe(false);
    expect(out.write("also lost")).toBe(false);
    expect(calls).toBe(1);
    expect(fake.made()).toBe(0);
    expect([out.gone, told, failures.length]).toEqual([true, 1, 0]);
    // a listener that comes later is told at once
    out.whenGone(() => told++);
    expect(told).toBe(2);
  });

  it("any other failure (a full disk) is said once, and the rest is dropped without throwing", () => {
    const fake = fakeStream();
    let calls = 0;
    const failures: string[] = [];
    const out = output(9, fake.make, () => {
      calls++;
      throw errno("ENOSPC");
    }, (e) => failures.push((e as Error).message));
    let told = 0;
    out.whenGone(() => told++);
    expect(out.write("x")).toBe(false);
    expect(out.write("y")).toBe(false);
    expect([calls, failures, told, out.gone]).toEqual([1, ["ENOSPC"], 1, true]);
  });

  it("through the stream: a write that throws (node 20's file stream) or an error event is handled the same way", () => {
    for (const how of ["throws", "event", "broken pipe event"]) {
      let onError: ((e: Error) => void) | undefined;
      const stream = {
        write: (): boolean => {
          if (how === "throws") throw errno("EIO");
          onError?.(how === "event" ? errno("EIO") : errno("EPIPE"));
          return true;
        },
        writableLength: 0,
        isTTY: false,
        on: (_event: string, listener: (e: Error) => void) => ((onError = listener), stream),
      };
      const failures: string[] = [];
      // EAGAIN hands the write to the stream
      const out = output(9, () => stream as never, () => {
        throw errno("EAGAIN");
      }, (e) => failures.push((e as Error).message));
      out.write("a");
      expect(out.write("b"), how).toBe(false);
      expect([out.gone, failures], how).toEqual([true, how === "broken pipe event" ? [] : ["EIO"]]);
    }
  });

  it("a file or pipe is no terminal, told without making the stream; a character device asks the stream", () => {
    const dir = mkdtempSync(join(tmpdir(), "pi-recipes-std-out-"));
    const file = openSync(join(dir, "f"), "w");
    const devNull = openSync("/dev/null", "w");
    try {
      const fileFake = fakeStream(true);
      expect(output(file, fileFake.make).isTTY).toBe(false);
      expect(fileFake.made()).toBe(0);
      const deviceFake = fakeStream(true);
      expect(output(devNull, deviceFake.make).isTTY).toBe(true);
      expect(deviceFake.made()).toBe(1);
    } finally {
      closeSync(file);
      closeSync(devNull);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("a large answer through a pipe whose reader is slow", () => {
  const base = mkdtempSync(join(tmpdir(), "pi-recipes-slow-reader-"));
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  /** runs the command with stdout a pipe read only after `wait` ms (the pipe, 64 kB, fills first) */
  const slowly = async (args: string[], env: Record<string, string>, wait: number) => {
    const child = spawn(process.execPath, [...cliNodeArgs(), ...args], { cwd: repoRoot, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.pause();
    const chunks: Buffer[] = [];
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString("utf8")));
    await new Promise((r) => setTimeout(r, wait));
    child.stdout.on("data", (d: Buffer) => chunks.push(d));
    child.stdout.resume();
    // a hang guard, not a timing goal: a command stuck on its output fails here, not at the test's limit
    const guard = setTimeout(() => child.kill("SIGKILL"), 60_000);
    const code = await new Promise<number | null>((done) => child.on("close", done)).finally(() => clearTimeout(guard));
    return { code, stdout: Buffer.concat(chunks).toString("utf8"), stderr };
  };

  it("arrives whole, printed by the full command (through node's stream) and by the front door from what was kept (written to the descriptor)", async () => {
    const agent = generateAgent(base, 600);
    // past the file-system clock's tick of the recipes just written (a file written within a
    // pass's tick is never vouched for)
    await nextTick(base, [agent]);
    const env = { PI_CODING_AGENT_DIR: agent };
    const args = ["inspect", "target=recipes", "view=summary", "--json"];
    const first = await slowly(args, env, 400);
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(first.stdout.length).toBeGreaterThan(256 * 1024);
    const answer = JSON.parse(first.stdout) as { ok: boolean; details: Record<string, unknown> };
    expect(answer.ok).toBe(true);
    // the first pass wrote the caches it reads, within its own tick: the second (again the full
    // command) keeps its answer, and the third is the front door's, printed from what was kept
    for (const run of ["second", "third"]) {
      await nextTick(base, [agent]);
      const again = await slowly(args, env, 400);
      expect(again.code, run).toBe(0);
      expect(again.stdout, run).toBe(first.stdout);
    }
  });
});

describe.skipIf(!existsSync("/dev/full"))("an output that cannot be written (stdout a full disk: /dev/full)", () => {
  const base = mkdtempSync(join(tmpdir(), "pi-recipes-full-disk-"));
  afterAll(() => rmSync(base, { recursive: true, force: true }));
  const agent = join(base, "agent");
  mkdirSync(join(agent, "recipes"), { recursive: true });
  writeFileSync(join(agent, "recipes", "hello.json"), JSON.stringify({ template: "echo hello" }));
  const env = { ...process.env, PI_CODING_AGENT_DIR: agent };

  /** runs the command with its stdout on /dev/full, where every write fails with ENOSPC */
  const toFullDisk = (args: string[], nodeArgs: string[] = []) => {
    const full = openSync("/dev/full", "w");
    try {
      const r = spawnSync(process.execPath, [...nodeArgs, ...cliNodeArgs(), ...args], { cwd: repoRoot, env, stdio: ["ignore", full, "pipe"], encoding: "utf8", timeout: 60_000 });
      return { code: r.status, stderr: r.stderr };
    } finally {
      closeSync(full);
    }
  };
  const saidOnce = "pi-recipes: cannot write to standard output: ENOSPC: no space left on device, write\n";

  it("fails the command with one line that says so, whichever part of the command prints", async () => {
    // the front door: its own answers, and a `list` from the kept list index (two passes first)
    for (let i = 0; i < 2; i++) {
      await nextTick(base, [agent]);
      expect(spawnSync(process.execPath, [...cliNodeArgs(), "list"], { cwd: repoRoot, env, encoding: "utf8" }).status).toBe(0);
    }
    await nextTick(base, [agent]);
    // the full command: a call (its tool runs, the answer cannot be printed), --json, an inspect,
    // and `watch`, which ends at its first line, its own status 0 set after the failure was said
    for (const args of [["--version"], ["list"], ["list", "--json"], ["call", "hello"], ["call", "hello", "--json"], ["inspect", "target=recipes", "view=summary"], ["watch"]]) {
      const r = toFullDisk(args);
      expect({ args, ...r }).toEqual({ args, code: 1, stderr: saidOnce });
    }
  });

  it("stderr on a full disk is dropped: the MCP server, which logs there, still serves", async () => {
    const full = openSync("/dev/full", "w");
    try {
      const child = spawn(process.execPath, [...cliNodeArgs(), "mcp"], { cwd: repoRoot, env, stdio: ["pipe", "pipe", full] });
      let out = "";
      child.stdout!.setEncoding("utf8").on("data", (d: string) => (out += d));
      const initialize = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "t", version: "1" } } };
      child.stdin!.end(`${JSON.stringify(initialize)}\n`);
      // a hang guard, not a timing goal
      const guard = setTimeout(() => child.kill("SIGKILL"), 60_000);
      const code = await new Promise<number | null>((done) => child.on("close", done)).finally(() => clearTimeout(guard));
      expect(code).toBe(0);
      const first = JSON.parse(out.split("\n")[0]!) as { id: number; result?: { serverInfo?: { name?: string } } };
      expect([first.id, first.result?.serverInfo?.name]).toEqual([1, "pi-recipes"]);
    } finally {
      closeSync(full);
    }
  });

  it("a damaged installation (main.cjs cut short) is reported by the front door in one line and a stack, exit 1", () => {
    const installed = join(base, "damaged", "host-cli");
    mkdirSync(installed, { recursive: true });
    copyFileSync(cliNodeArgs()[0]!, join(installed, "pi-recipes.cjs"));
    // a long minified line that does not parse, as a copy cut off in the middle leaves it
    writeFileSync(join(installed, "main.cjs"), `var a=${"1+".repeat(5000)}*2;\n`);
    const r = spawnSync(process.execPath, [join(installed, "pi-recipes.cjs"), "call", "hello"], { cwd: repoRoot, env, encoding: "utf8", timeout: 60_000 });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^pi-recipes: internal error: SyntaxError: /);
    expect(r.stderr.split("\n").every((line) => line.length < 400)).toBe(true);
  });

  it("a bug that escapes every handler: exit 1, one line and a stack trace, no source text", () => {
    const preload = join(base, "throws-later.cjs");
    writeFileSync(preload, 'setImmediate(() => { throw new Error("planted escape"); });\n');
    const r = spawnSync(process.execPath, ["-r", preload, ...cliNodeArgs(), "call", "hello"], { cwd: repoRoot, env, encoding: "utf8", timeout: 60_000 });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^pi-recipes: internal error: Error: planted escape\n {4}at /);
    // the stack's lines only: node's own report would start with the (minified) source line
    expect(r.stderr.split("\n").every((line) => line.length < 400)).toBe(true);
  });
});
