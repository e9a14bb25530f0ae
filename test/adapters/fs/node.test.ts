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

describe("opening a file", () => {
  it("a regular file is opened, written and closed without a wait on the thread pool; its close waits for a large write still on the pool; a second close does nothing", async () => {
    const { createHook } = await import("node:async_hooks");
    const { SMALL_IO_BYTES } = await import("../../../adapters/fs/node.js");
    const { readFileSync } = await import("node:fs");
    const root = await mkdtemp(join(tmpdir(), "pi-recipes-open-"));
    const fs = makeNodeFileSystem();
    try {
      const pooled: string[] = [];
      const hook = createHook({ init: (_id, type) => void (type.startsWith("FSREQ") || type.startsWith("FILEHANDLE") ? pooled.push(type) : undefined) });
      hook.enable();
      try {
        for (const flag of ["wx", "a", "w"] as const) {
          const h = await fs.open(join(root, `small-${flag}`), flag, 0o600);
          await h.write(`${flag}\n`);
          await h.close();
        }
      } finally {
        hook.disable();
      }
      expect(pooled).toEqual([]);
      expect(readFileSync(join(root, "small-a"), "utf8")).toBe("a\n");
      // a large write goes to the pool; a close asked for before it ends waits for it, so the
      // descriptor is never closed (and its number reused) under it
      const big = Buffer.alloc(4 * SMALL_IO_BYTES, 0x61);
      const h = await fs.open(join(root, "big"), "w");
      const writing = h.write(big);
      const closing = h.close();
      await Promise.all([writing, closing]);
      expect(readFileSync(join(root, "big")).equals(big)).toBe(true);
      await h.close();
      await expect(h.sync()).rejects.toMatchObject({ syscall: "handle.sync" });
      // the open's own refusals, as before
      await expect(fs.open(join(root, "small-wx"), "wx")).rejects.toMatchObject({ code: "EEXIST", syscall: "open" });
      await expect(fs.open(join(root, "missing", "f"), "a")).rejects.toMatchObject({ code: "ENOENT", syscall: "open" });
      await expect(fs.open(root, "w")).rejects.toMatchObject({ code: "EISDIR", syscall: "open" });
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it.runIf(process.platform === "linux")("a FIFO is opened for writing on the thread pool as before, whether its reader came first or comes later, and the reader gets every byte", async () => {
    const { execFileSync, spawn } = await import("node:child_process");
    const { readFileSync } = await import("node:fs");
    const root = await mkdtemp(join(tmpdir(), "pi-recipes-fifo-open-"));
    const fs = makeNodeFileSystem();
    const reader = (fifo: string) => {
      const cat = spawn("cat", [fifo], { stdio: ["ignore", "pipe", "inherit"] });
      let got = "";
      cat.stdout.on("data", (d: Buffer) => (got += d.toString("utf8")));
      const ended = new Promise<string>((done) => cat.on("close", () => done(got)));
      // a reader's open of a FIFO waits for a writer, and the kernel counts it as a reader then:
      // /proc shows it waiting for its partner
      const waiting = async (): Promise<void> => {
        for (let i = 0; i < 500; i++) {
          try {
            if (readFileSync(`/proc/${cat.pid}/wchan`, "utf8").includes("partner")) return;
          } catch {
            // not yet
          }
          await new Promise((r) => setTimeout(r, 10));
        }
        throw new Error("the reader never came to the FIFO's open");
      };
      return { ended, waiting, kill: () => cat.kill() };
    };
    // Two guards keep a FIFO off the synchronous open: the stat before it (a FIFO already there),
    // and the non-blocking open's ENXIO (one put there after the stat, no reader yet). Each covers
    // the other in this test; without both, the open without a reader fails with ENXIO.
    const withLimit = <T>(p: Promise<T>, what: string): Promise<T> =>
      Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`${what} did not end`)), 10_000).unref())]);
    try {
      for (const order of ["reader after", "reader first"] as const) {
        const fifo = join(root, order.replace(" ", "-"));
        execFileSync("mkfifo", [fifo]);
        let r: ReturnType<typeof reader> | undefined;
        if (order === "reader first") {
          r = reader(fifo);
          await r.waiting();
        }
        const opening = fs.open(fifo, "w");
        r ??= reader(fifo);
        try {
          const h = await withLimit(opening, `the open (${order})`);
          await h.write(`through the pipe, ${order}\n`);
          await h.close();
          expect(await withLimit(r.ended, `the reader (${order})`)).toBe(`through the pipe, ${order}\n`);
        } finally {
          r.kill();
        }
      }
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
