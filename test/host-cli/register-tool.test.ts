// `pi-recipes register_tool key=value ...`, the real command in a child process.
import { chmodSync, mkdtempSync, readFileSync, readdirSync, rmSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli, runCliJson, type CliRun } from "../support/cli.js";
import { ownedAgentDirs, permissionTestsRun, type OwnedAgentDir } from "../support/as-owner.js";

const dir = mkdtempSync(join(tmpdir(), "cli-register-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const env = { PI_CODING_AGENT_DIR: join(dir, "agent") };
const root = join(dir, "agent", "recipes");

describe("pi-recipes register_tool", () => {
  it("creates, lists, updates, deletes, with the exit codes of the CLI contract", () => {
    const created = runCli(["register_tool", "name=call_subagent", "description=Run pi as a non-interactive sub-agent", "template=pi -p --model {model} --no-tools {prompt}", "args=prompt:string,model:string"], env);
    expect(created).toMatchObject({ status: 0, stdout: 'Registered tool "call_subagent" (args: prompt, model).\n' });
    expect(readFileSync(join(root, "call_subagent.json"), "utf8")).toBe(
      '{\n  "description": "Run pi as a non-interactive sub-agent",\n  "args": [\n    "prompt:string",\n    "model:string"\n  ],\n  "template": "pi -p --model {model} --no-tools {prompt}"\n}\n',
    );
    expect(runCli(["register_tool"], env)).toMatchObject({ status: 0, stdout: "Registered tools:\n- call_subagent\n" });

    const again = runCli(["register_tool", "name=call_subagent", "description=x", "template=echo"], env);
    expect(again).toMatchObject({ status: 1, stderr: 'Tool "call_subagent" already registered. Use update=true to overwrite.\n' });

    const updated = runCliJson(["register_tool", "name=call_subagent", "description=Sub-agent", "update=true", "timeout=60000"], env);
    expect(updated).toMatchObject({ status: 0, body: { ok: true, text: 'Updated tool "call_subagent" (args: prompt, model).', details: { tool: "call_subagent", updated: true } } });
    expect(JSON.parse(readFileSync(join(root, "call_subagent.json"), "utf8"))).toEqual({
      description: "Sub-agent", args: ["prompt:string", "model:string"], timeout: 60000, template: "pi -p --model {model} --no-tools {prompt}",
    });

    expect(runCli(["register_tool", "name=call_subagent", "template=null"], env)).toMatchObject({
      status: 0,
      stdout: 'Deleted tool "call_subagent". Reload to remove it from the complete registry.\n',
    });
    expect(existsSync(join(root, "call_subagent.json"))).toBe(false);
  }, 120_000);

  it("takes sequences as JSON and numeric-looking names as names; promotes drafts", () => {
    expect(runCli(["register_tool", "name=9lives", "description=Nine", 'template=["echo {a}",{"timeout":5,"template":"echo b"}]'], env)).toMatchObject({
      status: 0,
      stdout: 'Registered tool "tool_9lives" (args: a).\nName "9lives" was normalized to "tool_9lives".\n',
    });
    expect(runCli(["register_tool", "name=123", "description=n", "template=null"], env)).toMatchObject({ status: 1, stderr: 'Tool "tool_123" not found.\n' });
    mkdirSync(join(root, "drafts"), { recursive: true });
    writeFileSync(join(root, "drafts", "d.json"), JSON.stringify({ description: "Draft", template: "echo d" }));
    expect(runCli(["register_tool", "name=from_draft", `draft=${join(root, "drafts", "d.json")}`], env)).toMatchObject({
      status: 0,
      stdout: 'Registered tool "from_draft" from draft recipe.\n',
    });
  }, 120_000);

  it("fields without a name are refused, naming them, and nothing is written: a list would read as the change done", () => {
    const before = existsSync(root) ? readdirSync(root).sort() : [];
    const r = runCliJson(["register_tool", "description=d", "template=echo hi"], env);
    expect(r).toEqual({
      status: 1,
      body: {
        ok: false,
        text: "Tool name is required: name=<tool> says which tool to create, update or delete (description, template given without it). Without any field, register_tool lists the tools.",
        details: { fields: ["description", "template"] },
      },
    });
    expect(runCli(["register_tool", "name=", "template=echo hi", "description=d"], env).status).toBe(1);
    expect(existsSync(root) ? readdirSync(root).sort() : []).toEqual(before);
  });

  it("a recipe file that is there but does not load is named as such, not as a registered tool", () => {
    mkdirSync(root, { recursive: true });
    writeFileSync(join(root, "arr.json"), "[]");
    try {
      expect(runCli(["register_tool", "name=arr", "description=d", "template=echo"], env)).toEqual({
        status: 1,
        stdout: "",
        stderr: `Tool "arr" is not registered, but its recipe file ${join(root, "arr.json")} is there and does not load (JSON recipe must be an object). Use update=true with a template to overwrite it.\n`,
      });
      expect(runCli(["register_tool", "name=arr", "description=d", "template=echo", "update=true"], env).status).toBe(0);
      expect(JSON.parse(readFileSync(join(root, "arr.json"), "utf8"))).toEqual({ description: "d", template: "echo" });
    } finally {
      rmSync(join(root, "arr.json"), { force: true });
    }
  });

  it("a folder where the tool's recipe file would be is refused by name, never an internal error", () => {
    mkdirSync(join(root, "folder_tool.json"), { recursive: true });
    try {
      for (const args of [["template=null"], ["description=d", "template=echo"], ["description=d", "template=echo", "update=true"]]) {
        expect(runCli(["register_tool", "name=folder_tool", ...args], env)).toEqual({
          status: 1,
          stdout: "",
          stderr: `Tool not changed: ${join(root, "folder_tool.json")} is a folder, not a recipe file; move it away first.\n`,
        });
      }
    } finally {
      rmSync(join(root, "folder_tool.json"), { recursive: true });
    }
  });

  it("bad arguments: registry refusals exit 1, malformed command lines exit 2", () => {
    // a key the verb does not take is a malformed command line
    expect(runCli(["register_tool", "name=x", "bogus=1"], env)).toMatchObject({ status: 2, stderr: expect.stringMatching(/^pi-recipes: register_tool does not accept "bogus"/) });
    expect(runCli(["register_tool", "name=x", "descripton=d"], env).stderr).toContain('Did you mean "description"?');
    expect(runCli(["register_tool", "name=t", "description=t", "template=[]"], env)).toMatchObject({ status: 1, stderr: "Tool template sequence is empty.\n" });
    expect(runCli(["register_tool", "positional"], env).status).toBe(2);
  }, 120_000);
});

// Mode 000 keeps a file from its owner only when the owner is not root: test/support/as-owner.ts
// runs the command as the agent dir's owner.
const reachable = permissionTestsRun("register_tool");

describe.skipIf(!reachable)("register_tool where permissions bite: an unreadable recipe file, a root this user may not write", () => {
  const dirs = ownedAgentDirs("cli-register-unreadable-");
  let owned: OwnedAgentDir;
  let recipes = "";
  const run = (args: readonly string[]): CliRun => owned.run(args);
  const ownAll = (): void => owned.ownAll();
  const fresh = (): void => {
    owned = dirs.fresh();
    recipes = owned.recipes;
  };
  afterAll(() => dirs.removeAll());
  /** a fresh agent dir with a tool `name` in both formats (`name.json` says "json", `name.md` "md"),
   *  the owner's */
  const pair = (name: string): { readonly json: string; readonly md: string } => {
    fresh();
    const json = join(recipes, `${name}.json`);
    const md = join(recipes, `${name}.md`);
    writeFileSync(json, JSON.stringify({ description: name, template: "echo json" }));
    writeFileSync(md, `---\ndescription: ${name}\n---\n\n\`\`\`template\necho md\n\`\`\`\n`);
    ownAll();
    return { json, md };
  };

  it("removes it as rm would, and leaves its usage ledger as it was", () => {
    fresh();
    const file = join(recipes, "locked.json");
    writeFileSync(file, JSON.stringify({ description: "Locked", template: "echo locked" }));
    ownAll();
    expect(run(["call", "locked"])).toMatchObject({ status: 0, stdout: "locked\n" });
    // the view folds the launch into the tool's ledger
    expect(run(["inspect", "target=recipes", "view=summary"]).stdout).toContain("usage: locked calls=1");
    const ledger = join(recipes, ".usage", "recipes", "locked.json");
    const counted = readFileSync(ledger);
    chmodSync(file, 0o000);
    // the detector: the owner cannot read it (so no tool comes of it)
    expect(run(["list"]).stdout).toContain(`Failed to load recipe ${file}: EACCES`);

    const r = run(["register_tool", "name=locked", "template=null"]);
    expect(r).toEqual({
      status: 0,
      stdout: `Deleted tool "locked". Reload to remove it from the complete registry.\n${file} could not be read (EACCES: permission denied) and was removed without being read; its usage history is kept.\n`,
      stderr: "",
    });
    expect(existsSync(file)).toBe(false);
    expect(run(["list"])).toMatchObject({ status: 0, stdout: "No registered tools.\n" });
    expect(readFileSync(ledger)).toEqual(counted);
    // nothing left for a later command to settle
    const journals = join(recipes, ".usage", "register-journal");
    expect(existsSync(journals) ? readdirSync(journals) : []).toEqual([]);
  }, 120_000);

  it("refuses a tool whose .md cannot be read beside its .json, naming the file and what to do, and removes nothing", () => {
    const { json, md } = pair("pair");
    chmodSync(md, 0o000);
    const r = run(["register_tool", "name=pair", "template=null"]);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      `Tool not deleted: ${md} cannot be read (EACCES: permission denied), and it is removed together with ${json} only as one journaled change, which reads both files. Make it readable (chmod u+r ${md}) and delete the tool again, or remove it by hand (rm ${md}) and delete the tool again.\n`,
    );
    expect(existsSync(md) && existsSync(json)).toBe(true);
    expect(run(["call", "pair"]).stdout).toBe("json\n");
    // as the answer says: once the file is readable, the tool goes whole
    chmodSync(md, 0o600);
    expect(run(["register_tool", "name=pair", "template=null"])).toMatchObject({ status: 0, stdout: 'Deleted tool "pair". Reload to remove it from the complete registry.\n' });
    expect(existsSync(md) || existsSync(json)).toBe(false);
  }, 120_000);

  it("a recipe root this user may not write is refused in one line naming the folder, never an internal error", () => {
    fresh();
    writeFileSync(join(recipes, "kept.json"), JSON.stringify({ description: "Kept", template: "echo kept" }));
    ownAll();
    chmodSync(recipes, 0o555);
    try {
      const r = run(["register_tool", "name=new_one", "description=New", "template=echo new"]);
      expect(r.status).toBe(1);
      expect(r.stdout).toBe("");
      expect(r.stderr).toBe(`pi-recipes: Cannot take a lock in ${join(recipes, ".locks")}: this user may not write that folder (EACCES: permission denied, mkdir '${join(recipes, ".locks")}'); the lock folder has the permissions of the folder it is in\n`);
      const json = run(["register_tool", "name=new_one", "description=New", "template=echo new", "--json"]);
      expect(json.status).toBe(1);
      expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, text: expect.stringMatching(/^Cannot take a lock in /), details: { lock_error: "ELOCKACCESS" } });
      expect(existsSync(join(recipes, "new_one.json"))).toBe(false);
    } finally {
      chmodSync(recipes, 0o755);
    }
  }, 120_000);

  it("without fields it lists the tools of a root this user may read but not write, as list does: a listing takes no lock", () => {
    fresh();
    writeFileSync(join(recipes, "kept.json"), JSON.stringify({ description: "Kept", template: "echo kept" }));
    ownAll();
    chmodSync(recipes, 0o555);
    try {
      expect(run(["register_tool"])).toEqual({ status: 0, stdout: "Registered tools:\n- kept\n", stderr: "" });
      expect(run(["register_tool"])).toEqual(run(["list"]));
      expect(JSON.parse(run(["register_tool", "--json"]).stdout)).toEqual({ ok: true, text: "Registered tools:\n- kept", details: { tool: "register_tool", tools: ["kept"] } });
    } finally {
      chmodSync(recipes, 0o755);
    }
  }, 120_000);

  it("a drafts folder this user may not list does not stop writing or deleting a tool", () => {
    fresh();
    const drafts = join(recipes, "drafts");
    mkdirSync(drafts);
    ownAll();
    chmodSync(drafts, 0o000);
    try {
      expect(run(["register_tool", "name=fresh_one", "description=Fresh", "template=echo fresh"])).toMatchObject({ status: 0, stdout: expect.stringMatching(/^Registered tool "fresh_one"/) });
      expect(run(["call", "fresh_one"])).toMatchObject({ status: 0, stdout: "fresh\n" });
      expect(run(["register_tool", "name=fresh_one", "template=null"])).toMatchObject({ status: 0, stdout: expect.stringMatching(/^Deleted tool "fresh_one"/) });
    } finally {
      chmodSync(drafts, 0o755);
    }
  }, 120_000);

  it("names both files when neither of the pair can be read, so that one fix is enough", () => {
    const { json, md } = pair("both");
    chmodSync(md, 0o000);
    chmodSync(json, 0o000);
    const r = run(["register_tool", "name=both", "template=null"]);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(
      `Tool not deleted: ${md} and ${json} cannot be read (EACCES: permission denied), and they are removed together only as one journaled change, which reads both files. Make them readable (chmod u+r ${md} ${json}) and delete the tool again, or remove them by hand (rm ${md} ${json}) and delete the tool again.\n`,
    );
    expect(existsSync(md) && existsSync(json)).toBe(true);
    // as the answer says: both readable, one more delete removes the tool
    chmodSync(md, 0o600);
    chmodSync(json, 0o600);
    expect(run(["register_tool", "name=both", "template=null"])).toMatchObject({ status: 0 });
    expect(existsSync(md) || existsSync(json)).toBe(false);
  }, 120_000);
});
