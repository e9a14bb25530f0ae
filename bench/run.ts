// `npm run bench`: benchmarks reported as ratios against a floor measured in the same run.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { benchDiscovery } from "./discovery.js";
import { benchLedger } from "./ledger.js";
import { benchMcpHttp } from "./mcp-http.js";
import { benchRefresh } from "./refresh.js";

const here = dirname(fileURLToPath(import.meta.url));
const cliPath = join(here, "..", "host-cli", "main.js");
const baseDir = mkdtempSync(join(tmpdir(), "pi-recipes-bench-"));
try {
  console.log(`pi-recipes bench (node ${process.version}, ${new Date().toISOString()})`);
  for (const line of benchDiscovery(baseDir, cliPath)) console.log(line);
  for (const line of await benchLedger(baseDir)) console.log(line);
  for (const line of await benchRefresh(baseDir)) console.log(line);
  for (const line of await benchMcpHttp(baseDir, cliPath)) console.log(line);
} finally {
  rmSync(baseDir, { recursive: true, force: true });
}
