// Value assembly (recipe values < tool defaults < call params) through real recipe files,
// discovery and callTool.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openRegistry } from "../../../runtime/registry.js";
import { makeNodeScanPort } from "../../../adapters/fs/scan.js";
import { callTool, type CallContext } from "../../../runtime/verbs/call.js";
import { sandbox, type Sandbox } from "./support.js";
import { unaccountedLaunch } from "../../../runtime/verbs/call.js";
import { makeNodeFileSystem } from "../../../adapters/fs/node.js";

let box: Sandbox;
beforeEach(() => {
  box = sandbox();
  box.script("tool", `printf '%s\\n' "$@"`);
});
afterEach(() => box.cleanup());

function call(recipe: string, body: unknown, params: Record<string, unknown>, ctx: Partial<CallContext> = {}) {
  writeFileSync(join(box.agent, "recipes", `${recipe}.json`), JSON.stringify(body));
  const registry = openRegistry({ env: { PI_CODING_AGENT_DIR: box.agent }, cwd: box.dir, home: box.dir, packagedRoot: null, scan: makeNodeScanPort() });
  return callTool(registry.discover(), recipe, params, { paths: registry.paths, killGraceMs: 200, fs: makeNodeFileSystem(), launch: unaccountedLaunch, ...ctx });
}

