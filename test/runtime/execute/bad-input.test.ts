// Bad input gives a clear error naming the step (the leaf command or its label), never a crash.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Json } from "../../../core/model.js";
import { openRegistry } from "../../../runtime/registry.js";
import { makeNodeScanPort } from "../../../adapters/fs/scan.js";
import { callTool } from "../../../runtime/verbs/call.js";
import { spawn } from "../../../runtime/verbs/spawn.js";
import { sandbox, type Sandbox } from "./support.js";
import { unaccountedLaunch } from "../../../runtime/verbs/call.js";
import { makeNodeFileSystem } from "../../../adapters/fs/node.js";

let box: Sandbox;
beforeEach(() => {
  box = sandbox();
});
afterEach(() => box.cleanup());

const registry = () => openRegistry({ env: { PI_CODING_AGENT_DIR: box.agent }, cwd: box.dir, home: box.dir, packagedRoot: null, scan: makeNodeScanPort() });
const inline = (template: Json, values: Record<string, unknown> = {}) => {
  const r = registry();
  return spawn(r, { template, values }, { paths: r.paths, killGraceMs: 200, fs: makeNodeFileSystem(), launch: unaccountedLaunch });
};

describe("bad input", () => {
  it("a missing executable names it", async () => {
    const r = await inline("./definitely-missing-bin --flag");
    expect(r.ok).toBe(false);
    // no invented exit code: the command never ran
    expect(r.text).toBe(`Could not start "${box.dir}/definitely-missing-bin": no such file (spawn ${box.dir}/definitely-missing-bin ENOENT)`);
    const seq = await inline(["printf a", { label: "fetch", failure: "root", template: "definitely-missing-bin" }]);
    expect(seq.text).toBe('Could not start "definitely-missing-bin": not found on PATH (spawn definitely-missing-bin ENOENT)\n\nstep: fetch');
  });

  it("a non-zero exit in a many-step template names the step", async () => {
    const r = await inline(["printf a", { failure: "branch", template: "sh -c 'echo nope >&2; exit 3'" }]);
    expect(r.text).toBe("Exit code 3\n\nstderr:\nnope\n\nstep: sh -c 'echo nope >&2; exit 3'");
    expect(r.details["step"]).toBe("sh -c 'echo nope >&2; exit 3'");
  });

  it("a timeout says which step and after how long", async () => {
    const r = await inline({ label: "wait", timeout: 100, template: "sleep 10" });
    expect(r.text).toBe("Exit code 1 (killed)\n\nstderr:\nwait: timed out after 100 ms");
  });

  it("an unterminated quote names the leaf", async () => {
    const r = await inline(["printf ok", "echo 'unterminated"]);
    expect(r.ok).toBe(false);
    expect(r.text).toBe("Unterminated ' quote in command template: echo 'unterminated\nstep: echo 'unterminated");
  });

  it("an unknown placeholder form names the placeholder and the leaf", async () => {
    const r = await inline(["printf ok", { label: "render", template: "echo {?x:y}" }]);
    expect(r.text).toBe("Invalid command template placeholder: {?x:y}\nstep: render");
  });

  it("a cyclic import makes the tool an error naming its file and the cycle", async () => {
    const root = join(box.agent, "recipes");
    writeFileSync(join(box.dir, "b.json"), JSON.stringify({ imports: { a: join(root, "a.json") }, template: { name: "a" } }));
    writeFileSync(join(root, "a.json"), JSON.stringify({ imports: { b: join(box.dir, "b.json") }, template: { name: "b" } }));
    const reg = registry();
    const r = await callTool(reg.discover(), "a", {}, { paths: reg.paths, fs: makeNodeFileSystem(), launch: unaccountedLaunch });
    expect(r.ok).toBe(false);
    expect(r.text).toContain(join(root, "a.json"));
    expect(r.text).toContain("Cyclic recipe import");
  });

  it("spawn by name: a blocked fallback adds the shadowed-launch tokens", async () => {
    const packaged = join(box.dir, "packaged");
    mkdirSync(packaged);
    writeFileSync(join(packaged, "worker.json"), JSON.stringify({ template: "printf fallback" }));
    writeFileSync(join(box.agent, "recipes", "worker.json"), JSON.stringify({ disabled: true, template: "printf user" }));
    const reg = openRegistry({ env: { PI_CODING_AGENT_DIR: box.agent }, cwd: box.dir, home: box.dir, packagedRoot: packaged, scan: makeNodeScanPort() });
    const r = await spawn(reg, { recipe: "worker" }, { paths: reg.paths, fs: makeNodeFileSystem(), launch: unaccountedLaunch });
    const active = join(box.agent, "recipes", "worker.json");
    expect(r.text).toBe(
      `Template recipe is disabled: ${active} reason=shadowed_disabled active_path=${active} blocked_fallback=${join(packaged, "worker.json")} hint=inspect_recipes_doctor`,
    );
    expect(r.details).toMatchObject({ reason: "shadowed_disabled", hint: "inspect_recipes_doctor", original_error: `Template recipe is disabled: ${active}` });
    // by path there is no enrichment, and a healthy override is quiet
    const byPath = await spawn(reg, { file: active }, { paths: reg.paths, fs: makeNodeFileSystem(), launch: unaccountedLaunch });
    expect(byPath.text).toBe(`Template recipe is disabled: ${active}`);
    writeFileSync(active, JSON.stringify({ template: "printf user" }));
    expect((await spawn(reg, { recipe: "worker" }, { paths: reg.paths, fs: makeNodeFileSystem(), launch: unaccountedLaunch })).text).toBe("user");
    expect((await spawn(reg, { file: join(packaged, "worker.json") }, { paths: reg.paths, fs: makeNodeFileSystem(), launch: unaccountedLaunch })).text).toBe("fallback");
  });

  it("spawn arguments are checked", async () => {
    const reg = registry();
    expect((await spawn(reg, {}, { paths: reg.paths, fs: makeNodeFileSystem(), launch: unaccountedLaunch })).text).toMatch(/^spawn requires exactly one of/);
    expect((await spawn(reg, { template: "true", nope: 1 }, { paths: reg.paths, fs: makeNodeFileSystem(), launch: unaccountedLaunch })).ok).toBe(false);
    expect((await spawn(reg, { template: "printf {x}", values: "[1]" }, { paths: reg.paths, fs: makeNodeFileSystem(), launch: unaccountedLaunch })).text).toBe("spawn values must be a JSON object");
    expect((await spawn(reg, { template: "printf {x}", values: { x: "hi" } }, { paths: reg.paths, fs: makeNodeFileSystem(), launch: unaccountedLaunch })).text).toBe("hi");
  });
});
