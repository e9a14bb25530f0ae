// The in-process queue in front of a lock file: callers of one process take turns in arrival
// order, and the wait for a turn leaves nothing running once it is over.
import { describe, expect, it, vi } from "vitest";
import { makeNodeFileSystem } from "../../../adapters/fs/node.js";
import { makeFileLock } from "../../../adapters/lock/file-lock.js";
import { LockTimeoutError, type HeldLock } from "../../../adapters/lock/Lock.js";
import { interceptFs } from "../../support/intercept-fs.js";
import { useLockDir } from "./fixture.js";

const at = useLockDir("pi-recipes-queue-");

// a few tens of milliseconds each; a broken queue hangs them, which should fail fast
const HANG_GUARD_MS = 10_000;

describe("the in-process queue", () => {
  it("a caller whose time runs out while the one ahead is still taking the lock gives up, though the lock is free", async () => {
    // the first caller's link (the step that takes the lock file) waits until the test lets it go
    let letGo!: () => void;
    const gate = new Promise<void>((done) => (letGo = done));
    let links = 0;
    let linking!: () => void;
    const firstLinks = new Promise<void>((done) => (linking = done));
    const fs = interceptFs(makeNodeFileSystem(), async (name, _args, call) => {
      if (name === "link" && links++ === 0) {
        linking();
        await gate;
      }
      return call();
    });
    const lock = makeFileLock({ lockRoot: at.root, fs });
    const first = lock.acquire(at.path, { timeoutMs: 600_000 });
    // the first caller has its turn and is taking the lock when the second one comes
    await firstLinks;
    const second: Promise<unknown> = lock.acquire(at.path, { timeoutMs: 50 }).catch((e: unknown) => e);
    // the lock file is free all along: only the turn of the caller ahead keeps the second one out
    const late = await second;
    letGo();
    if (!(late instanceof LockTimeoutError)) await (late as HeldLock).release();
    expect(late).toBeInstanceOf(LockTimeoutError);
    await (await first).release();
  }, HANG_GUARD_MS);

  it("a caller arriving while the one ahead is still taking the lock waits for it, also after the queue was empty once", async () => {
    // the second caller's link (the step that takes the lock file) waits until the test lets it go
    // or a third caller links
    let letGo!: () => void;
    const gate = new Promise<void>((done) => (letGo = done));
    let links = 0;
    const fs = interceptFs(makeNodeFileSystem(), async (name, _args, call) => {
      if (name === "link") {
        links++;
        if (links === 2) await Promise.race([gate, new Promise((done) => setTimeout(done, 500))]);
        if (links === 3) letGo();
      }
      return call();
    });
    const lock = makeFileLock({ lockRoot: at.root, fs });
    const order: string[] = [];
    const take = (who: string) => lock.withLock(at.path, () => void order.push(who), { timeoutMs: 600_000 });
    const first = await lock.acquire(at.path);
    order.push("first");
    const second = take("second");
    await first.release();
    // the first caller's turn is over and the second one is taking the lock now
    while (links < 2) await new Promise((done) => setTimeout(done, 1));
    await Promise.all([second, take("third")]);
    expect(order).toEqual(["first", "second", "third"]);
  }, HANG_GUARD_MS);

  it("leaves no timer behind once a caller has its turn, however long it was willing to wait", async () => {
    // only the timers of the code under test are counted (Node's own count would include the
    // test runner's)
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const lock = makeFileLock({ lockRoot: at.root });
      await lock.withLock(at.path, () => undefined, { timeoutMs: 600_000 });
      const held = await lock.acquire(at.path, { timeoutMs: 600_000 });
      const queued = lock.acquire(at.path, { timeoutMs: 600_000 });
      await held.release();
      await (await queued).release();
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  }, HANG_GUARD_MS);
});
