// Plain .mjs files that run without a build (the detached-run supervisor) are copied next to the
// compiled code, so dist/ works on its own after `npm install`.
import { copyFileSync, mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
// `node scripts/copy-assets.mjs [outdir]`: dist/ unless told
const outdir = resolve(root, process.argv[2] ?? "dist");
for (const asset of ["adapters/process/supervisor.mjs"]) {
  mkdirSync(dirname(join(outdir, asset)), { recursive: true });
  copyFileSync(join(root, asset), join(outdir, asset));
}
