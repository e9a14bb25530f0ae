import { describe, expect, it } from "vitest";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeNodeFileSystem } from "../../../adapters/fs/node.js";
import { fileSystemContract } from "./contract.js";

fileSystemContract("node", async () => {
  const root = await mkdtemp(join(tmpdir(), "pi-recipes-fs-"));
  return { fs: makeNodeFileSystem(), root, cleanup: () => rm(root, { recursive: true, force: true }) };
});

describe("files that are not regular files", () => {
  it("readFile of a FIFO fails at once with EINVAL instead of waiting for a writer; the scan port reports it as not a file", async () => {
    const { execFileSync } = await import("node:child_process");
    const { makeScanPort } = await import("../../../adapters/fs/scan.js");
    const nodeFs = await import("node:fs");
    const root = await mkdtemp(join(tmpdir(), "pi-recipes-fifo-"));
    try {
      const fifo = join(root, "pipe.json");
      execFileSync("mkfifo", [fifo]);
      const error = await makeNodeFileSystem().readFile(fifo).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: "EINVAL", syscall: "readFile", path: fifo });
      const scanned = makeScanPort(nodeFs).readBounded(fifo, 1024);
      expect(scanned).toMatchObject({ ok: true, value: { isFile: false } });
      expect(scanned.ok && scanned.value.bytes).toBeUndefined();
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
