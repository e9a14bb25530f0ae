// The drafts a draft review considers, in-process on an in-memory volume: each direct draft with
// its digest, validity (discovery's compile verdict of the very bytes read), raw recipe and
// lineage usage (seeded at zero calls), a promoted draft left out, and one that vanished or changed.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { Volume } from "memfs";
import type { FileSystem } from "../../../adapters/fs/FileSystem.js";
import { makeMemFileSystem } from "../../../adapters/fs/memfs.js";
import { listCandidates } from "../../../runtime/review/draft-candidates.js";
import { interceptFs } from "../../support/intercept-fs.js";
import { paths, ROOT, withCtx } from "../../../props/support/portfolio-volume.js";

const DRAFTS = paths.draftRoot;
const sha = (s: string): string => createHash("sha256").update(s).digest("hex");
const good = '{"description":"Good","template":"echo good"}';
const vol = (files: Record<string, string>): FileSystem => makeMemFileSystem(Volume.fromJSON(files) as Volume);
const list = (fs: FileSystem) => withCtx(fs, (ctx) => listCandidates(ctx));
const usage = { lifetime_calls: 0, revision: 1, revision_calls: 0, fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/) };

const imports = '{"template":"{{x}}","imports":{"x":"missing.json"}}';
const ledgerOf = (name: string): string => `${paths.usageRoot}/recipes/${name}.json`;
async function editLedger(fs: FileSystem, name: string, change: Record<string, unknown>): Promise<void> {
  const record = JSON.parse(new TextDecoder().decode(await fs.readFile(ledgerOf(name)))) as Record<string, unknown>;
  await fs.writeFile(ledgerOf(name), JSON.stringify({ ...record, ...change }));
}

describe("listCandidates", () => {
  it("takes the names of every recipe of the root, not only the tools: a promotion onto an invalid or disabled one would be skipped after the review said completed", async () => {
    const fs = vol({ [`${DRAFTS}/good.json`]: good, [`${ROOT}/tool.json`]: good, [`${ROOT}/broken.json`]: "{bad", [`${ROOT}/off.json`]: '{"template":"echo off","disabled":true}' });
    expect((await list(fs)).activeTools).toEqual(["broken", "off", "tool"]);
  });

  it("each draft with its digest; valid with its raw recipe only when discovery compiled it and it loads; usage for every draft that loads", async () => {
    const fs = vol({ [`${DRAFTS}/good.json`]: good, [`${DRAFTS}/bad.json`]: "{nope", [`${DRAFTS}/imp.json`]: imports, [`${ROOT}/tool.json`]: good });
    expect(await list(fs)).toStrictEqual({
      activeTools: ["tool"],
      diagnostics: [],
      drafts: [
        { path: `${DRAFTS}/bad.json`, riskLabels: [], sha256: sha("{nope"), stem: "bad", valid: false },
        { path: `${DRAFTS}/good.json`, recipe: { description: "Good", template: "echo good" }, riskLabels: [], sha256: sha(good), stem: "good", usage, valid: true },
        { path: `${DRAFTS}/imp.json`, riskLabels: [], sha256: sha(imports), stem: "imp", usage, valid: false },
      ],
    });
    expect(JSON.parse(new TextDecoder().decode(await fs.readFile(ledgerOf("imp"))))).toMatchObject({ current_path: "drafts/imp.json", lifetime_calls: 0 });
  });

  it("a draft whose lineage was promoted out of the drafts folder is left out; one whose lineage is still a draft is not", async () => {
    const fs = vol({ [`${DRAFTS}/good.json`]: good, [`${DRAFTS}/other.json`]: '{"template":"echo other"}' });
    await list(fs);
    await editLedger(fs, "good", { current_path: "good.json", former_paths: ["drafts/good.json"] });
    await editLedger(fs, "other", { former_paths: ["drafts/other.json"] });
    expect((await list(fs)).drafts.map((d) => d.stem)).toEqual(["other"]);
  });

  it("a demoted draft's usage carries the fingerprint it was demoted with", async () => {
    const fs = vol({ [`${DRAFTS}/good.json`]: good, [`${DRAFTS}/other.json`]: '{"template":"echo other"}' });
    await list(fs);
    await editLedger(fs, "good", { demoted_fingerprint: "d".repeat(64) });
    await editLedger(fs, "other", { demoted_fingerprint: 5 });
    const drafts = (await list(fs)).drafts;
    expect(drafts[0]!.usage).toStrictEqual({ ...usage, demoted_fingerprint: "d".repeat(64) });
    expect(drafts[1]!.usage).toStrictEqual(usage);
  });

  it("a draft that vanished or changed after discovery listed it is not a candidate this time (discovery's verdict is of other bytes)", async () => {
    const path = `${DRAFTS}/good.json`;
    let reads = 0;
    await list(interceptFs(vol({ [path]: good }), async (name, args, call) => ((name === "readFile" && args[0] === path && reads++), call())));
    const after = async (change: (inner: FileSystem) => Promise<void>): Promise<string[]> => {
      const inner = vol({ [path]: good, [`${DRAFTS}/other.json`]: '{"template":"echo other"}' });
      let seen = 0;
      const fs = interceptFs(inner, async (name, args, call) => {
        if (name === "readFile" && args[0] === path && ++seen === reads) await change(inner);
        return call();
      });
      return (await list(fs)).drafts.map((d) => d.stem);
    };
    expect(await after((inner) => inner.unlink(path))).toEqual(["other"]);
    // a valid draft rewritten to one that does not even load, and one changed into another valid one
    expect(await after((inner) => inner.writeFile(path, "{nope"))).toEqual(["other"]);
    expect(await after((inner) => inner.writeFile(path, '{"template":"echo changed"}'))).toEqual(["other"]);
    // read unchanged, it is one
    expect(await after(async () => undefined)).toEqual(["good", "other"]);
  });
});
