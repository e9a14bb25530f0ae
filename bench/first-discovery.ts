// A fresh process timing one thing in-process: `discovery` the first openRegistry().discover()
// (modules already loaded), `floor` reading and JSON-parsing the same files. Prints milliseconds.
//
// This runs the per-file build (dist/<module>.js), which names its code version by hashing the
// names, sizes and times of its modules (runtime/compile-cache.ts codeVersion): some 140 stats, 16
// listings and node:crypto, once per process. The hosts a user runs (the MCP server in
// dist/host-cli/main.cjs, the Pi extension in dist/host-pi/) have the version written into them by
// the build and pay none of it, so it is done before the clock starts, like the module loading.
import { join } from "node:path";
import { codeVersion } from "../runtime/compile-cache.js";
import { openRegistry } from "../runtime/registry.js";
import { makeNodeScanPort } from "../adapters/fs/scan.js";
import { floorRead } from "./floor.js";

const [what, agentDir] = process.argv.slice(2) as ["discovery" | "floor", string];
const scan = makeNodeScanPort();
if (what !== "floor") codeVersion(scan);
const t0 = process.hrtime.bigint();
if (what === "floor") floorRead(join(agentDir, "recipes"));
else openRegistry({ env: { PI_CODING_AGENT_DIR: agentDir }, packagedRoot: null, scan }).discover();
process.stdout.write(`${Number(process.hrtime.bigint() - t0) / 1e6}\n`);
