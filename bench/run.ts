// `npm run bench`: benchmarks reported as ratios against a floor measured in the same run.
// PI_RECIPES_BENCH_100K=1 adds the 100,000-recipe rows (several minutes).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { benchCallPath } from "./call-path.js";
import { benchDiscovery, benchStartup } from "./discovery.js";
import { benchLedger } from "./ledger.js";
import { benchMcpHttp } from "./mcp-http.js";
import { benchRefresh } from "./refresh.js";

const here = dirname(fileURLToPath(import.meta.url));
const cliPath = join(here, "..", "host-cli", "main.js");
const baseDir = mkdtempSync(join(tmpdir(), "pi-recipes-bench-"));
const only = process.argv[2];
try {
  console.log(`pi-recipes bench (node ${process.version}, ${new Date().toISOString()})`);
  if (only === undefined || only === "startup") for (const line of benchStartup(baseDir, cliPath)) console.log(line);
  if (only === undefined || only === "discovery") for (const line of benchDiscovery(baseDir, cliPath)) console.log(line);
  if (only === undefined || only === "call") for (const line of await benchCallPath(baseDir)) console.log(line);
  if (only === undefined || only === "ledger") for (const line of await benchLedger(baseDir)) console.log(line);
  if (only === undefined || only === "refresh") for (const line of await benchRefresh(baseDir)) console.log(line);
  if (only === undefined || only === "mcp-http") for (const line of await benchMcpHttp(baseDir, cliPath)) console.log(line);
} finally {
  rmSync(baseDir, { recursive: true, force: true });
}
