// A bench child: launches one recipe `n` times once "go" arrives on stdin, then reports.
import { readFileSync } from "node:fs";
import { makeNodeFileSystem } from "../adapters/fs/node.js";
import { makeFileLock } from "../adapters/lock/file-lock.js";
import { closeLedger, openLedger, sha256Bytes } from "../runtime/ledger/ledger-context.js";
import { recordLaunch } from "../runtime/ledger/account-launch.js";

const [root, lockRoot, path, fingerprint, n] = process.argv.slice(2) as [string, string, string, string, string];
const ctx = openLedger({ fs: makeNodeFileSystem(), lock: makeFileLock({ lockRoot }), recipeRoot: root });
const input = { path, name: "bench_tool", fingerprint, sourceSha256: sha256Bytes(readFileSync(path)) };

process.stdout.write("ready\n");
process.stdin.setEncoding("utf8");
process.stdin.once("data", () => {
  void (async () => {
    let counted = 0;
    for (let i = 0; i < Number(n); i++) {
      const outcome = await recordLaunch(ctx, input);
      if (outcome.ok && outcome.recorded) counted++;
    }
    await closeLedger(ctx);
    process.stdout.write(`done ${counted}\n`);
    process.exit(0);
  })();
});