describe("recipe values < tool defaults < call params", () => {
  it("inline types, inline defaults, fallbacks and ternaries", async () => {
    const body = { template: "./tool {file:path} {lang=ru} {mode:enum(a,b)=a} {t??x} {all?--all:}" };
    const r = await call("inline_forms", body, { file: "f" });
    expect(r.ok).toBe(true);
    expect(r.text).toBe("f\nru\na\nx");
    expect((await call("inline_forms", body, { file: "f", all: true, mode: "b" })).text).toBe("f\nru\nb\nx\n--all");
  });

  it("values then defaults then params", async () => {
    const body = { description: "fg", values: { who: "values" }, defaults: { greet: "hi" }, template: "./tool {greet} {who}" };
    expect((await call("layers", body, {})).text).toBe("hi\nvalues");
    expect((await call("layers", body, { who: "param" })).text).toBe("hi\nparam");
  });

  it("top-level defaults beat leaf defaults (they are runtime values), and expand their own placeholders", async () => {
    const body = { defaults: { model: "top", dir: "{root}/docs", root: "/repo" }, template: { defaults: { model: "leaf" }, template: "./tool {model} {dir}" } };
    expect((await call("layers", body, {})).text).toBe("top\n/repo/docs");
  });

  it("call values are verbatim: a placeholder in a param is never expanded", async () => {
    const body = { defaults: { secret: "s3cret" }, template: "./tool {x}" };
    expect((await call("verbatim", body, { x: "{secret}" })).text).toBe("{secret}");
  });

  it("a missing control value gives the usage hint; with it only the enabled step runs", async () => {
    const body = { template: [{ when: "verbose", template: "./tool a {x}" }, { recover: "./tool clean {work_dir}", retry: "{tries}", template: "./tool b {y=1} {z??none}" }] };
    const bad = await call("seq", body, { y: "2" });
    expect(bad.ok).toBe(false);
    expect(bad.text.startsWith('Invalid arguments for tool "seq": Missing retry value: tries\n\nExpected call shape for seq:\nseq({')).toBe(true);
    const keys = Object.keys(JSON.parse(bad.text.slice(bad.text.indexOf("seq({") + 4, bad.text.indexOf("})") + 1)) as object);
    // a `??` fallback makes z optional, so it comes after the required names (pi-actors listed
    // x,z,work_dir,tries,verbose,y)
    expect(keys).toEqual(["x", "work_dir", "tries", "verbose", "y", "z"]);
    const good = await call("seq", body, { y: "2", tries: "1" });
    expect(good.text).toBe("b\n2\nnone");
  });

  it("a typed argument error shows the usage hint exactly", async () => {
    const body = { args: ["file", "mode:enum(check,fix)"], defaults: { mode: "check" }, template: "./tool {file} {mode}" };
    const r = await call("check_tool", body, { file: "README.md", mode: "delete" });
    expect(r.ok).toBe(false);
    expect(r.text).toBe(
      'Invalid arguments for tool "check_tool": Argument mode must be one of: check, fix.\n\nExpected call shape for check_tool:\ncheck_tool({\n  "file": "<file>",\n  "mode": "check"\n})\nRequired: file\nOptional: mode',
    );
  });

  it("injected values win over call params and defaults, normalized by type and used verbatim", async () => {
    const body = { args: ["current_model", "n:int"], defaults: { current_model: "{n}" }, template: "./tool {current_model} {n} {current_thinking}" };
    const injected = { current_model: "{n} injected", n: " 4 ", current_thinking: "high" };
    const r = await call("injected", body, { current_model: "mine", n: "3" }, { injected });
    expect(r.text).toBe("{n} injected\n4\nhigh");
    // without injected values the authored default expands its placeholder
    expect((await call("injected", body, { n: "3" }, { injected: { current_thinking: "low" } })).text).toBe("3\n3\nlow");
  });

  it("of several values that do not fit, the first in the merged key order is named", async () => {
    const body = { args: ["a:int", "b:int", "c:int"], defaults: { b: "1" }, template: "./tool {a} {b} {c}" };
    // params give c before b, but b holds its place from the defaults layer
    const r = await call("mismatch", body, { a: "1", c: "x", b: "y" });
    expect(r.ok).toBe(false);
    expect(r.text).toMatch(/^Invalid arguments for tool "mismatch": Argument b must /);
    expect((await call("mismatch", body, { c: "x", a: "y" })).text).toMatch(/^Invalid arguments for tool "mismatch": Argument c must /);
  });

  it("typed values are normalized before substitution", async () => {
    const body = { template: "./tool {n:int} {b:bool} {items[1]}", args: ["n:int", "b:bool", "items:array"] };
    expect((await call("typed", body, { n: " 42 ", b: "YES", items: '["a","b"]' })).text).toBe("42\ntrue\nb");
  });

  it("unknown, invalid and disabled tools are clear errors naming the file", async () => {
    const unknown = await call("present", { template: "true" }, {});
    expect(unknown.ok).toBe(true);
    const registry = openRegistry({ env: { PI_CODING_AGENT_DIR: box.agent }, cwd: box.dir, home: box.dir, packagedRoot: null, scan: makeNodeScanPort() });
    const ctx = { paths: registry.paths, fs: makeNodeFileSystem(), launch: unaccountedLaunch };
    expect((await callTool(registry.discover(), "missing", {}, ctx)).text).toMatch(/^Unknown tool: missing\./);
    writeFileSync(join(box.agent, "recipes", "off.json"), JSON.stringify({ disabled: true, template: "true" }));
    writeFileSync(join(box.agent, "recipes", "broken.json"), "{ nope");
    const d = registry.discover();
    expect((await callTool(d, "off", {}, ctx)).text).toBe(`Recipe off is disabled (${join(box.agent, "recipes", "off.json")})`);
    expect((await callTool(d, "broken", {}, ctx)).text).toContain(join(box.agent, "recipes", "broken.json"));
  });

  // without a hook, callTool starts a detached run (test/runtime/runs)
  it("async tools go to the startAsync hook", async () => {
    const body = { async: true, template: "./tool {x}" };
    const seen: unknown[] = [];
    const r = await call("later", body, { x: "1" }, {
      startAsync: async (launch) => {
        seen.push(launch.values);
        return { ok: true, text: "started", details: {} };
      },
    });
    expect(r.text).toBe("started");
    expect(seen).toEqual([{ x: "1" }]);
  });
});

describe("option injection", () => {
  it("a path value starting with - reaches the command as ./-…, the same file, never an option", async () => {
    writeFileSync(join(box.dir, "-n"), "hello\n");
    const r = await call("show", { args: ["file:path"], template: "cat {file}" }, { file: "-n" });
    expect(r.ok).toBe(true);
    expect(r.text).toBe("hello");
    expect((await call("echo", { template: "./tool {file:path}" }, { file: "-rf" })).text).toBe("./-rf");
  });
});
