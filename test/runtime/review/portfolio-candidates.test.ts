// The tools a portfolio review considers, on an in-memory volume: only the user root's exposed
// tools (not a packaged one, a disabled one, an invalid one, a draft), each with its digest, its
// raw recipe and its lineage's usage; one that changed or vanished since discovery read it.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { Volume } from "memfs";
import { makeMemFileSystem } from "../../../adapters/fs/memfs.js";
import type { FileSystem } from "../../../adapters/fs/FileSystem.js";
import { listToolCandidates } from "../../../runtime/review/portfolio-candidates.js";
import { interceptFs } from "../../support/intercept-fs.js";
import { paths, ROOT, withCtx } from "../../../props/support/portfolio-volume.js";

const sha = (s: string): string => createHash("sha256").update(s).digest("hex");
const good = '{"description":"Good","template":"echo good"}';
function volume(): FileSystem {
  return makeMemFileSystem(
    Volume.fromJSON({
      [`${ROOT}/good.json`]: good,
      [`${ROOT}/off.json`]: '{"template":"echo off","disabled":true}',
      [`${ROOT}/broken.json`]: "{nope",
      [`${ROOT}/sub/deep.json`]: '{"template":"echo deep"}',
      [`${paths.draftRoot}/draft.json`]: '{"template":"echo draft"}',
      "/pkg/packaged.json": '{"template":"echo packaged"}',
    }) as Volume,
  );
}

/** `volume()` where the last read of good.json (the candidates' own, after discovery's) runs `then` first */
async function changedAfterDiscovery(then: (fs: FileSystem, path: string) => Promise<void>): Promise<FileSystem> {
  const path = `${ROOT}/good.json`;
  let reads = 0;
  const counting = interceptFs(volume(), async (name, args, call) => ((name === "readFile" && args[0] === path && reads++), call()));
  await withCtx(counting, (ctx) => listToolCandidates(ctx));
  const inner = volume();
  let seen = 0;
  return interceptFs(inner, async (name, args, call) => {
    if (name === "readFile" && args[0] === path && ++seen === reads) await then(inner, path);
    return call();
  });
}

const usage = {
  fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/),
  first_seen: "2026-01-01T00:00:00.000Z",
  lifetime_calls: 0,
  reviewed_fingerprints: [],
  revision: 1,
  revision_calls: 0,
};

describe("listToolCandidates", () => {
  it("marks a tool another recipe of the root imports or delegates to as referenced (a packaged or draft reader does not count)", async () => {
    const fs = volume();
    await fs.writeFile(`${ROOT}/part.json`, '{"template":"echo part"}');
    await fs.writeFile(`${ROOT}/user.json`, JSON.stringify({ imports: { p: "part" }, template: ["echo user", { name: "p" }] }));
    await fs.writeFile(`${ROOT}/front.json`, '{"template":"good"}');
    await fs.writeFile(`${ROOT}/lonely.json`, '{"template":"echo lonely"}');
    await fs.writeFile(`${paths.draftRoot}/reader.json`, '{"template":"lonely"}');
    await fs.writeFile("/pkg/reader.json", '{"template":"lonely"}');
    const listed = await withCtx(fs, (ctx) => listToolCandidates({ ...ctx, packagedRoot: "/pkg" }));
    const referenced = Object.fromEntries(listed.tools.map((t) => [t.name, t.referenced === true]));
    expect(referenced).toEqual({ front: false, good: true, lonely: false, part: true, user: false });
  });

  it("lists only the root's own exposed tools (no disabled, invalid, nested, draft or packaged recipe), with digest, raw recipe and usage", async () => {
    const fs = volume();
    await fs.writeFile(`${ROOT}/also.json`, '{"template":"echo also"}');
    const listed = await withCtx(fs, (ctx) => listToolCandidates({ ...ctx, packagedRoot: "/pkg" }));
    expect(listed).toStrictEqual({
      activeTools: ["also", "broken", "good", "off"],
      diagnostics: [],
      tools: [
        { name: "also", path: `${ROOT}/also.json`, recipe: { template: "echo also" }, riskLabels: [], sha256: sha('{"template":"echo also"}'), usage, valid: true },
        { name: "good", path: `${ROOT}/good.json`, recipe: { description: "Good", template: "echo good" }, riskLabels: [], sha256: sha(good), usage, valid: true },
      ],
    });
  });

  it("a tool's usage is its lineage's, counted calls included; a lineage that cannot be read gives no usage", async () => {
    const fs = volume();
    await withCtx(fs, (ctx) => listToolCandidates(ctx));
    const ledger = `${paths.usageRoot}/recipes/good.json`;
    const record = JSON.parse(new TextDecoder().decode(await fs.readFile(ledger))) as Record<string, unknown>;
    await fs.writeFile(ledger, JSON.stringify({ ...record, lifetime_calls: 9, revision_calls: 4 }));
    expect((await withCtx(fs, (ctx) => listToolCandidates(ctx))).tools[0]!.usage).toStrictEqual({ ...usage, lifetime_calls: 9, revision_calls: 4 });
    await fs.writeFile(ledger, "{nope");
    const [tool] = (await withCtx(fs, (ctx) => listToolCandidates(ctx))).tools;
    expect(tool).toStrictEqual({ name: "good", path: `${ROOT}/good.json`, recipe: { description: "Good", template: "echo good" }, riskLabels: [], sha256: sha(good), valid: true });
  });

  it("a tool whose bytes changed or vanished since discovery read it is not listed this time, though its name is active", async () => {
    for (const change of [
      (inner: FileSystem, path: string) => inner.writeFile(path, '{"template":"echo changed"}'),
      (inner: FileSystem, path: string) => inner.writeFile(path, "{nope"),
      (inner: FileSystem, path: string) => inner.unlink(path),
    ]) {
      const fs = await changedAfterDiscovery(change);
      expect(await withCtx(fs, (ctx) => listToolCandidates(ctx))).toStrictEqual({ activeTools: ["broken", "good", "off"], diagnostics: [], tools: [] });
    }
    // the same bytes read again: listed
    const same = await changedAfterDiscovery(async () => undefined);
    expect((await withCtx(same, (ctx) => listToolCandidates(ctx))).tools.map((t) => t.sha256)).toEqual([sha(good)]);
  });
});
