// `pi-recipes watch` as a real process: it prints the tool set's changes as they happen and
// exits 0 when interrupted.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdir, mkdtemp, rename, rm, unlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cliNodeArgs, repoRoot } from "../support/cli.js";

let agentDir: string;
let child: ChildProcess | undefined;

beforeEach(async () => {
  agentDir = await mkdtemp(join(tmpdir(), "pi-recipes-watch-cli-"));
});

afterEach(async () => {
  if (child !== undefined && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  child = undefined;
  await rm(agentDir, { recursive: true, force: true });
});

interface Lines {
  /** resolves with the next line that satisfies `match` (lines already read count) */
  next(match: (line: string) => boolean, what: string): Promise<string>;
  readonly all: string[];
}

function watchCli(json: boolean): { lines: Lines; exit: Promise<number | null>; stderr: () => string } {
  const proc = spawn(process.execPath, [...cliNodeArgs(), "watch", ...(json ? ["--json"] : [])], {
    cwd: repoRoot,
    env: { ...process.env, PI_CODING_AGENT_DIR: agentDir },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child = proc;
  const all: string[] = [];
  let consumed = 0;
  let buffer = "";
  let err = "";
  const waiters = new Set<() => void>();
  proc.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
    buffer += chunk;
    const parts = buffer.split("\n");
    buffer = parts.pop()!;
    all.push(...parts);
    for (const w of [...waiters]) w();
  });
  proc.stderr!.setEncoding("utf8").on("data", (chunk: string) => (err += chunk));
  const exit = new Promise<number | null>((resolve) => proc.on("exit", (code) => resolve(code)));
  const lines: Lines = {
    all,
    next: (match, what) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no line ${what} within 20 s; got ${JSON.stringify(all)}; stderr ${err}`));
        }, 20_000);
        function check(): void {
          while (consumed < all.length) {
            const line = all[consumed++]!;
            if (match(line)) {
              clearTimeout(timer);
              waiters.delete(check);
              resolve(line);
              return;
            }
          }
        }
        waiters.add(check);
        check();
      }),
  };
  return { lines, exit, stderr: () => err };
}

const recipe = (template: string): string => JSON.stringify({ template });

describe("pi-recipes watch", () => {
  it("--json prints a ready line, then one JSON line per change, and exits 0 on SIGINT", async () => {
    const root = join(agentDir, "recipes");
    await mkdir(root);
    await writeFile(join(root, "a.json"), recipe("echo a"));
    const { lines, exit, stderr } = watchCli(true);
    const ready = JSON.parse(await lines.next((l) => l.includes('"ready"'), "ready")) as Record<string, unknown>;
    expect(ready).toMatchObject({ event: "ready", root, mode: "root", generation: 0, tools: ["a"], diagnostics: [], drafts: [] });

    await writeFile(join(root, "b.json"), recipe("echo b"));
    const added = JSON.parse(await lines.next((l) => l.includes('"b"'), "adding b")) as Record<string, unknown>;
    expect(added).toMatchObject({ event: "change", generation: 1, added: ["b"], changed: [], removed: [], tools: 2 });

    await writeFile(join(root, "a.json"), "{ broken");
    const broken = JSON.parse(await lines.next((l) => l.includes('"removed":["a"]'), "removing a")) as Record<string, unknown>;
    expect(broken).toMatchObject({ generation: 2, diagnosticsChanged: true, tools: 1 });
    expect((broken["diagnostics"] as string[]).some((d) => d.startsWith(`Invalid recipe: ${join(root, "a.json")}`))).toBe(true);

    child!.kill("SIGINT");
    expect(await exit).toBe(0);
    expect(stderr()).toBe("");
    for (const line of lines.all) expect(() => JSON.parse(line) as unknown).not.toThrow();
  });

  it("prints text lines, follows a root created after start, and exits 0 on SIGTERM", async () => {
    const { lines, exit } = watchCli(false);
    const summary = await lines.next((l) => l.startsWith("watching "), "summary");
    expect(summary).toBe(`watching ${join(agentDir, "recipes")}: 0 tools, 0 diagnostics, 0 drafts (generation 0); the root is missing, watching its parent`);
    const root = join(agentDir, "recipes");
    await mkdir(root);
    await writeFile(join(root, "x.json"), recipe("echo x"));
    expect(await lines.next((l) => l.startsWith("+ "), "+ x")).toBe("+ x");
    // replaced whole (written beside the root, then renamed in), as an editor saves: a rewrite in
    // place can be read half-written on a loaded machine, which is a removal and an addition
    await writeFile(join(agentDir, "x.json.new"), recipe("echo x2"));
    await rename(join(agentDir, "x.json.new"), join(root, "x.json"));
    expect(await lines.next((l) => l.startsWith("~ "), "~ x")).toBe("~ x");
    await unlink(join(root, "x.json"));
    expect(await lines.next((l) => l.startsWith("- "), "- x")).toBe("- x");
    child!.kill("SIGTERM");
    expect(await exit).toBe(0);
  });

  it("ends when its stdout's reader has gone (`pi-recipes watch | head -1`), at the next line it prints", async () => {
    const root = join(agentDir, "recipes");
    await mkdir(root);
    const { lines, exit, stderr } = watchCli(false);
    await lines.next((l) => l.startsWith("watching "), "summary");
    // the reader goes: the next change's line meets a closed pipe
    child!.stdout!.destroy();
    await writeFile(join(root, "y.json"), recipe("echo y"));
    // a hang guard, not a timing goal: a watch that goes on fails here, not at the test's limit
    const code = await Promise.race([exit, new Promise((r) => setTimeout(() => r("still running after 30 s"), 30_000))]);
    expect(code).toBe(0);
    expect(stderr()).toBe("");
  });
});
