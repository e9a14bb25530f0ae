#!/usr/bin/env node
// Installs the test harness in test/pi-cli (the real `pi` command line, pi-coding-agent 1.x, and
// the Node 22 binary it runs on) when this repository itself is installed: `npm ci` or
// `npm install` in a clone runs it from `prepare`, after the build. `npm test` then finds the
// harness ready and reaches no network; without it, the Pi command-line tests install it
// themselves (test/host-pi/pi-cli-setup.ts) or say why they were skipped.
//
// It never fails the install it runs in: a harness it cannot install is a warning. It does
// nothing for `npm pack` or `npm publish` (which run `prepare` too), on a platform the Node 22
// package has no binary for, or when PI_RECIPES_SKIP_PI_HARNESS=1.
import { spawnSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const harness = join(dirname(fileURLToPath(import.meta.url)), "..", "test", "pi-cli");
const lock = join(harness, "package-lock.json");
const installed = join(harness, "node_modules", ".package-lock.json");
const say = (line) => process.stderr.write(`pi-recipes: ${line}\n`);

function skipReason() {
  const command = process.env.npm_command;
  if (command !== undefined && command !== "ci" && command !== "install") return `not for npm ${command}`;
  if (process.env.PI_RECIPES_SKIP_PI_HARNESS === "1") return "PI_RECIPES_SKIP_PI_HARNESS=1";
  if (!existsSync(lock)) return "no test/pi-cli here (an installed package, not a clone)";
  if (process.platform !== "linux" || process.arch !== "x64") return `no Node 22 binary package for ${process.platform}-${process.arch}`;
  // npm's own record of the last install: newer than the lock file means the install is current
  if (command !== "ci" && existsSync(installed) && statSync(installed).mtimeMs >= statSync(lock).mtimeMs) return "already installed";
  return undefined;
}

const reason = skipReason();
if (reason === undefined) {
  const npm = spawnSync("npm", ["ci", "--prefix", harness, "--no-audit", "--no-fund"], { stdio: ["ignore", "ignore", "pipe"], encoding: "utf8", timeout: 600_000 });
  if (npm.status === 0) say("installed the Pi command-line test harness (test/pi-cli)");
  else {
    // npm's first lines name the cause (its code, the request that failed); the rest is its log's path
    const why = (npm.stderr || npm.error?.message || "").trim().split("\n").filter((line) => !line.startsWith("npm warn")).slice(0, 4).map((line) => `  ${line}`);
    say(["could not install the Pi command-line test harness (npm ci --prefix test/pi-cli); the tests that need it will try again:", ...why].join("\n"));
  }
}
