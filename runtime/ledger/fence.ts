// The recipe-root fence. Writers (portfolio activation, controlled moves) take it exclusively:
// the lock on the recipe root, then the fence file `.usage/fence.json` gets its owner record
// (closed), then a wait until every launch already inside has appended its outcome; leaving
// empties the file again (open). Launches share it without a lock: a launch appends its begin
// line, then looks at the fence file's size; a writer fills the file, then reads the begin lines.
// Whichever comes second sees the other, so a launch either finishes its source check and counts
// before the writer changes anything, or sees the fence closed, withdraws, waits for the writer
// and retries. A writer leaves the file in place, empty (open); before the first writer there is
// no file, which is open too: a launch does not create it, since that would cost every
// command-line call two more file system round trips than a stat that fails.
import { join } from "node:path";
import { hasCode } from "../../adapters/fs/FileSystem.js";
import { isOwnerProvablyDead, makeOwnerRecord } from "../../adapters/lock/owner.js";
import type { LedgerContext } from "./ledger-context.js";
import { LOG_SUFFIX, parseLog } from "./launch-log.js";
import { listDir } from "./ledger-store.js";

/** A begin line older than this belongs to a launch that will never finish (a hung or broken
 *  writer of its log); the source check between begin and outcome takes milliseconds. */
export const ABANDONED_BEGIN_MS = 30_000;

const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

export async function fenceClosed(ctx: LedgerContext): Promise<boolean> {
  try {
    return (await ctx.fs.stat(ctx.paths.fence)).size > 0;
  } catch (e) {
    if (hasCode(e, "ENOENT", "ENOTDIR")) return false;
    throw e;
  }
}

const openFence = (ctx: LedgerContext): Promise<void> => ctx.fs.writeFile(ctx.paths.fence, "");

/** Waits for the writer inside the fence: its lock is free only once it has left. A fence still
 *  closed then was left by a writer that died, and is opened. */
export async function awaitFenceWriter(ctx: LedgerContext): Promise<void> {
  await ctx.lock.withLock(
    ctx.paths.recipeRoot,
    async () => {
      if (await fenceClosed(ctx)) await openFence(ctx);
    },
    { timeoutMs: ctx.lockTimeoutMs },
  );
}

/** Launches that began and have no outcome yet, over all logs (dead owners' and stale ones aside). */
async function launchesInside(ctx: LedgerContext): Promise<number> {
  let inside = 0;
  const now = ctx.now();
  for (const name of await listDir(ctx, ctx.paths.launches)) {
    if (!name.endsWith(LOG_SUFFIX)) continue;
    let text: string;
    try {
      text = new TextDecoder().decode(await ctx.fs.readFile(join(ctx.paths.launches, name)));
    } catch (e) {
      if (hasCode(e, "ENOENT")) continue;
      throw e;
    }
    const log = parseLog(name.slice(0, -LOG_SUFFIX.length), text);
    if (log.open.size === 0 || log.closed) continue;
    if (log.owner !== undefined && isOwnerProvablyDead(log.owner, ctx.probe)) continue;
    for (const began of log.open.values()) if (now - began < ABANDONED_BEGIN_MS) inside++;
  }
  return inside;
}

export class FenceDrainTimeout extends Error {
  override readonly name = "FenceDrainTimeout";
  constructor(readonly inside: number, timeoutMs: number) {
    super(`Timed out after ${timeoutMs} ms waiting for ${inside} recipe launch(es) to finish their usage accounting`);
  }
}

/**
 * Runs `fn` inside the fence, exclusively: no launch checks its source or counts while `fn`
 * runs. Lock order: the fence first, then the store lock (never the other way round).
 */
export async function withRootFence<A>(ctx: LedgerContext, fn: () => Promise<A>): Promise<A> {
  return ctx.lock.withLock(
    ctx.paths.recipeRoot,
    async () => {
      await ctx.fs.mkdir(ctx.paths.usageRoot, { recursive: true });
      // we hold the lock, so a fence already closed is a dead writer's: take it over
      await ctx.fs.writeFile(ctx.paths.fence, JSON.stringify(makeOwnerRecord("fence", ctx.now(), ctx.probe)));
      try {
        const deadline = ctx.now() + ctx.lockTimeoutMs;
        for (let pause = 1; ; pause = Math.min(pause * 2, 10)) {
          const inside = await launchesInside(ctx);
          if (inside === 0) break;
          if (ctx.now() >= deadline) throw new FenceDrainTimeout(inside, ctx.lockTimeoutMs);
          await sleep(pause);
        }
        return await fn();
      } finally {
        await openFence(ctx);
      }
    },
    { timeoutMs: ctx.lockTimeoutMs },
  );
}
