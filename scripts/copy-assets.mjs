// Plain .mjs files that run without a build (the detached-run supervisor) are copied next to the
// compiled code, so dist/ works on its own after `npm install`.
import { copyFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
for (const asset of ["adapters/process/supervisor.mjs"]) {
  mkdirSync(dirname(join(root, "dist", asset)), { recursive: true });
  copyFileSync(join(root, asset), join(root, "dist", asset));
}
