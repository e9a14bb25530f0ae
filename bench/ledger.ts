// Launch accounting on real disk: the median cost of one launch in one process, and 8 processes
// launching one recipe 200 times each at once (exact count, wall time from "go" to the last one).
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as E from "fp-ts/lib/Either.js";
import { makeNodeFileSystem } from "../adapters/fs/node.js";
import { makeFileLock } from "../adapters/lock/file-lock.js";
import { executableFingerprint } from "../core/ledger/recipe-fingerprint.js";
import { loadRecipe } from "../core/recipe/load.js";
import { closeLedger, openLedger, sha256Bytes, type LedgerContext } from "../runtime/ledger/ledger-context.js";
import { foldPending } from "../runtime/ledger/fold-logs.js";
import { recordLaunch } from "../runtime/ledger/account-launch.js";
import { readIndex, readLedger } from "../runtime/ledger/ledger-store.js";
import { fmt, median } from "./stats.js";

const here = dirname(fileURLToPath(import.meta.url));

function setup(baseDir: string, name: string): { root: string; lockRoot: string; path: string; fingerprint: string } {
  const root = join(baseDir, name, "recipes");
  mkdirSync(root, { recursive: true });
  const path = join(root, "bench_tool.json");
  writeFileSync(path, JSON.stringify({ description: "Bench tool", args: ["file:path"], template: "wc -l {file}" }, null, 2));
  const bytes = new Uint8Array(readFileSync(path));
  const config = loadRecipe({ path, size: bytes.length, mtimeMs: 0, birthtimeMs: 0, bytes }, "bench_tool", "json");
  if (E.isLeft(config)) throw new Error("bench recipe does not load");
  return { root, lockRoot: join(baseDir, name, "locks"), path, fingerprint: executableFingerprint(config.right) };
}

async function lifetime(ctx: LedgerContext): Promise<number> {
  await foldPending(ctx);
  const id = (await readIndex(ctx)).index.paths["bench_tool.json"]?.ledger;
  return id === undefined ? 0 : ((await readLedger(ctx, id))?.lifetime_calls ?? 0);
}

async function oneProcess(baseDir: string): Promise<string> {
  const s = setup(baseDir, "single");
  const ctx = openLedger({ fs: makeNodeFileSystem(), lock: makeFileLock({ lockRoot: s.lockRoot }), recipeRoot: s.root });
  const input = { path: s.path, name: "bench_tool", fingerprint: s.fingerprint, sourceSha256: sha256Bytes(readFileSync(s.path)) };
  const runs = 3000;
  for (let i = 0; i < 200; i++) await recordLaunch(ctx, input); // warm-up
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = process.hrtime.bigint();
    await recordLaunch(ctx, input);
    samples.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  const total = await lifetime(ctx);
  await closeLedger(ctx);
  const m = median(samples);
  const exact = total === runs + 200;
  return `${"launch accounting, one launch (median)".padEnd(44)} ours ${fmt(m).padStart(10)}  (target < 1 ms) ${m < 1 && exact ? "OK" : exact ? "OVER" : `WRONG COUNT ${total}`}`;
}

function child(worker: string, args: readonly string[]): { ready: Promise<void>; done: Promise<number>; go: () => void } {
  const p = spawn(process.execPath, [worker, ...args], { stdio: ["pipe", "pipe", "inherit"] });
  let out = "";
  let readyFn!: () => void;
  const ready = new Promise<void>((r) => (readyFn = r));
  const done = new Promise<number>((resolve, reject) => {
    p.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes("ready\n")) readyFn();
      const m = /done (\d+)\n/.exec(out);
      if (m !== null) resolve(Number(m[1]));
    });
    p.on("close", (code) => (code === 0 ? undefined : reject(new Error(`bench worker exited ${code}`))));
  });
  return { ready, done, go: () => p.stdin.end("go\n") };
}

async function eightProcesses(baseDir: string): Promise<string> {
  const s = setup(baseDir, "eight");
  const worker = join(here, "ledger-worker.js");
  const each = 200;
  const kids = Array.from({ length: 8 }, () => child(worker, [s.root, s.lockRoot, s.path, s.fingerprint, String(each)]));
  await Promise.all(kids.map((k) => k.ready));
  const t0 = process.hrtime.bigint();
  kids.forEach((k) => k.go());
  const counted = (await Promise.all(kids.map((k) => k.done))).reduce((a, b) => a + b, 0);
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  const ctx = openLedger({ fs: makeNodeFileSystem(), lock: makeFileLock({ lockRoot: s.lockRoot }), recipeRoot: s.root });
  const total = await lifetime(ctx);
  await closeLedger(ctx);
  const exact = counted === 8 * each && total === 8 * each;
  return `${"launch accounting, 8 processes x 200 launches".padEnd(44)} ours ${fmt(ms).padStart(10)}  lifetime ${total}/${8 * each}  (target exact, < 1 s) ${exact && ms < 1000 ? "OK" : exact ? "OVER" : "WRONG COUNT"}`;
}

export async function benchLedger(baseDir: string): Promise<string[]> {
  return [await oneProcess(baseDir), await eightProcesses(baseDir)];
}
