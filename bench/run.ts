// `npm run bench`: benchmarks reported as ratios against a floor measured in the same run.
// PI_RECIPES_BENCH_100K=1 adds the 100,000-recipe rows (several minutes).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { benchCallLaunch } from "./call-launch.js";
import { benchCallPath } from "./call-path.js";
import { benchDiscovery, benchStartup } from "./discovery.js";
import { benchLedger } from "./ledger.js";
import { benchMcpHttp } from "./mcp-http.js";
import { benchRefresh } from "./refresh.js";
import { benchSandbox } from "./sandbox.js";

const here = dirname(fileURLToPath(import.meta.url));
// the command as installed: the package's bin (dist/ is two folders above this file's)
const packageJson = JSON.parse(readFileSync(join(here, "..", "..", "package.json"), "utf8")) as { bin: Record<string, string> };
const cliPath = join(here, "..", "..", packageJson.bin["pi-recipes"]!);
const baseDir = mkdtempSync(join(tmpdir(), "pi-recipes-bench-"));
const only = process.argv[2];
// Node 20 loads the certificates NODE_EXTRA_CA_CERTS names at every process start (about 0.05 s of
// CPU on the development machine, where it is set): the same constant added to both sides of every
// process row, which would flatter each ratio towards 1. No process of the bench opens a TLS
// connection, so every process it starts runs without it (docs/testing.md).
const extraCa = process.env["NODE_EXTRA_CA_CERTS"] !== undefined;
delete process.env["NODE_EXTRA_CA_CERTS"];
// a row that says FAILED (an edit whose change event never came) makes the run fail, after every row is printed
const print = (lines: readonly string[]): void => {
  for (const line of lines) {
    console.log(line);
    if (line.includes("FAILED")) process.exitCode = 1;
  }
};
try {
  console.log(`pi-recipes bench (node ${process.version}, ${new Date().toISOString()})${extraCa ? ", NODE_EXTRA_CA_CERTS set aside" : ""}`);
  if (only === undefined || only === "startup") print(benchStartup(baseDir, cliPath));
  if (only === undefined || only === "discovery") print(benchDiscovery(baseDir, cliPath));
  if (only === undefined || only === "call") print(await benchCallPath(baseDir));
  if (only === undefined || only === "call-launch") print(await benchCallLaunch(baseDir));
  if (only === undefined || only === "ledger") print(await benchLedger(baseDir));
  if (only === undefined || only === "refresh") print(await benchRefresh(baseDir));
  if (only === undefined || only === "mcp-http") print(await benchMcpHttp(baseDir, cliPath));
  if (only === undefined || only === "sandbox") print(await benchSandbox(baseDir));
} finally {
  rmSync(baseDir, { recursive: true, force: true });
}
