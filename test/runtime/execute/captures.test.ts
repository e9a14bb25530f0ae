// Spill folders of overflowing output: created under the agent tmp dir, aged out after a day.
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { counterIds, fixedClock } from "../../../adapters/clock/Clock.js";
import { captureDirIn, pruneCaptures } from "../../../runtime/execute/captures.js";
import { makeNodeFileSystem } from "../../../adapters/fs/node.js";

const nodeFs = makeNodeFileSystem();

const DAY = 24 * 60 * 60 * 1000;
let root: string;
afterEach(() => rmSync(root, { recursive: true, force: true }));

const ids = counterIds("c");
const at = (ms: number) => fixedClock(ms);
const capture = (ageMs: number, now: number): string => {
  const dir = captureDirIn(root, at(now - ageMs), ids);
  mkdirSync(dir, { recursive: true });
  const t = (now - ageMs) / 1000;
  utimesSync(dir, t, t);
  return dir;
};

describe("capture folders", () => {
  it("are named uniquely under the root and pruned after a day, at most hourly", async () => {
    root = mkdtempSync(join(tmpdir(), "pi-recipes-captures-"));
    const now = Date.now();
    // the same instant, and the real ids: still two names
    expect(captureDirIn(root, at(now))).not.toBe(captureDirIn(root, at(now)));
    expect(captureDirIn(root, at(now), counterIds("x"))).toBe(join(root, `capture-${now}-x1`));
    const old = capture(DAY + 60_000, now);
    const fresh = capture(60_000, now);
    await pruneCaptures(nodeFs, root, at(now));
    expect(existsSync(old)).toBe(false);
    expect(existsSync(fresh)).toBe(true);
    const later = capture(2 * DAY, now);
    await pruneCaptures(nodeFs, root, at(now + 10 * 60_000)); // within the hour: not checked again
    expect(existsSync(later)).toBe(true);
    await pruneCaptures(nodeFs, root, at(now + 61 * 60_000));
    expect(existsSync(later)).toBe(false);
    expect(existsSync(fresh)).toBe(true);
  });

  it("a missing root is not an error", async () => {
    root = join(tmpdir(), `pi-recipes-captures-missing-${process.pid}`);
    await expect(Promise.resolve(pruneCaptures(nodeFs, root))).resolves.toBeUndefined();
    // and it is not created either
    expect(existsSync(root)).toBe(false);
  });
});
