// A child process for the lock tests. argv[2] is a JSON job; events go to stdout as JSON lines.
import { readFileSync, writeFileSync } from "node:fs";
import { makeFileLock } from "../../../adapters/lock/file-lock.js";

type Job =
  | { mode: "count"; root: string; path: string; counter: string; n: number }
  | { mode: "hold"; root: string; path: string }
  | { mode: "acquire"; root: string; path: string; timeoutMs: number };

const job = JSON.parse(process.argv[2] ?? "{}") as Job & { umask?: number };
if (job.umask !== undefined) process.umask(job.umask);
const emit = (ev: string, extra: Record<string, unknown> = {}): void => void process.stdout.write(`${JSON.stringify({ ev, t: Date.now(), pid: process.pid, ...extra })}\n`);
const lock = makeFileLock({ lockRoot: job.root });

async function main(): Promise<void> {
  switch (job.mode) {
    case "count":
      for (let i = 0; i < job.n; i++) {
        await lock.withLock(job.path, async () => {
          const value = Number(readFileSync(job.counter, "utf8"));
          // give a competitor every chance to interleave between the read and the write
          await new Promise((done) => setImmediate(done));
          writeFileSync(job.counter, String(value + 1));
        });
      }
      emit("done");
      return;
    case "hold": {
      const held = await lock.acquire(job.path);
      emit("locked");
      process.stdin.setEncoding("utf8");
      for await (const chunk of process.stdin) {
        if (String(chunk).includes("release")) break;
      }
      await held.release();
      emit("released");
      process.exit(0);
    }
    case "acquire": {
      emit("waiting");
      try {
        const held = await lock.acquire(job.path, { timeoutMs: job.timeoutMs });
        emit("locked");
        await held.release();
        emit("released");
      } catch (e) {
        emit("error", { name: (e as Error).name, message: (e as Error).message });
      }
      return;
    }
  }
}

main().catch((e: unknown) => {
  emit("crash", { message: String(e) });
  process.exit(1);
});
