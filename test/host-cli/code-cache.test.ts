// The command's code cache on Node versions without one of their own (host-cli/code-cache.ts), on
// real files in real processes: a first run keeps V8's code beside the file, later runs use it, and
// whatever happens to the file or the cache, what runs is the file as it is now. (On Node 22, where
// node's own cache serves the file: test/host-pi/pi-cli.test.ts, which installs that Node.)
import { spawnSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import * as nodeModule from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SELF_WRAPPED } from "../../host-cli/code-cache.js";
import { nodeArgsFor, repoRoot } from "../support/cli.js";

let dir: string;
let file: string;
let cache: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "pi-code-cache-"));
  file = join(dir, "command.cjs");
  cache = join(dir, ".command.cjs.v8");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const runner = nodeArgsFor(join(repoRoot, "test", "support", "run-with-code-cache.ts"));

function run(node = process.execPath, env: NodeJS.ProcessEnv = {}): { status: number | null; stdout: string; stderr: string } {
  // the user's cache folder inside the test's own folder
  const r = spawnSync(node, [...runner, file], { encoding: "utf8", timeout: 60_000, env: { ...process.env, XDG_CACHE_HOME: join(dir, "xdg"), ...env } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** a command file printing `word` (every word the same length: V8 itself would not see the change) */
const command = (word: string): string =>
  `#!/usr/bin/env node
"use strict";
const { basename } = require("node:path");
function shout(w) { return w.toUpperCase(); }
module.exports.ran = true;
process.stdout.write(shout("${word}") + " " + basename(__filename) + " " + basename(__dirname).slice(0, 14) + " " + (typeof exports) + "\\n");
`;

const stamp = (path: string): string => {
  const s = statSync(path, { bigint: true });
  return `${s.ino}:${s.mtimeNs}:${s.ctimeNs}`;
};

/** the first line a cache of the file at `path` as it is now must begin with (its identity and this Node) */
const firstLineOf = (path: string): string => {
  const s = statSync(path, { bigint: true });
  return `pi-recipes-code-cache/1 ${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs} ${process.version} ${process.arch}`;
};

const nodeHasItsOwn = typeof (nodeModule as { getCompileCacheDir?: unknown }).getCompileCacheDir === "function";
if (nodeHasItsOwn) console.log(`skipped: node ${process.version} keeps compiled code itself (module.enableCompileCache); host-cli/code-cache.ts then only requires the file`);

describe.skipIf(nodeHasItsOwn)("the code cache on a Node without its own", () => {
  it("runs the file as require would, keeps V8's code beside it once, and uses it after", () => {
    writeFileSync(file, command("one"));
    const first = run();
    expect(first).toEqual({ status: 0, stdout: "ONE command.cjs pi-code-cache- object\n", stderr: "" });
    const header = readFileSync(cache).subarray(0, 200).toString("latin1").split("\n")[0]!;
    expect(header).toBe(firstLineOf(file));
    expect(statSync(cache).size).toBeGreaterThan(header.length + 100);
    const kept = stamp(cache);
    // V8 accepted it: a cache it refused would be written again
    for (let i = 0; i < 2; i++) expect(run().stdout).toBe("ONE command.cjs pi-code-cache- object\n");
    expect(stamp(cache)).toBe(kept);
    expect(readdirSync(dir).sort()).toEqual([".command.cjs.v8", "command.cjs"]);
  });

  it("a rewritten file runs as it is now, never from the code kept for the file before", () => {
    writeFileSync(file, command("one"));
    run();
    // the same length, other code: V8's own check (the length of the source) would pass
    writeFileSync(file, command("two"));
    expect(run().stdout).toBe("TWO command.cjs pi-code-cache- object\n");
    // and the cache now names the new file
    expect(readFileSync(cache, "latin1").split("\n")[0]).toBe(firstLineOf(file));
    expect(run().stdout).toBe("TWO command.cjs pi-code-cache- object\n");
  });

  it("a damaged cache is refused by V8 and written anew; the file runs all the same", () => {
    writeFileSync(file, command("one"));
    run();
    const bytes = readFileSync(cache);
    const headerEnd = bytes.indexOf(0x0a) + 1;
    for (let i = headerEnd; i < bytes.length; i += 7) bytes[i] = 0xa5;
    writeFileSync(cache, bytes);
    const damaged = stamp(cache);
    expect(run()).toEqual({ status: 0, stdout: "ONE command.cjs pi-code-cache- object\n", stderr: "" });
    expect(stamp(cache)).not.toBe(damaged);
    const kept = stamp(cache);
    expect(run().stdout).toBe("ONE command.cjs pi-code-cache- object\n");
    expect(stamp(cache)).toBe(kept);
  });


  it("processes with and without node options each keep their own cache, so neither refuses the other's every time", () => {
    writeFileSync(file, command("one"));
    // V8 refuses code made under other flags: --max-old-space-size is one of them
    const withOptions = { NODE_OPTIONS: "--max-old-space-size=300" };
    const flagged = join(dir, ".command.cjs.flags.v8");
    run();
    expect(run(process.execPath, withOptions)).toEqual({ status: 0, stdout: "ONE command.cjs pi-code-cache- object\n", stderr: "" });
    expect(readdirSync(dir).sort()).toEqual([".command.cjs.flags.v8", ".command.cjs.v8", "command.cjs"]);
    const plain = stamp(cache), options = stamp(flagged);
    // taking turns, each is served its own: neither file is written again
    for (let i = 0; i < 2; i++) {
      expect(run().stdout).toBe("ONE command.cjs pi-code-cache- object\n");
      expect(run(process.execPath, withOptions).stdout).toBe("ONE command.cjs pi-code-cache- object\n");
    }
    expect([stamp(cache), stamp(flagged)]).toEqual([plain, options]);
    // options on the command line count too
    const direct = spawnSync(process.execPath, ["--max-old-space-size=300", ...runner, file], { encoding: "utf8", env: { ...process.env, XDG_CACHE_HOME: join(dir, "xdg") } });
    expect(direct.stdout).toBe("ONE command.cjs pi-code-cache- object\n");
    expect([stamp(cache), stamp(flagged)]).toEqual([plain, options]);
  });
  it("where the command's folder cannot take the cache, the user's cache folder keeps it", () => {
    writeFileSync(file, command("one"));
    // a folder where the cache would go: the rename into place fails (as root, a folder without
    // write permission would not stop the write)
    mkdirSync(join(cache, "taken"), { recursive: true });
    const userCache = join(dir, "xdg", "pi-recipes");
    const first = run();
    expect(first).toEqual({ status: 0, stdout: "ONE command.cjs pi-code-cache- object\n", stderr: "" });
    const kept = readdirSync(userCache);
    expect(kept).toEqual([expect.stringMatching(/^command\.cjs-[0-9a-f]{8}\.v8$/)]);
    expect(statSync(userCache).mode & 0o777).toBe(0o700);
    const stamped = stamp(join(userCache, kept[0]!));
    // used from there: not written again
    for (let i = 0; i < 2; i++) expect(run().stdout).toBe("ONE command.cjs pi-code-cache- object\n");
    expect(stamp(join(userCache, kept[0]!))).toBe(stamped);
    // nothing left behind beside the command
    expect(readdirSync(dir).sort()).toEqual([".command.cjs.v8", "command.cjs", "xdg"]);
    expect(readdirSync(cache)).toEqual(["taken"]);
    // and a rewritten command is not served from it
    writeFileSync(file, command("two"));
    expect(run().stdout).toBe("TWO command.cjs pi-code-cache- object\n");
  });

  it("the user's cache folder is used only when no one else may write it or its files", () => {
    writeFileSync(file, command("one"));
    mkdirSync(join(cache, "taken"), { recursive: true });
    const userCache = join(dir, "xdg", "pi-recipes");
    run();
    const [name] = readdirSync(userCache);
    const kept = join(userCache, name!);
    // another user's cache: V8's code for "one", put back under a first line naming the file
    // as it is after a rewrite to "two" (anyone can read a file's identity)
    const code = readFileSync(kept);
    const forged = code.subarray(code.indexOf(0x0a) + 1);
    writeFileSync(file, command("two"));
    const plant = (): void => writeFileSync(kept, Buffer.concat([Buffer.from(`${firstLineOf(file)}\n`), forged]));
    // a folder others may write, a file others may write: not read
    plant();
    chmodSync(userCache, 0o777);
    expect(run().stdout).toBe("TWO command.cjs pi-code-cache- object\n");
    chmodSync(userCache, 0o700);
    plant();
    chmodSync(kept, 0o666);
    expect(run().stdout).toBe("TWO command.cjs pi-code-cache- object\n");
    // the detector: the same planted file, the user's own, is served, and runs the old code
    plant();
    chmodSync(kept, 0o644);
    expect(run().stdout).toBe("ONE command.cjs pi-code-cache- object\n");
  });

  it("the cache beside the command is used only when no one but the user or the command's owner wrote it", () => {
    writeFileSync(file, command("one"));
    run();
    const code = readFileSync(cache);
    const forged = code.subarray(code.indexOf(0x0a) + 1);
    writeFileSync(file, command("two"));
    const plant = (mode: number): void => {
      rmSync(cache, { force: true });
      writeFileSync(cache, Buffer.concat([Buffer.from(`${firstLineOf(file)}\n`), forged]));
      chmodSync(cache, mode);
    };
    // a file others may write: not read (and written anew)
    plant(0o666);
    expect(run().stdout).toBe("TWO command.cjs pi-code-cache- object\n");
    if (process.getuid?.() === 0) {
      // a file of another user, neither this one nor the command's owner
      plant(0o644);
      chownSync(cache, 65534, 65534);
      expect(run().stdout).toBe("TWO command.cjs pi-code-cache- object\n");
    } else console.log("skipped the other owner's file: only root can give a file to another user");
    // the detector: the same planted file, this user's, is served, and runs the old code
    plant(0o644);
    expect(run().stdout).toBe("ONE command.cjs pi-code-cache- object\n");
  });

  it("a cache neither place can take costs only the speed: no error, no file left behind", () => {
    writeFileSync(file, command("one"));
    mkdirSync(join(cache, "taken"), { recursive: true });
    // the user's cache folder cannot be made: a file stands where it would go
    mkdirSync(join(dir, "xdg"));
    writeFileSync(join(dir, "xdg", "pi-recipes"), "");
    for (let i = 0; i < 2; i++) expect(run()).toEqual({ status: 0, stdout: "ONE command.cjs pi-code-cache- object\n", stderr: "" });
    expect(readdirSync(dir).sort()).toEqual([".command.cjs.v8", "command.cjs", "xdg"]);
    expect(readdirSync(join(dir, "xdg"))).toEqual(["pi-recipes"]);
  });

  it("a file that is not ASCII is read as UTF-8, with or without the kept code", () => {
    writeFileSync(file, `process.stdout.write("h\u00e9llo \u2014 \u{1f600} " + __filename.endsWith("command.cjs") + "\\n");\n`);
    for (let i = 0; i < 2; i++) expect(run()).toEqual({ status: 0, stdout: "h\u00e9llo \u2014 \u{1f600} true\n", stderr: "" });
    expect(existsSync(cache)).toBe(true);
  });

  it("a file written inside the module function (as the build writes main.cjs) runs the same through the loader, its kept code and node itself", () => {
    const body = command("one").split("\n");
    // after the #! line, the wrapper's first line; at the end, its close
    writeFileSync(file, [body[0], SELF_WRAPPED, ...body.slice(1), "});", ""].join("\n"));
    const expected = { status: 0, stdout: "ONE command.cjs pi-code-cache- object\n", stderr: "" };
    expect(run()).toEqual(expected);
    expect(existsSync(cache)).toBe(true);
    expect(run()).toEqual(expected);
    const direct = spawnSync(process.execPath, [file], { encoding: "utf8" });
    expect({ status: direct.status, stdout: direct.stdout, stderr: direct.stderr }).toEqual(expected);
    // the marker the loader sets while it compiles is gone after
    writeFileSync(join(dir, "probe.cjs"), `process.stdout.write(String(globalThis[Symbol.for("pi-recipes.self-wrapped")]));\n`);
    writeFileSync(file, [SELF_WRAPPED, `require(${JSON.stringify(join(dir, "probe.cjs"))});`, "});", ""].join("\n"));
    expect(run().stdout).toBe("undefined");
  });

  it("an error the file throws is the process's, as with require", () => {
    writeFileSync(file, `throw new Error("broken command");\n`);
    const r = run();
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("broken command");
    expect(r.stderr).toContain("command.cjs");
  });
});
