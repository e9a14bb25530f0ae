// Imports, references and delegation (docs/recipes.md, "From file to tool") run end to end: real recipe files,
// discovery, callTool and real processes.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openRegistry } from "../../../runtime/registry.js";
import { makeNodeScanPort } from "../../../adapters/fs/scan.js";
import { callTool } from "../../../runtime/verbs/call.js";
import { sandbox, type Sandbox } from "./support.js";
import { unaccountedLaunch } from "../../../runtime/verbs/call.js";
import { makeNodeFileSystem } from "../../../adapters/fs/node.js";

let box: Sandbox;
let root: string;
beforeAll(() => {
  box = sandbox();
  root = join(box.agent, "recipes");
});
afterAll(() => box.cleanup());

const write = (path: string, value: unknown): void => {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, JSON.stringify(value));
};

async function call(name: string, params: Record<string, unknown> = {}) {
  const registry = openRegistry({ env: { PI_CODING_AGENT_DIR: box.agent }, cwd: box.dir, home: box.dir, packagedRoot: null, scan: makeNodeScanPort() });
  return callTool(registry.discover(), name, params, { paths: registry.paths, fs: makeNodeFileSystem(), launch: unaccountedLaunch });
}

describe("imports and delegation through real processes", () => {
  it("a wrapper delegating to a user recipe runs the target with the wrapper's defaults", async () => {
    write(join(root, "shared.json"), { args: ["message:string"], defaults: { message: "user" }, template: "printf %s {message}" });
    write(join(root, "parent.json"), { defaults: { message: "parent" }, template: "shared" });
    expect((await call("parent")).text).toBe("parent");
    expect((await call("parent", { message: "call" })).text).toBe("call");
    expect((await call("shared")).text).toBe("user");
  });

  it("import references resolve into defaults and the template", async () => {
    write(join(box.dir, "lib", "base.json"), { defaults: { profile: "safe" }, template: "echo base" });
    write(join(root, "uses_base.json"), {
      imports: { base: { from: join(box.dir, "lib", "base.json"), values: { target: "docs" } } },
      template: "printf %s-%s {base.defaults.profile} {base.values.target}",
    });
    expect((await call("uses_base")).text).toBe("safe-docs");
  });

  it("a wrapper recipe: an {agent} skill recipe imported and called by alias", async () => {
    write(join(box.agent, "skills", "abcd-context", "recipes", "validate-context.json"), {
      args: ["path:path=."],
      template: "printf validated:%s {path}",
    });
    write(join(root, "validate_context.json"), {
      description: "Run the ABCd context validator through its skill recipe.",
      imports: { validate_context: "{agent}/skills/abcd-context/recipes/validate-context.json" },
      args: ["path:path=."],
      template: { name: "validate_context" },
    });
    expect((await call("validate_context")).text).toBe("validated:.");
    expect((await call("validate_context", { path: "src" })).text).toBe("validated:src");
  });

  it("an import node with values, in a sequence", async () => {
    write(join(root, "greet.json"), { args: ["who"], template: "printf hello-%s {who}" });
    write(join(root, "pipeline.json"), { imports: { greet: "greet" }, template: [{ name: "greet", values: { who: "world" } }, "cat"] });
    expect((await call("pipeline")).text).toBe("hello-world");
  });

  it("a cyclic import makes the recipe invalid with the cycle named; other tools still run", async () => {
    write(join(root, "cyc_a.json"), { template: "cyc_b" });
    write(join(root, "cyc_b.json"), { template: "cyc_a" });
    const r = await call("cyc_a");
    expect(r.ok).toBe(false);
    expect(r.text).toContain("Cyclic recipe import:");
    expect((await call("shared")).ok).toBe(true);
  });

  it("a template that is just an executable path runs it, not read as a recipe reference", async () => {
    const script = box.script("hello.sh", "printf ran-script");
    write(join(root, "run_script.json"), { template: script });
    expect((await call("run_script")).text).toBe("ran-script");
  });
});
