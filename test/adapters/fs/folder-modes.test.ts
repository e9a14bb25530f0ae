// What the runtime creates under a recipe root shared by a group takes the folder's permissions
// (adapters/fs/folder-modes.ts); under a root nobody else may write, the umask's modes are already
// the rule's, and the wrapper adds no system call to the writes.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { FileSystem } from "../../../adapters/fs/FileSystem.js";
import { makeNodeFileSystem } from "../../../adapters/fs/node.js";
import { fileModeIn, folderModeIn, folderModesUnder } from "../../../adapters/fs/folder-modes.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "pi-folder-modes-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** node's file system, counting the calls that only the rule makes */
function counted(): { readonly fs: FileSystem; readonly calls: string[] } {
  const base = makeNodeFileSystem();
  const calls: string[] = [];
  const fs: FileSystem = {
    ...base,
    name: base.name,
    capabilities: base.capabilities,
    stat: (p) => (calls.push(`stat ${p}`), base.stat(p)),
    lstat: (p) => (calls.push(`lstat ${p}`), base.lstat(p)),
    chmod: (p, m) => (calls.push(`chmod ${p}`), base.chmod!(p, m)),
  };
  return { fs, calls };
}

const mode = (p: string): string => (statSync(p).mode & 0o7777).toString(8);

async function writeSome(fs: FileSystem, root: string): Promise<void> {
  await fs.mkdir(join(root, ".usage", "logs"), { recursive: true });
  await fs.writeFile(join(root, ".usage", "index.json"), "{}");
  const h = await fs.open(join(root, ".usage", "logs", "1.log"), "a");
  await h.close();
}

describe("folder modes under a recipe root", () => {
  it("in a group's folder (2775), folders get its bits and files its group write, whatever the umask", async () => {
    const root = join(dir, "recipes");
    mkdirSync(root);
    chmodSync(root, 0o2775);
    const { fs, calls } = counted();
    await writeSome(folderModesUnder(root, fs), root);
    expect([mode(join(root, ".usage")), mode(join(root, ".usage", "logs"))]).toEqual(["2775", "2775"]);
    expect([mode(join(root, ".usage", "index.json")), mode(join(root, ".usage", "logs", "1.log"))]).toEqual(["664", "664"]);
    expect(calls.filter((c) => c.startsWith("chmod")).length).toBe(4);
  });

  it("in a folder only its owner writes (755), the umask's modes stand and no lookup or chmod is added", async () => {
    const root = join(dir, "recipes");
    mkdirSync(root);
    chmodSync(root, 0o755);
    const { fs, calls } = counted();
    await writeSome(folderModesUnder(root, fs), root);
    // the same writes without the wrapper, elsewhere: the modes this process's umask gives
    const plain = join(dir, "plain");
    mkdirSync(plain);
    await writeSome(makeNodeFileSystem(), plain);
    for (const p of [".usage", join(".usage", "logs"), join(".usage", "index.json"), join(".usage", "logs", "1.log")]) expect(mode(join(root, p)), p).toBe(mode(join(plain, p)));
    // the root's own mode, looked at once
    expect(calls).toEqual([`stat ${root}`]);
  });

  it("never gives others write, even in a folder everyone may write (2777)", async () => {
    const root = join(dir, "recipes");
    mkdirSync(root);
    chmodSync(root, 0o2777);
    await writeSome(folderModesUnder(root, makeNodeFileSystem()), root);
    expect([mode(join(root, ".usage")), mode(join(root, ".usage", "index.json")), mode(join(root, ".usage", "logs", "1.log"))]).toEqual(["2775", "664", "664"]);
  });

  for (const [sticky, folders] of [[0o1777, "775"], [0o3775, "2775"]] as const) {
    it(`in a sticky folder (${sticky.toString(8)}) a file made in it is its maker's alone; the folders made in it are shared without the sticky bit`, async () => {
      const root = join(dir, "recipes");
      mkdirSync(root);
      chmodSync(root, sticky);
      const { fs: base, calls } = counted();
      const fs = folderModesUnder(root, base);
      await writeSome(fs, root);
      await fs.writeFile(join(root, "mine.json"), "{}");
      // the rule applies in a sticky root (a creator's umask of 000 is clamped too)
      expect(calls).toContain(`chmod ${join(root, "mine.json")}`);
      expect([mode(join(root, ".usage")), mode(join(root, ".usage", "logs"))]).toEqual([folders, folders]);
      expect([mode(join(root, ".usage", "index.json")), mode(join(root, ".usage", "logs", "1.log"))]).toEqual(["664", "664"]);
      expect(mode(join(root, "mine.json"))).toBe("644");
    });
  }

  it("a file's mode is set from the folder whatever the umask made it: never others' write, no group write in a sticky folder", () => {
    // a creator with umask 000 asks for 666: what the rule then sets
    expect([fileModeIn(0o2775), fileModeIn(0o2777), fileModeIn(0o0777), fileModeIn(0o1777), fileModeIn(0o3775)].map((m) => m.toString(8))).toEqual(["664", "664", "664", "644", "644"]);
    expect([folderModeIn(0o1777), folderModeIn(0o3775), folderModeIn(0o2777)].map((m) => m?.toString(8))).toEqual(["775", "2775", "2775"]);
    // a private file stays private
    expect(fileModeIn(0o2775, 0o600).toString(8)).toBe("600");
  });
});
