import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { captureStream, fromUtf8Boundary } from "../../../adapters/process/capture.js";
import { text } from "./groups.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "pi-recipes-capture-test-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const chunksOf = (...parts: string[]): Readable => Readable.from(parts.map((p) => Buffer.from(p)));

describe("captureStream", () => {
  it("keeps a stream within the limit whole, without a file", async () => {
    let asked = 0;
    const c = await captureStream(chunksOf("ab", "cd"), { limitBytes: 4, spillPath: async () => (asked++, join(dir, "out.log")) });
    expect(text(c.tail)).toBe("abcd");
    expect(c).toMatchObject({ totalBytes: 4, truncated: false });
    expect(c.file).toBeUndefined();
    expect(asked).toBe(0);
  });

  it("spills the complete stream on overflow and keeps the last bytes", async () => {
    const c = await captureStream(chunksOf("abc", "def", "ghi", "jk"), { limitBytes: 5, spillPath: async () => join(dir, "out.log") });
    expect(text(c.tail)).toBe("ghijk");
    expect(c).toMatchObject({ totalBytes: 11, truncated: true, file: join(dir, "out.log") });
    expect(await readFile(join(dir, "out.log"), "utf8")).toBe("abcdefghijk");
  });

  it("holds at most the limit plus one chunk while 10 MB pass through", async () => {
    const chunk = 64 * 1024;
    const count = 160;
    async function* produce(): AsyncGenerator<Buffer> {
      for (let i = 0; i < count; i++) yield Buffer.alloc(chunk, 97 + (i % 26));
    }
    const limit = 1024 * 1024;
    const c = await captureStream(Readable.from(produce()), { limitBytes: limit, spillPath: async () => join(dir, "big.log") });
    expect(c.totalBytes).toBe(chunk * count);
    expect(c.tail.length).toBe(limit);
    expect(c.peakRetainedBytes).toBeLessThanOrEqual(limit + chunk);
    expect((await readFile(join(dir, "big.log"))).length).toBe(chunk * count);
    expect(c.tail[c.tail.length - 1]).toBe(97 + ((count - 1) % 26));
  });

  it("an output past the spill bound is not saved: the partial file is removed, the tail is kept", async () => {
    const c = await captureStream(chunksOf("abc", "def", "ghi", "jkl"), { limitBytes: 2, spillLimitBytes: 7, spillPath: async () => join(dir, "out.log") });
    expect(text(c.tail)).toBe("kl");
    expect(c).toMatchObject({ totalBytes: 12, truncated: true });
    expect(c.file).toBeUndefined();
    await expect(readFile(join(dir, "out.log"))).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("a limit of 0 keeps nothing in memory but everything in the file", async () => {
    const c = await captureStream(chunksOf("abc", "def"), { limitBytes: 0, spillPath: async () => join(dir, "out.log") });
    expect(c.tail.length).toBe(0);
    expect(c).toMatchObject({ totalBytes: 6, truncated: true });
    expect(await readFile(join(dir, "out.log"), "utf8")).toBe("abcdef");
  });

  it("a spill path that cannot be had keeps the tail and reports no file", async () => {
    const c = await captureStream(chunksOf("abc", "def"), { limitBytes: 2, spillPath: () => Promise.reject(new Error("no room")) });
    expect(text(c.tail)).toBe("ef");
    expect(c.truncated).toBe(true);
    expect(c.file).toBeUndefined();
  });

  it("a stream that errors ends the capture with what was read", async () => {
    const stream = new Readable({ read() {} });
    stream.push(Buffer.from("partial"));
    setTimeout(() => stream.destroy(new Error("boom")), 10);
    const c = await captureStream(stream, { limitBytes: 100, spillPath: async () => join(dir, "x.log") });
    expect(text(c.tail)).toBe("partial");
  });
});

describe("fromUtf8Boundary", () => {
  it("drops the continuation bytes of a cut character", () => {
    const bytes = Buffer.from("€uro"); // € is e2 82 ac
    expect(text(fromUtf8Boundary(bytes.subarray(1)))).toBe("uro");
    expect(text(fromUtf8Boundary(bytes.subarray(2)))).toBe("uro");
    expect(text(fromUtf8Boundary(bytes))).toBe("€uro");
  });

  it("never drops more than three bytes of non-UTF-8 data", () => {
    const junk = new Uint8Array([0x80, 0x80, 0x80, 0x80, 0x41]);
    expect([...fromUtf8Boundary(junk)]).toEqual([0x80, 0x41]);
  });
});
