// One lock folder shared by several local users: it must neither fail with an internal error nor
// let one user's dead process block another. Needs root to run workers as two other users.
import { statSync } from "node:fs";
import { chmod, mkdir, mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { killWorker, spawnWorker, type Worker } from "./harness.js";

const USER_A = { uid: 4101, gid: 4100 };
const USER_B = { uid: 4102, gid: 4100 };
const canSwitchUsers = process.getuid?.() === 0;
if (!canSwitchUsers) console.log("skipping the multi-user lock tests: they must run as root to start workers as two other users");
/** the other users must reach the worker's source: every folder above it lets others through
 *  (not so in a private copy of the repository, such as the sandbox of `npm run mutate`) */
function othersReach(file: string): boolean {
  for (let d = dirname(file); ; d = dirname(d)) {
    if ((statSync(d).mode & 0o001) === 0) return false;
    if (dirname(d) === d) return true;
  }
}
const reachable = othersReach(fileURLToPath(import.meta.url));
if (canSwitchUsers && !reachable) console.log("skipping the multi-user lock tests: other users cannot reach this copy of the repository");

let dir = "";
const workers: Worker[] = [];
const start = (job: Record<string, unknown>, as: { uid: number; gid: number }): Worker => {
  const w = spawnWorker(job, as);
  workers.push(w);
  return w;
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "pi-recipes-users-"));
  // the test folder itself must be reachable by the two users
  await chmod(dir, 0o755);
});
afterAll(async () => {
  workers.forEach(killWorker);
  await rm(dir, { recursive: true, force: true });
});

describe.skipIf(!canSwitchUsers || !reachable)("a lock folder shared by two users", () => {
  it("the second user waits for the first user's live lock and takes it once the owner died", async () => {
    const data = join(dir, "shared");
    await mkdir(data);
    // a folder both users may write (group-writable, as a shared recipe root would be)
    await chmod(data, 0o777);
    const root = join(data, ".locks");
    const path = join(data, "r.json");
    // user A has a private umask: the lock folder still gets the permissions of its parent
    const a = start({ mode: "hold", root, path, umask: 0o077 }, USER_A);
    await a.next("locked");
    expect((await stat(root)).mode & 0o777).toBe(0o777);

    const waiting = start({ mode: "acquire", root, path, timeoutMs: 300 }, USER_B);
    const timedOut = await waiting.next("error");
    expect(timedOut.name).toBe("LockTimeoutError");
    expect(timedOut.message).toContain(`held by pid ${a.pid}`);

    killWorker(a);
    await a.exited;
    const b = start({ mode: "acquire", root, path, timeoutMs: 10_000 }, USER_B);
    await b.next("released");
    expect(b.events.map((e) => e.ev)).not.toContain("error");
  });

  it("a user who may not write the lock folder gets a clear error naming it", async () => {
    const data = join(dir, "private");
    await mkdir(data);
    await chmod(data, 0o755);
    const root = join(data, ".locks");
    const b = start({ mode: "acquire", root, path: join(data, "r.json"), timeoutMs: 1000 }, USER_B);
    const failed = await b.next("error");
    expect(failed.name).toBe("LockAccessError");
    expect(failed.message).toContain(root);
  });
});
