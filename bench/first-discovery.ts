// A fresh process timing one thing in-process: `discovery` the first openRegistry().discover()
// (modules already loaded), `floor` reading and JSON-parsing the same files. Prints milliseconds.
import { join } from "node:path";
import { openRegistry } from "../runtime/registry.js";
import { makeNodeScanPort } from "../adapters/fs/scan.js";
import { floorRead } from "./floor.js";

const [what, agentDir] = process.argv.slice(2) as ["discovery" | "floor", string];
const t0 = process.hrtime.bigint();
if (what === "floor") floorRead(join(agentDir, "recipes"));
else openRegistry({ env: { PI_CODING_AGENT_DIR: agentDir }, packagedRoot: null, scan: makeNodeScanPort() }).discover();
process.stdout.write(`${Number(process.hrtime.bigint() - t0) / 1e6}\n`);
