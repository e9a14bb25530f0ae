// A child process for the concurrency test. argv[2] is a JSON job; events go to stdout as JSON
// lines. "launch": launch each tool n times, re-resolving a tool whose launch is rejected (the
// reload-and-retry path). "rename": on "go" from stdin, rename b.json to b2.json under the fence.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { makeNodeFileSystem } from "../../../adapters/fs/node.js";
import { makeFileLock } from "../../../adapters/lock/file-lock.js";
import { closeLedger, openLedger } from "../../../runtime/ledger/ledger-context.js";
import { recordLaunch, type LaunchInput } from "../../../runtime/ledger/account-launch.js";
import { renameLineage } from "../../../runtime/ledger/moves.js";
import { resolved } from "./support.js";

type Job =
  | { mode: "launch"; root: string; lockRoot: string; tools: string[]; n: number; progressAt: number }
  | { mode: "rename"; root: string; lockRoot: string; from: string; to: string };

const job = JSON.parse(process.argv[2] ?? "{}") as Job;
const emit = (ev: string, extra: Record<string, unknown> = {}): void => void process.stdout.write(`${JSON.stringify({ ev, pid: process.pid, ...extra })}\n`);
const ctx = openLedger({ fs: makeNodeFileSystem(), lock: makeFileLock({ lockRoot: job.lockRoot }), recipeRoot: job.root, lockTimeoutMs: 20_000 });

/** where tool `name` lives now: its own file, or the file it was renamed to */
function locate(name: string): LaunchInput {
  for (const candidate of [name, `${name}2`]) {
    const path = join(job.root, `${candidate}.json`);
    if (existsSync(path)) {
      try {
        return resolved(path);
      } catch {
        // renamed between the check and the read: look again
      }
    }
  }
  return locate(name);
}

async function launchAll(j: Extract<Job, { mode: "launch" }>): Promise<void> {
  const started = performance.now();
  const current = new Map(j.tools.map((t) => [t, locate(t)]));
  let rejected = 0;
  let diagnostics = 0;
  for (let i = 0; i < j.n; i++) {
    if (i === j.progressAt) emit("progress", { i });
    for (const tool of j.tools) {
      for (;;) {
        const outcome = await recordLaunch(ctx, current.get(tool)!);
        if (outcome.ok && outcome.recorded) break;
        if (outcome.ok) {
          diagnostics++;
          emit("diagnostic", { text: outcome.diagnostic });
        } else rejected++;
        current.set(tool, locate(tool));
      }
    }
  }
  await closeLedger(ctx);
  emit("done", { rejected, diagnostics, ms: Math.round(performance.now() - started) });
}

async function renameOnGo(j: Extract<Job, { mode: "rename" }>): Promise<void> {
  emit("ready");
  process.stdin.setEncoding("utf8");
  for await (const chunk of process.stdin) if (String(chunk).includes("go")) break;
  const from = join(j.root, j.from);
  const to = join(j.root, j.to);
  const result = await renameLineage(ctx, { from, to });
  emit("renamed", { result });
  process.exit(0);
}

(job.mode === "launch" ? launchAll(job) : renameOnGo(job)).catch((e: unknown) => {
  emit("crash", { message: e instanceof Error ? e.stack : String(e) });
  process.exit(1);
});
