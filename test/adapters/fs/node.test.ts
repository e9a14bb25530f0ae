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

describe("small reads and writes made synchronously, large ones on the thread pool", () => {
  it("reads every byte of files just under, at and over the size it reads at once, of an empty file, and of a file the kernel gives no size (/proc)", async () => {
    const { SMALL_IO_BYTES } = await import("../../../adapters/fs/node.js");
    const { readFileSync, writeFileSync } = await import("node:fs");
    const root = await mkdtemp(join(tmpdir(), "pi-recipes-sizes-"));
    const fs = makeNodeFileSystem();
    try {
      for (const size of [0, 1, 4095, 4096, SMALL_IO_BYTES - 1, SMALL_IO_BYTES, SMALL_IO_BYTES + 1, 3 * SMALL_IO_BYTES]) {
        const bytes = Buffer.alloc(size);
        for (let i = 0; i < size; i++) bytes[i] = (i * 7 + size) & 0xff;
        writeFileSync(join(root, `f${size}`), bytes);
        expect(Buffer.compare(Buffer.from(await fs.readFile(join(root, `f${size}`))), bytes), `a file of ${size} bytes`).toBe(0);
      }
      if (process.platform === "linux") {
        // a file with no size may never end (/proc/self/pagemap is 2^48 bytes of zeros): it is read
        // on the thread pool, so the event loop goes on while it is read
        let ticks = 0;
        const ticker = setInterval(() => ticks++, 5);
        const endless = fs.readFile("/proc/self/pagemap").then(() => "ended", (e: unknown) => e);
        await new Promise((done) => setTimeout(done, 200));
        clearInterval(ticker);
        expect(ticks).toBeGreaterThan(5);
        void endless;
        const status = Buffer.from(await fs.readFile("/proc/self/status")).toString("utf8");
        expect(status).toContain(`Pid:\t${process.pid}\n`);
        expect(status.length).toBeGreaterThan(readFileSync("/proc/self/status").length / 2);
      }
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it("an open handle appends small and large writes in order", async () => {
    const { SMALL_IO_BYTES } = await import("../../../adapters/fs/node.js");
    const { readFileSync } = await import("node:fs");
    const root = await mkdtemp(join(tmpdir(), "pi-recipes-appends-"));
    const fs = makeNodeFileSystem();
    try {
      const path = join(root, "log");
      const big = "b".repeat(SMALL_IO_BYTES + 10);
      const h = await fs.open(path, "a");
      await h.write("one\n");
      await h.write(big);
      await h.write(new TextEncoder().encode("two\n"));
      await h.close();
      expect(readFileSync(path, "utf8")).toBe(`one\n${big}two\n`);
      // a closed handle says EBADF, whatever the size of the write
      for (const late of ["late", big]) {
        const e = await h.write(late).catch((error: unknown) => error);
        expect(e).toMatchObject({ syscall: "handle.write", path });
        expect(String((e as Error).message)).toMatch(/^EBADF/);
      }
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
