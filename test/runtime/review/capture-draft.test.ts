// Capturing an inline spawn as a draft, in-process on an in-memory volume: the recipe written
// (run values kept as defaults, run keys not), the file name made from the run id, create-only
// naming with its limit, what is refused and why, and the zero-call lineage seeded for it.
import { describe, expect, it } from "vitest";
import { Volume } from "memfs";
import { FsError } from "../../../adapters/fs/FileSystem.js";
import type { FileSystem } from "../../../adapters/fs/FileSystem.js";
import { makeMemFileSystem } from "../../../adapters/fs/memfs.js";
import type { Lock } from "../../../adapters/lock/Lock.js";
import { agentPaths } from "../../../runtime/agent-paths.js";
import { captureDraft, draftRecipe } from "../../../runtime/review/capture-draft.js";
import { interceptFs } from "../../support/intercept-fs.js";

const paths = agentPaths({ PI_CODING_AGENT_DIR: "/agent" }, "/", "/home");
const DRAFTS = paths.draftRoot;
const lock: Lock = {
  acquire: async (path) => ({ path, canonicalPath: path, release: async () => undefined }),
  withLock: async (_path, fn) => fn(),
};
const capture = (fs: FileSystem, runId?: string, template = "echo {{x}}") =>
  captureDraft({ fs, lock, paths, now: () => 1000 }, { template, values: { x: "1" }, ...(runId === undefined ? {} : { runId }) });
const text = async (fs: FileSystem, p: string): Promise<string> => new TextDecoder().decode(await fs.readFile(p));

describe("draftRecipe", () => {
  it("keeps the run's values as defaults, except the run's own keys and undefined values", () => {
    const values = { actor_address: "a", communication_file: "c", default_room: "d", run_id: "r", state_dir: "s", x: 1, y: undefined, z: [true] };
    expect(draftRecipe({ template: "echo", values }, "run-1")).toStrictEqual({ description: "Draft recipe captured from spawn run run-1", defaults: { x: 1, z: [true] }, template: "echo" });
  });

  it("with no value left there are no defaults", () => {
    expect(draftRecipe({ template: ["a", "b"], values: { run_id: "r", y: undefined } }, "r")).toStrictEqual({ description: "Draft recipe captured from spawn run r", template: ["a", "b"] });
  });
});

describe("captureDraft", () => {
  it("writes the recipe as two-space JSON under the run id and seeds a zero-call lineage for it", async () => {
    const fs = makeMemFileSystem(new Volume());
    expect(await capture(fs, "run-1")).toStrictEqual({ captured: true, path: `${DRAFTS}/run-1.json`, diagnostics: [] });
    expect(await text(fs, `${DRAFTS}/run-1.json`)).toBe(
      '{\n  "description": "Draft recipe captured from spawn run run-1",\n  "defaults": {\n    "x": "1"\n  },\n  "template": "echo {{x}}"\n}\n',
    );
    const lineage = JSON.parse(await text(fs, `${paths.usageRoot}/recipes/run-1.json`)) as Record<string, unknown>;
    expect(lineage).toMatchObject({ lineage_name: "run-1", current_path: "drafts/run-1.json", lifetime_calls: 0, first_seen: "1970-01-01T00:00:01.000Z" });
  });

  it("names a draft without a run id spawn-<now>; a run id is made a safe file name", async () => {
    const fs = makeMemFileSystem(new Volume());
    const names: string[] = [];
    for (const id of [undefined, "a  b/c", "..x.y--", "v1.2_3", "///", "-.-"]) names.push(((await capture(fs, id)) as { path: string }).path.slice(DRAFTS.length + 1));
    expect(names).toEqual(["spawn-1000.json", "a-b-c.json", "x.y.json", "v1.2_3.json", "spawn.json", "spawn-2.json"]);
  });

  it("never overwrites: the same id gets -2, -3 … up to -100, then the capture fails", async () => {
    const files: Record<string, string> = { [`${DRAFTS}/r.json`]: "{}" };
    for (let n = 2; n <= 99; n++) files[`${DRAFTS}/r-${n}.json`] = "{}";
    const fs = makeMemFileSystem(Volume.fromJSON(files) as Volume);
    expect(await capture(fs, "r")).toMatchObject({ captured: true, path: `${DRAFTS}/r-100.json` });
    await expect(capture(fs, "r")).rejects.toThrow(/EEXIST/);
    expect(await text(fs, `${DRAFTS}/r.json`)).toBe("{}");
  });

  it("a failure other than the name already taken (even an EEXIST of another call) is not retried under the next name", async () => {
    let failed = false;
    const fs = interceptFs(makeMemFileSystem(new Volume()), async (name, args, call) => {
      // the temp's removal after the draft was linked into place
      if (name !== "unlink" || failed || !String(args[0]).startsWith(DRAFTS)) return call();
      failed = true;
      throw new FsError("EEXIST", "unlink", String(args[0]), "EEXIST: unlink");
    });
    await expect(capture(fs, "r")).rejects.toThrow("EEXIST: unlink");
    expect((await fs.readdir(DRAFTS)).map((e) => e.name).filter((n) => !n.endsWith(".tmp"))).toEqual(["r.json"]);
  });

  it("refuses a template that is no recipe, or that touches secrets, and writes nothing", async () => {
    const fs = makeMemFileSystem(new Volume());
    expect(await captureDraft({ fs, lock, paths, now: () => 1 }, { template: 42, values: {} })).toStrictEqual({
      captured: false,
      reason: "not a valid recipe: template must be a non-empty command string, sequence or object (got number)",
    });
    expect(await capture(fs, "s", "echo {{password}}")).toStrictEqual({ captured: false, reason: "touches secrets (risk.secret_touching)" });
    expect((fs as unknown as { vol: Volume }).vol.toJSON()).toEqual({});
  });

  it("refuses values that, kept as defaults, would read as references to other values (the draft would run another command)", async () => {
    const fs = makeMemFileSystem(new Volume());
    const run = (values: Record<string, unknown>) => captureDraft({ fs, lock, paths, now: () => 1000 }, { template: "printf %s {x} {y}", values, runId: "v" });
    for (const [x, shown] of [["{y}", '"{y}"'], ["{ys[0]}", '"{ys[0]}"']] as const)
      expect(await run({ x, y: "-n" })).toStrictEqual({
        captured: false,
        reason: `the value of x (${shown}) would read as a reference to another value when the draft runs, so the draft could not run what this spawn ran`,
      });
    expect((fs as unknown as { vol: Volume }).vol.toJSON()).toEqual({});
    // text that is no reference is kept as written
    for (const x of ["{y:int}", "{y=1}", "a {y}", "{y}{y}", "{}"]) expect((await run({ x, y: "-n" })).captured, x).toBe(true);
  });
});
