#!/usr/bin/env node
// `npm test`: the type check (`tsc --noEmit` over the sources, the tests and the scripts) and
// vitest, side by side rather than one after the other. Most test files wait on the processes
// they start, so the type check's 20-odd seconds of CPU fit beside them. vitest prints as it runs;
// the type check's errors are printed once it ends. The exit code is vitest's, or the type
// check's when that failed: a run is green only when both are. Arguments go to vitest
// (`npm test -- test/runtime` runs that folder, still with the whole type check).
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
/** a package's command, by its package.json's `bin` (the files themselves are not exported) */
function binOf(pkg, name) {
  const manifest = require.resolve(`${pkg}/package.json`);
  const { bin } = JSON.parse(readFileSync(manifest, "utf8"));
  return join(dirname(manifest), typeof bin === "string" ? bin : bin[name]);
}
const tscBin = binOf("typescript", "tsc");
const vitestBin = binOf("vitest", "vitest");

/** runs `args` with this node; resolves to its exit code (1 when it was killed by a signal) */
function run(args, stdio) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio });
    let output = "";
    child.stdout?.on("data", (d) => (output += d));
    child.stderr?.on("data", (d) => (output += d));
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code: code ?? (signal === null ? 0 : 1), signal, output }));
  });
}

// incremental: a run after the first re-checks what changed since (about 8 s of CPU against 34 for
// the whole check on 2 cores); what it keeps between runs is .cache/typecheck.tsbuildinfo
const typecheck = run([tscBin, "-p", "tsconfig.json", "--noEmit", "--incremental", "--tsBuildInfoFile", join(dirname(fileURLToPath(import.meta.url)), "..", ".cache", "typecheck.tsbuildinfo")], ["ignore", "pipe", "pipe"]);
const tests = run([vitestBin, "run", ...process.argv.slice(2)], "inherit");
const [checked, tested] = await Promise.all([typecheck, tests]);

if (checked.code !== 0) {
  process.stdout.write(`\nType check (tsc -p tsconfig.json --noEmit --incremental) failed${checked.signal ? ` (${checked.signal})` : ""}:\n${checked.output}\n`);
} else {
  process.stdout.write("\nType check (tsc -p tsconfig.json --noEmit --incremental): no errors\n");
}
process.exitCode = tested.code !== 0 ? tested.code : checked.code;
