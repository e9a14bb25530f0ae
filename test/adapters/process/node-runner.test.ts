import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { nodeProcessRunner, runProcess } from "../../../adapters/process/node-runner.js";
import type { Invocation } from "../../../adapters/process/ProcessRunner.js";
import { eventually, groupGone, text } from "./groups.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "pi-recipes-runner-test-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const sh = (script: string, extra: Partial<Invocation> = {}): Invocation => ({ command: "sh", args: ["-c", script], cwd: dir, ...extra });
const ECHO_ARGV = "process.stdout.write(JSON.stringify(process.argv.slice(1)))";

describe("exit codes and streams", () => {
  it("reports the exit code and both streams separately", async () => {
    const r = await runProcess(sh("printf out; printf err >&2; exit 7"));
    expect(r).toMatchObject({ code: 7, killed: false, timedOut: false, stdoutBytes: 3, stderrBytes: 3, stdoutTruncated: false, stderrTruncated: false });
    expect(text(r.stdout)).toBe("out");
    expect(text(r.stderr)).toBe("err");
    expect(r.stdoutFile).toBeUndefined();
    expect(r.signal).toBeUndefined();
    expect(r.durationMs).toBeGreaterThanOrEqual(0);
  });

  it("passes the environment on without the HTTP server's token variables", async () => {
    const env = { PATH: process.env["PATH"] ?? "/usr/bin:/bin", KEPT: "yes", PI_RECIPES_MCP_TOKEN: "t".repeat(40), PI_RECIPES_MCP_TOKEN_FILE: "/x/token" };
    const r = await runProcess({ command: "env", args: [], cwd: dir, env });
    expect(text(r.stdout)).toContain("KEPT=yes\n");
    expect(text(r.stdout)).not.toContain("PI_RECIPES_MCP_TOKEN");
  });

  it("reports exit 0 with empty output", async () => {
    const r = await runProcess({ command: "true", args: [], cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout.length).toBe(0);
    expect(r.stderr.length).toBe(0);
  });

  it("reports a process ended by a signal as code 1 with the signal", async () => {
    const r = await runProcess(sh("kill -9 $$"));
    expect(r).toMatchObject({ code: 1, signal: "SIGKILL", killed: false });
  });

  it("runs in the given working directory with exactly the given environment", async () => {
    const r = await runProcess({ command: "sh", args: ["-c", 'pwd; printf "%s|%s" "$ONLY" "${HOME-unset}"'], cwd: dir, env: { ONLY: "yes", PATH: process.env["PATH"] ?? "" } });
    const [cwd, env] = text(r.stdout).split("\n");
    expect(basename(cwd ?? "")).toBe(basename(dir));
    expect(env).toBe("yes|unset");
  });
});

describe("argv arrives exactly, with no shell in between", () => {
  const nasty = [
    "two words",
    "'single'",
    '"double"',
    "a;b",
    "$(echo injected)",
    "`echo injected`",
    "*",
    "~",
    "$HOME",
    "line1\nline2",
    "tab\there",
    "ünïcødé ✓ 🎉",
    "",
    "--flag",
    "-e",
    "a\\b",
    "| cat",
    "> out.txt",
  ];

  it("passes every item unchanged", async () => {
    const r = await runProcess({ command: process.execPath, args: ["-e", ECHO_ARGV, "--", ...nasty], cwd: dir });
    expect(r.code).toBe(0);
    expect(JSON.parse(text(r.stdout))).toEqual(nasty);
  });

  it("does not create files from redirection-like arguments", async () => {
    await runProcess({ command: "printf", args: ["%s", "> out.txt"], cwd: dir });
    await expect(stat(join(dir, "out.txt"))).rejects.toMatchObject({ code: "ENOENT" });
  });
});

describe("stdin", () => {
  it("pipes the given text and closes stdin", async () => {
    const r = await runProcess({ command: "cat", args: [], cwd: dir, stdin: "hello\nwörld" });
    expect(text(r.stdout)).toBe("hello\nwörld");
  });

  it("pipes bytes as given", async () => {
    const bytes = new Uint8Array([0, 255, 10, 128]);
    const r = await runProcess({ command: "cat", args: [], cwd: dir, stdin: bytes });
    expect([...r.stdout]).toEqual([...bytes]);
  });

  it("an empty stdin is an immediate end of input", async () => {
    const r = await runProcess({ command: "cat", args: [], cwd: dir, stdin: "" });
    expect(r.code).toBe(0);
    expect(r.stdout.length).toBe(0);
  });

  it("without stdin the child reads end of input at once", async () => {
    const r = await runProcess({ command: "cat", args: [], cwd: dir, timeoutMs: 2000 });
    expect(r).toMatchObject({ code: 0, killed: false });
  });

  it("a child that exits without reading a large stdin does not crash the runner (EPIPE)", async () => {
    const r = await runProcess({ command: "true", args: [], cwd: dir, stdin: Buffer.alloc(4 * 1024 * 1024, 120) });
    expect(r.code).toBe(0);
  });
});

describe("spawn errors", () => {
  it("a missing executable is code 1 with the error message on stderr", async () => {
    const r = await runProcess({ command: "definitely-missing-bin", args: [], cwd: dir });
    const message = 'Could not start "definitely-missing-bin": not found on PATH (spawn definitely-missing-bin ENOENT)';
    expect(r).toMatchObject({ code: 1, killed: false, spawnError: message, stderrBytes: message.length });
    expect(text(r.stderr)).toBe(message);
    expect(r.pid).toBeUndefined();
  });

  it("a file that is not executable is EACCES", async () => {
    const r = await runProcess({ command: dir, args: [], cwd: dir });
    expect(r.code).toBe(1);
    expect(text(r.stderr)).toBe(`Could not start ${JSON.stringify(dir)}: permission denied, not an executable file (spawn ${dir} EACCES)`);
  });

  it("a missing working directory is named as such", async () => {
    const r = await runProcess({ command: "sh", args: [], cwd: join(dir, "nope") });
    expect(r.code).toBe(1);
    expect(r.spawnError).toBe(`spawn sh ENOENT (working directory not found: ${join(dir, "nope")})`);
  });

  it("an argument the OS cannot take (NUL byte) is a result, not a throw, saying the command never started and which argument", async () => {
    const r = await runProcess({ command: "printf", args: ["%s", "a\0b"], cwd: dir });
    expect(r.code).toBe(1);
    expect(r.spawnError).toBe('Could not start "printf": argument 2 holds a NUL byte, which no command line can carry');
    expect(r.stderr.toString()).toBe(r.spawnError);
    const named = await runProcess({ command: "print\0f", args: [], cwd: dir });
    expect(named.spawnError).toBe('Could not start "print\\u0000f": the command name holds a NUL byte');
  });

  it("arguments over what one command line takes are a result saying so, with their sizes, and what to do instead", async () => {
    // one argument over the system's bound for a single one (128 KiB on Linux)
    const one = await runProcess({ command: "printf", args: ["%s", "a".repeat(200_000)], cwd: dir });
    expect(one.code).toBe(1);
    expect(one.spawnError).toBe(
      'Could not start "printf": the arguments are too long for one command line (200011 bytes in all, the longest argument 200000 bytes: one argument may hold at most 131071 bytes, 128 KiB with the NUL that ends it); pass large input on stdin or in a file instead',
    );
    expect(one.stderr.toString()).toBe(one.spawnError);
    // the only argument, over that bound, is named too: it is what the system refused
    const alone = await runProcess({ command: "echo", args: ["a".repeat(200_000)], cwd: dir });
    expect(alone.spawnError).toBe(
      'Could not start "echo": the arguments are too long for one command line (200006 bytes in all, the longest argument 200000 bytes: one argument may hold at most 131071 bytes, 128 KiB with the NUL that ends it); pass large input on stdin or in a file instead',
    );
    // 131072 bytes and the NUL that ends it are one byte over the one-argument bound, and the
    // message says that bound was passed; one byte fewer runs
    const edge = await runProcess({ command: "echo", args: ["a".repeat(131_072)], cwd: dir });
    expect(edge.spawnError).toBe(
      'Could not start "echo": the arguments are too long for one command line (131078 bytes in all, the longest argument 131072 bytes: one argument may hold at most 131071 bytes, 128 KiB with the NUL that ends it); pass large input on stdin or in a file instead',
    );
    const fits = await runProcess({ command: "echo", args: ["a".repeat(131_071)], cwd: dir });
    expect([fits.code, fits.spawnError, fits.stdout.length]).toEqual([0, undefined, 131_072]);
    // many arguments, each within that bound, together over the whole command line's
    const many = await runProcess({ command: "printf", args: Array.from({ length: 20 }, () => "é".repeat(60_000)), cwd: dir });
    expect(many.spawnError).toBe(
      'Could not start "printf": the arguments are too long for one command line (2400027 bytes in all, the longest argument 120000 bytes: over the bound on a whole command line, ARG_MAX, the environment counted in); pass large input on stdin or in a file instead',
    );
  });
});

describe("timeout and abort end the whole process group", () => {
  // The shell prints its pid (= the group id) and its two background children's pids.
  const family = "echo $$; sleep 30 & echo $!; sleep 30 & echo $!; wait";

  it("a timeout kills the shell and its background children", async () => {
    const r = await runProcess(sh(family, { timeoutMs: 300 }));
    const pids = text(r.stdout).trim().split("\n").map(Number);
    expect(pids).toHaveLength(3);
    expect(pids[0]).toBe(r.pid);
    expect(r).toMatchObject({ code: 1, killed: true, timedOut: true, signal: "SIGTERM" });
    expect(groupGone(r.pid ?? 0)).toBe(true);
  });

  it("SIGKILL follows after the grace when SIGTERM is ignored", async () => {
    // the shell notes the SIGTERM and carries on; only the SIGKILL after the grace ends it
    const r = await runProcess(sh("trap 'echo got-term' TERM; echo $$; sleep 30 & wait; sleep 30", { timeoutMs: 200, killGraceMs: 300 }));
    expect(r).toMatchObject({ code: 1, killed: true, timedOut: true, signal: "SIGKILL" });
    expect(text(r.stdout)).toBe(`${r.pid}\ngot-term\n`);
    expect(groupGone(r.pid ?? 0)).toBe(true);
  });

  it("a process that exits 0 on SIGTERM still reports a failed, killed run", async () => {
    const r = await runProcess(sh("trap 'exit 0' TERM; sleep 30 & wait", { timeoutMs: 200 }));
    expect(r).toMatchObject({ code: 1, killed: true, timedOut: true });
  });

  it("an abort signal kills the group", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const r = await runProcess(sh(family, { signal: controller.signal }));
    expect(r).toMatchObject({ code: 1, killed: true, timedOut: false });
    expect(groupGone(r.pid ?? 0)).toBe(true);
  });

  it("an already aborted signal starts nothing", async () => {
    const controller = new AbortController();
    controller.abort();
    const r = await runProcess(sh(`touch ${JSON.stringify(join(dir, "ran"))}`, { signal: controller.signal }));
    expect(r).toMatchObject({ code: 1, killed: true });
    await expect(stat(join(dir, "ran"))).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("background children left behind by a finished leader are ended with it", async () => {
    const r = await runProcess(sh("sleep 30 & echo $!"));
    expect(r).toMatchObject({ code: 0, killed: false, timedOut: false });
    expect(groupGone(r.pid ?? 0)).toBe(true);
  });

  it("a timeout still ends the run when an escaped process holds the output open", async () => {
    // The leader waits until the child has left the group (its pid file appears after setsid).
    const escape = "setsid sh -c 'echo $$ > p.tmp && mv p.tmp escaped.pid && exec sleep 30' & while [ ! -f escaped.pid ]; do sleep 0.01; done; cat escaped.pid";
    const r = await runProcess(sh(escape, { timeoutMs: 300 }));
    const escaped = Number(text(r.stdout).trim());
    try {
      // it returned (instead of waiting for the escaped sleep's 30 s) as a timeout
      expect(r).toMatchObject({ code: 1, killed: true, timedOut: true });
    } finally {
      process.kill(escaped, "SIGKILL");
    }
  });

  it("a run that ends in time is not killed", async () => {
    const r = await runProcess(sh("sleep 0.05; echo done", { timeoutMs: 2000 }));
    expect(r).toMatchObject({ code: 0, killed: false, timedOut: false });
    expect(text(r.stdout)).toBe("done\n");
  });
});

describe("bounded capture", () => {
  // 10 MB of a pattern whose every position is checkable: byte i = i % 251.
  const TEN_MB = 10 * 1024 * 1024;
  const pattern = `const n=${TEN_MB};const b=Buffer.alloc(n);for(let i=0;i<n;i++)b[i]=i%251;process.stdout.write(b)`;

  it("keeps the tail of a 10 MB stdout in memory and all of it in the spill file", async () => {
    const r = await runProcess({ command: process.execPath, args: ["-e", pattern], cwd: dir, spillDir: join(dir, "spill") });
    expect(r).toMatchObject({ code: 0, stdoutBytes: TEN_MB, stdoutTruncated: true, stderrTruncated: false });
    expect(r.stdout.length).toBe(1024 * 1024);
    const tailStart = TEN_MB - 1024 * 1024;
    expect(r.stdout.every((byte, i) => byte === (tailStart + i) % 251)).toBe(true);
    expect(r.stdoutFile).toBe(join(dir, "spill", "stdout.log"));
    const full = await readFile(r.stdoutFile ?? "");
    expect(full.length).toBe(TEN_MB);
    expect(full.every((byte, i) => byte === i % 251)).toBe(true);
    expect(r.stderrFile).toBeUndefined();
  });

  it("spills to a fresh pi-recipes-command-* folder when none is given, per stream", async () => {
    const r = await runProcess(sh("printf 0123456789; printf abcdefghij >&2", { captureLimitBytes: 4 }));
    expect(text(r.stdout)).toBe("6789");
    expect(text(r.stderr)).toBe("ghij");
    expect(r).toMatchObject({ stdoutBytes: 10, stderrBytes: 10, stdoutTruncated: true, stderrTruncated: true });
    const spill = dirname(r.stdoutFile ?? "");
    expect(basename(spill)).toMatch(/^pi-recipes-command-/);
    expect(dirname(spill)).toBe(tmpdir());
    expect(await readFile(join(spill, "stdout.log"), "utf8")).toBe("0123456789");
    expect(await readFile(join(spill, "stderr.log"), "utf8")).toBe("abcdefghij");
    await rm(spill, { recursive: true, force: true });
  });

  it("a stream exactly at the limit is not truncated and spills nothing", async () => {
    const r = await runProcess(sh("printf 1234", { captureLimitBytes: 4, spillDir: join(dir, "spill") }));
    expect(r).toMatchObject({ stdoutBytes: 4, stdoutTruncated: false });
    expect(r.stdoutFile).toBeUndefined();
    await expect(stat(join(dir, "spill", "stdout.log"))).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("the tail starts on a UTF-8 boundary", async () => {
    // "é" is two bytes; an odd limit cuts one in half.
    const r = await runProcess(sh("printf 'ééééé'", { captureLimitBytes: 5, spillDir: join(dir, "spill") }));
    expect(text(r.stdout)).toBe("éé");
    expect(r.stdoutBytes).toBe(10);
  });

  it("an unwritable spill folder keeps the tail and reports no file", async () => {
    await writeFile(join(dir, "plain-file"), "");
    const r = await runProcess(sh("printf 0123456789", { captureLimitBytes: 4, spillDir: join(dir, "plain-file", "spill") }));
    expect(r).toMatchObject({ code: 0, stdoutTruncated: true, stdoutBytes: 10 });
    expect(text(r.stdout)).toBe("6789");
    expect(r.stdoutFile).toBeUndefined();
  });
});

describe("bad numbers fall back to defaults instead of misbehaving", () => {
  it.each([Number.NaN, -1, Number.POSITIVE_INFINITY, 2 ** 40])("timeoutMs %s means no timeout", async (timeoutMs) => {
    const r = await runProcess(sh("sleep 0.05; printf ok", { timeoutMs, killGraceMs: Number.NaN }));
    expect(r).toMatchObject({ code: 0, killed: false, timedOut: false });
    expect(text(r.stdout)).toBe("ok");
  });

  it.each([Number.NaN, -4, Number.POSITIVE_INFINITY])("captureLimitBytes %s means the 1 MiB default", async (captureLimitBytes) => {
    const r = await runProcess(sh("printf 0123456789", { captureLimitBytes }));
    expect(r).toMatchObject({ stdoutBytes: 10, stdoutTruncated: false });
    expect(text(r.stdout)).toBe("0123456789");
  });
});

describe("runner-level retry", () => {
  const counter = (succeedOn: number, more = ""): string =>
    `n=$(cat count 2>/dev/null || echo 0); n=$((n+1)); echo $n > count; echo "try $n"; ${more} [ $n -ge ${succeedOn} ]`;

  it("re-runs until exit 0 and reports the attempts", async () => {
    const { result, attempts } = await nodeProcessRunner.runWithRetry(sh(counter(3)), 5);
    expect(attempts).toBe(3);
    expect(result.code).toBe(0);
    expect(text(result.stdout)).toBe("try 3\n");
  });

  it("stops after the last attempt with the last failure", async () => {
    const { result, attempts } = await nodeProcessRunner.runWithRetry(sh(counter(10)), 2);
    expect(attempts).toBe(2);
    expect(result.code).toBe(1);
    expect(text(result.stdout)).toBe("try 2\n");
  });

  it("a first success runs once", async () => {
    const { attempts } = await nodeProcessRunner.runWithRetry(sh("exit 0"), 4);
    expect(attempts).toBe(1);
  });

  it("each attempt spills into its own attempt-NNN folder", async () => {
    const spillDir = join(dir, "capture");
    const { attempts } = await nodeProcessRunner.runWithRetry(sh(counter(2, "printf 0123456789;"), { captureLimitBytes: 4, spillDir }), 3);
    expect(attempts).toBe(2);
    expect(await readFile(join(spillDir, "attempt-001", "stdout.log"), "utf8")).toBe("try 1\n0123456789");
    expect(await readFile(join(spillDir, "attempt-002", "stdout.log"), "utf8")).toBe("try 2\n0123456789");
  });

  it("an abort stops the retries", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 150);
    const { result, attempts } = await nodeProcessRunner.runWithRetry(sh("sleep 30", { signal: controller.signal }), 5);
    expect(attempts).toBe(1);
    expect(result.killed).toBe(true);
  });
});

it("nothing of a finished run keeps running (sanity check of the helper)", async () => {
  const r = await runProcess(sh("echo $$"));
  expect(await eventually(() => groupGone(Number(text(r.stdout).trim())))).toBe(true);
});
