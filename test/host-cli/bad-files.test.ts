// Files that are not regular files, and roots that cannot be read, never hang or crash the CLI:
// `pi-recipes list` answers with a diagnostic. Each command runs as a real process; a hang would
// end with the process killed at the time limit, which the assertions on its status refuse.
import { spawn } from "node:child_process";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { once } from "node:events";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cliNodeArgs, repoRoot } from "../support/cli.js";

let dir: string;
let agent: string;
let recipes: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "pi-recipes-bad-files-"));
  agent = join(dir, "agent");
  recipes = join(agent, "recipes");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const LIMIT_MS = 20_000;

/** The CLI as a child process, killed if it has not answered within LIMIT_MS. */
function cli(args: readonly string[]): Promise<{ status: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...cliNodeArgs(), ...args], {
      cwd: repoRoot,
      env: { ...process.env, PI_CODING_AGENT_DIR: agent },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), LIMIT_MS);
    child.on("close", (status, signal) => {
      clearTimeout(timer);
      resolve({ status, signal, stdout, stderr });
    });
  });
}

const mkfifo = (path: string): void => void execFileSync("mkfifo", [path]);

describe("pi-recipes list with files that are not regular files", () => {
  it("a FIFO named like a recipe is a diagnostic; the other recipes are listed", async () => {
    mkdirSync(recipes, { recursive: true });
    writeFileSync(join(recipes, "good.json"), JSON.stringify({ description: "fine", template: "echo ok" }));
    mkfifo(join(recipes, "pipe.json"));
    // a Unix socket cannot even be opened (ENXIO): said the same way
    const socket = createServer().listen(join(recipes, "sock.json"));
    await once(socket, "listening");
    try {
      const r = await cli(["list", "--json"]);
      expect(r.signal).toBeNull();
      expect(r.status).toBe(0);
      const body = JSON.parse(r.stdout) as { text: string };
      expect(body.text).toContain("good");
      for (const name of ["pipe.json", "sock.json"]) expect(body.text).toContain(`not a regular file (a FIFO, socket or device): ${join(recipes, name)}`);
      expect(body.text).not.toContain("ENXIO");
    } finally {
      socket.close();
    }
  }, LIMIT_MS + 10_000);

  it("a FIFO or /dev/stdin as an import is a diagnostic naming it", async () => {
    mkdirSync(recipes, { recursive: true });
    const fifo = join(dir, "lib.json");
    mkfifo(fifo);
    writeFileSync(join(recipes, "uses-fifo.json"), JSON.stringify({ description: "d", imports: { lib: fifo }, template: { name: "lib" } }));
    writeFileSync(join(recipes, "uses-stdin.json"), JSON.stringify({ description: "d", imports: { lib: "/dev/stdin" }, template: { name: "lib" } }));
    writeFileSync(join(recipes, "good.json"), JSON.stringify({ description: "fine", template: "echo ok" }));
    const r = await cli(["list", "--json"]);
    expect(r.signal).toBeNull();
    expect(r.status).toBe(0);
    const body = JSON.parse(r.stdout) as { text: string };
    expect(body.text).toContain("good");
    expect(body.text).toContain(fifo);
    expect(body.text).toContain("/dev/stdin");
  }, LIMIT_MS + 10_000);

  it("a NUL byte in an import path is a clear error naming the recipe", async () => {
    mkdirSync(recipes, { recursive: true });
    writeFileSync(join(recipes, "nul.json"), JSON.stringify({ description: "d", imports: { lib: "./li\u0000b.json" }, template: { name: "lib" } }));
    const r = await cli(["list", "--json"]);
    expect(r.signal).toBeNull();
    expect(r.status).toBe(0);
    const body = JSON.parse(r.stdout) as { text: string };
    expect(body.text).toContain(join(recipes, "nul.json"));
    expect(body.text).toContain("contains a NUL byte");
  }, LIMIT_MS + 10_000);

  it("a symlink loop as the recipe root is a clear error, and the list a failure", async () => {
    mkdirSync(agent, { recursive: true });
    symlinkSync(recipes, recipes);
    const r = await cli(["list", "--json"]);
    expect(r.signal).toBeNull();
    const body = JSON.parse(r.stdout) as { ok: boolean; text: string };
    expect(body.text).toContain(recipes);
    expect(body.text).toMatch(/Failed to inspect recipe root .*: ELOOP: the path is a symbolic link loop/);
    // every tool of that root is missing from the list: not a success
    expect(r.status).toBe(1);
    expect(body.ok).toBe(false);
    expect(body.text).toMatch(/^Recipe root .* could not be read: the tools it holds are not listed\./);
  }, LIMIT_MS + 10_000);

  it("recipes that each import the next twice (2^29 commands in 30 small files) are one invalid recipe, and a call of another tool runs", async () => {
    // imports are placed by reference, so the graph is 30 nodes; walked as a tree it is 2^29
    // leaves, which used to block the process (SIGTERM included) for far longer than the limit
    const lib = join(agent, "lib");
    mkdirSync(lib, { recursive: true });
    mkdirSync(recipes, { recursive: true });
    const depth = 30;
    for (let i = 0; i < depth; i++) {
      const next = `d${i + 1}.json`;
      const body = i === depth - 1 ? { description: "end", template: "echo end" } : { description: `d${i}`, imports: { a: next, b: next }, template: [{ name: "a" }, { name: "b" }] };
      writeFileSync(join(lib, `d${i}.json`), JSON.stringify(body));
    }
    writeFileSync(join(recipes, "wide.json"), JSON.stringify({ description: "wide", imports: { n: "{agent}/lib/d0.json" }, template: { name: "n" } }));
    writeFileSync(join(recipes, "ok.json"), JSON.stringify({ description: "fine", template: "echo ok" }));
    const listed = await cli(["list"]);
    expect(listed.signal).toBeNull();
    expect(listed.stdout).toContain(`Invalid recipe: ${join(recipes, "wide.json")}: Command template expands to more than 10000 commands.`);
    const called = await cli(["call", "ok"]);
    expect(called.signal).toBeNull();
    expect(called.status).toBe(0);
    expect(called.stdout).toBe("ok\n");
  }, 2 * LIMIT_MS + 10_000);
});
