import { afterEach, describe, expect, it, vi } from "vitest";
import { commandReviewer, configuredReviewer, piReviewerArgv, runReviewerProcess, scriptedReviewer } from "../../../runtime/review/reviewer.js";
import { reviewPolicy } from "../../../runtime/review/host.js";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isAlive, waitUntil } from "../../../adapters/process/group.js";

describe("reviewers", () => {
  it("Pi's reviewer is a child pi -p with no tools and no extensions, the projection attached", () => {
    const argv = piReviewerArgv("/agent/tmp/input.md", "anthropic/claude");
    expect(argv.slice(0, 2)).toEqual(["pi", "-p"]);
    expect(argv).toContain("--no-tools");
    expect(argv).toContain("-ne");
    expect(argv).toContain("@/agent/tmp/input.md");
    expect(argv.slice(argv.indexOf("--model"), argv.indexOf("--model") + 2)).toEqual(["--model", "anthropic/claude"]);
  });

  it("a configured command runs without a shell: projection on stdin, reply on stdout", async () => {
    const script = "let s='';process.stdin.on('data',d=>s+=d);process.stdin.on('end',()=>process.stdout.write('got:'+s.length+' $HOME'))";
    const reviewer = commandReviewer(`${JSON.stringify(process.execPath)} -e ${JSON.stringify(script)}`);
    expect(await reviewer.review("12345")).toBe("got:5 $HOME");
  });

  it("a command line with a quote left open is refused, not run as some other command", async () => {
    await expect(commandReviewer("'unterminated").review("x")).rejects.toThrow(/^reviewer command has an unterminated ' quote: 'unterminated \(PI_RECIPES_REVIEWER\)$/);
  });

  it("a failing reviewer command is an error naming its exit", async () => {
    const reviewer = commandReviewer(`${JSON.stringify(process.execPath)} -e "process.exit(3)"`);
    await expect(reviewer.review("x")).rejects.toThrow(/code 3/);
  });

  it("policy: the environment's reviewer, the switch, and why nothing is scheduled without one", () => {
    expect(configuredReviewer({})).toBeUndefined();
    expect(reviewPolicy({}).reviewer).toBeUndefined();
    expect(reviewPolicy({}).describe).toMatch(/^none .*PI_RECIPES_REVIEWER/);
    expect(reviewPolicy({ PI_RECIPES_REVIEWER: "my-model --print" }).describe).toBe("command:my-model --print");
    for (const off of ["off", "FALSE", " 0 "]) expect(reviewPolicy({ PI_ACTORS_AUTOMATIC_REVIEW: off }).enabled).toBe(false);
    expect(reviewPolicy({ PI_ACTORS_AUTOMATIC_REVIEW: "on" }).enabled).toBe(true);
  });
});

const node = (script: string): string[] => [process.execPath, "-e", script];

