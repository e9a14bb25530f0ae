import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeNodeFileSystem } from "../../../adapters/fs/node.js";
import { fileSystemContract } from "./contract.js";

fileSystemContract("node", async () => {
  const root = await mkdtemp(join(tmpdir(), "pi-recipes-fs-"));
  return { fs: makeNodeFileSystem(), root, cleanup: () => rm(root, { recursive: true, force: true }) };
});