describe("runReviewerProcess", () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllEnvs();
  });

  it("the reviewer does not inherit the HTTP server's token; the rest of the environment it does", async () => {
    vi.stubEnv("PI_RECIPES_MCP_TOKEN", "0123456789abcdef0123456789abcdef-test-token");
    vi.stubEnv("PI_RECIPES_MCP_TOKEN_FILE", "/somewhere/token");
    vi.stubEnv("PI_RECIPES_REVIEWER_TEST_MARK", "kept");
    const printed = await runReviewerProcess(["env"], "x");
    expect(printed).toContain("PI_RECIPES_REVIEWER_TEST_MARK=kept\n");
    expect(printed).not.toContain("PI_RECIPES_MCP_TOKEN");
  });

  it("an empty command line is refused before anything runs", async () => {
    await expect(runReviewerProcess([], "x")).rejects.toThrow(/^reviewer command is empty$/);
  });

  it("a command that cannot start says so", async () => {
    await expect(runReviewerProcess(["/nonexistent/reviewer"], "x")).rejects.toThrow(/^reviewer could not start: spawn \/nonexistent\/reviewer ENOENT$/);
  });

  it("a reviewer running past its time is killed, and the error says why", async () => {
    await expect(runReviewerProcess(node("setTimeout(() => {}, 60000)"), "x", 300)).rejects.toThrow(/^reviewer was killed: it ran longer than 0.3 s$/);
  });

  it("a reviewer past its time is killed with every process it started: a child holding its output open does not keep the review waiting", async () => {
    const dir = mkdtempSync(join(tmpdir(), "reviewer-group-"));
    try {
      const pidFile = join(dir, "child.pid");
      // a shell reviewer whose `sleep` inherits stdout, as `sleep 1000` in a bash script does
      const script = `sleep 1000 & echo $! > ${pidFile}; wait`;
      const t0 = Date.now();
      await expect(runReviewerProcess(["sh", "-c", script], "x", 500)).rejects.toThrow(/^reviewer was killed: it ran longer than 0.5 s$/);
      expect(Date.now() - t0).toBeLessThan(20_000);
      const child = Number(readFileSync(pidFile, "utf8").trim());
      expect(await waitUntil(() => !isAlive(child), 10_000)).toBe(true);
      // one that ends on its own takes what it left running with it
      const leftover = join(dir, "left.pid");
      expect(await runReviewerProcess(["sh", "-c", `sleep 1000 > /dev/null 2>&1 & echo $! > ${leftover}; echo reply`], "x")).toBe("reply\n");
      expect(await waitUntil(() => !isAlive(Number(readFileSync(leftover, "utf8").trim())), 10_000)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a configured reviewer has ten minutes", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const outcome = commandReviewer(node("setTimeout(() => {}, 60000)").map((w) => JSON.stringify(w)).join(" ")).review("x").catch((e: Error) => e.message);
    await vi.advanceTimersByTimeAsync(10 * 60 * 1000);
    expect(await outcome).toBe("reviewer was killed: it ran longer than 600 s");
  });

  it("exactly 16 MiB of output is the reply; one byte more kills the reviewer", async () => {
    const write = (n: number) => node(`process.stdout.write(Buffer.alloc(${n}, 97))`);
    expect((await runReviewerProcess(write(16 * 1024 * 1024), "x")).length).toBe(16 * 1024 * 1024);
    await expect(runReviewerProcess(write(16 * 1024 * 1024 + 1), "x")).rejects.toThrow(/^reviewer was killed: its output passed the limit of 16777216 bytes$/);
  });

  it("a failed exit names its code and the reviewer's stderr, trimmed and cut to 500 characters", async () => {
    await expect(runReviewerProcess(node("process.stderr.write('  boom \\n'); process.exit(3)"), "x")).rejects.toThrow(/^reviewer exited with code 3: boom$/);
    await expect(runReviewerProcess(node("process.exit(4)"), "x")).rejects.toThrow(/^reviewer exited with code 4$/);
    const long = await runReviewerProcess(node("process.stderr.write('e'.repeat(600) + 'TAIL'); process.exit(1)"), "x").catch((e: Error) => e.message);
    expect(long).toBe(`reviewer exited with code 1: ${"e".repeat(500)}`);
  });

  it("stderr is kept only until 4000 characters have arrived", async () => {
    const script = "process.stderr.write(' '.repeat(4000)); setTimeout(() => { process.stderr.write('late'); process.exit(1) }, 200)";
    await expect(runReviewerProcess(node(script), "x")).rejects.toThrow(/^reviewer exited with code 1$/);
    const shorter = "process.stderr.write(' '.repeat(3999)); setTimeout(() => { process.stderr.write('late'); process.exit(1) }, 200)";
    await expect(runReviewerProcess(node(shorter), "x")).rejects.toThrow(/^reviewer exited with code 1: late$/);
  });

  it("a reviewer killed by a signal names the signal", async () => {
    await expect(runReviewerProcess(node("process.kill(process.pid, 'SIGTERM'); setTimeout(() => {}, 5000)"), "x")).rejects.toThrow(/^reviewer exited with SIGTERM$/);
  });

  it("a reviewer that exits without reading its input still succeeds", async () => {
    expect(await runReviewerProcess(node("process.stdout.write('ok')"), "y".repeat(4 * 1024 * 1024))).toBe("ok");
  });
});

describe("reviewer descriptions", () => {
  it("a command reviewer is described by its line; the environment's line is trimmed, and a blank one is none", async () => {
    expect(commandReviewer("my-model --print").describe).toBe("command:my-model --print");
    expect(configuredReviewer({ PI_RECIPES_REVIEWER: "  my-model  " })?.describe).toBe("command:my-model");
    expect(configuredReviewer({ PI_RECIPES_REVIEWER: "   " })).toBeUndefined();
    expect(configuredReviewer({ PI_RECIPES_REVIEWER: "" })).toBeUndefined();
  });

  it("a scripted reviewer replies with its text and names its origin", async () => {
    const r = scriptedReviewer("REPLY", "/tmp/reply.txt");
    expect(r.describe).toBe("scripted: /tmp/reply.txt");
    expect(await r.review("anything")).toBe("REPLY");
  });

  it("Pi's reviewer argv, exactly, with and without a model", () => {
    const tail = ["@/in.md", "Review the attached draft batch as instructed in it."];
    expect(piReviewerArgv("/in.md")).toEqual(["pi", "-p", "--no-tools", "--no-session", "-ne", ...tail]);
    expect(piReviewerArgv("/in.md", "m/x")).toEqual(["pi", "-p", "--no-tools", "--no-session", "-ne", "--model", "m/x", ...tail]);
  });
});
