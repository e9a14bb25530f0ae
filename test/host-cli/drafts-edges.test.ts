// Drafts as a person expects them, through the real command: a missing tool's delete fails, a
// `draft=` path means the same from any folder, a description given on promotion is kept, a
// promoted draft is never offered to a review batch again, `review` says how many drafts it is
// short of a batch, and promotion refuses symlinks and never echoes a file's content.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";

let base: string;
let agent: string;
let drafts: string;
let env: Record<string, string>;

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), "pi-recipes-draft-edges-"));
  agent = join(base, "agent");
  drafts = join(agent, "recipes", "drafts");
  mkdirSync(drafts, { recursive: true });
  env = { PI_CODING_AGENT_DIR: agent, PI_RECIPES_REVIEWER: "" };
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const draft = (name: string, template: string, description = `Draft ${name}`): void =>
  writeFileSync(join(drafts, name), `${JSON.stringify({ description, template }, null, 2)}\n`);

describe("register_tool delete of a tool that does not exist", () => {
  it("exits 1 and names the tool", () => {
    const r = runCli(["register_tool", "name=nope", "template=null"], env);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe('Tool "nope" not found.\n');
    expect(r.stdout).toBe("");
  });
});

describe("register_tool draft= from any folder", () => {
  it("a bare file name, recipes/drafts/… and drafts/… all find the draft from an unrelated folder; a given description wins", () => {
    draft("one.json", "echo one");
    const elsewhere = join(base, "elsewhere");
    mkdirSync(elsewhere);
    const bare = runCli(["register_tool", "name=t_bare", "draft=one.json", "description=Mine"], env, elsewhere);
    expect(bare).toMatchObject({ status: 0, stdout: 'Registered tool "t_bare" from draft recipe.\n' });
    expect(JSON.parse(readFileSync(join(agent, "recipes", "t_bare.json"), "utf8"))).toEqual({ description: "Mine", template: "echo one" });
    expect(runCli(["register_tool", "name=t_agent", "draft=recipes/drafts/one.json"], env, elsewhere)).toMatchObject({ status: 0 });
    expect(runCli(["register_tool", "name=t_root", "draft=drafts/one.json"], env, elsewhere)).toMatchObject({ status: 0 });
    // without a description the draft's own is kept
    expect(JSON.parse(readFileSync(join(agent, "recipes", "t_agent.json"), "utf8"))).toEqual({ description: "Draft one.json", template: "echo one" });
    // the draft file stays
    expect(existsSync(join(drafts, "one.json"))).toBe(true);
    // a path that leaves the drafts folder is still refused
    const out = runCli(["register_tool", "name=t_out", "draft=recipes/drafts/../t_bare.json"], env, elsewhere);
    expect(out.status).toBe(1);
    expect(out.stderr).toContain("Draft must be under");
  }, 120_000);

  it("a promoted draft is not offered to a review batch again", () => {
    for (let i = 1; i <= 12; i++) draft(`d${String(i).padStart(2, "0")}.json`, `echo d${i}`);
    expect(runCli(["register_tool", "name=kept", "draft=d01.json"], env)).toMatchObject({ status: 0 });
    const r = runCli(["review"], env);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("phase=idle");
    expect(r.stdout).toContain("11 drafts, a batch needs 12");
    expect(existsSync(join(drafts, "d01.json"))).toBe(true);
  }, 120_000);
});

describe("spawn of a command that cannot start", () => {
  it("is not saved as a draft, and the result says why; one that starts is saved whatever its exit", () => {
    const listed = (): string[] => readdirSync(drafts).filter((n) => n.endsWith(".json"));
    for (const [template, word] of [["ecoh_nope hi", "ecoh_nope"], ["./missing.sh x", "./missing.sh"], ['["true","nonexistent_cmd_x"]', "nonexistent_cmd_x"]] as const) {
      const r = runCli(["spawn", `template=${template}`], env, base);
      expect(r.stdout + r.stderr).toContain(`draft_recipe=none draft_reason="command not found: ${word} (a template that cannot start is not saved as a draft)"`);
    }
    expect(listed()).toEqual([]);
    expect(runCli(["spawn", "template=false"], env, base).stdout + runCli(["spawn", "template=echo {x=1}"], env, base).stdout).toMatch(/draft_recipe=\//);
    expect(listed()).toHaveLength(2);
  });
});

describe("spawn whose template or values stop it before any command starts", () => {
  it("is not saved as a draft, and the result says why; a template whose first command ran is saved", () => {
    const listed = (): string[] => readdirSync(drafts).filter((n) => n.endsWith(".json"));
    for (const args of [["template=echo {x}"], ["template=echo {x}", 'values={"y":1}'], ['template={"timeout":"{t}","template":"echo hi"}', 'values={"t":"soon"}']]) {
      const r = runCli(["spawn", ...args], env, base);
      expect(r.status).toBe(1);
      expect(r.stderr).toContain('draft_recipe=none draft_reason="no command started (a template that cannot start is not saved as a draft)"');
    }
    expect(listed()).toEqual([]);
    const ran = runCli(["spawn", 'template=["echo first","echo {x}"]'], env, base);
    expect(ran.status).toBe(1);
    expect(ran.stderr).toMatch(/draft_recipe=\//);
    expect(listed()).toHaveLength(1);
  });
});

describe("spawn of values written like placeholders", () => {
  it("runs them as the text they are, and saves no draft that would run them as references", () => {
    const r = runCli(["spawn", "template=printf [%s] {x} {y}", 'values={"x":"{y}","y":"-n"}'], env, base);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("[{y}][-n]");
    expect(r.stdout).toContain('draft_recipe=none draft_reason="the value of x (\\"{y}\\") would read as a reference to another value when the draft runs');
  });
});

describe("spawn when its draft cannot be saved", () => {
  it("the command runs to its end and its result comes back, saying why no draft was saved", () => {
    // a file where the drafts folder should be: the capture fails at once, while the command runs
    rmSync(drafts, { recursive: true });
    writeFileSync(drafts, "not a folder");
    const mark = join(base, "mark");
    const r = runCli(["spawn", `template=sh -c "sleep 0.5; echo ran > ${mark}; echo done"`, "--json"], env, base);
    expect(r.stderr).not.toMatch(/Error|at /);
    expect(r.status).toBe(0);
    const body = JSON.parse(r.stdout) as { ok: boolean; text: string; details: Record<string, unknown> };
    expect(body.ok).toBe(true);
    expect(body.text).toMatch(/^done\ndraft_recipe=none draft_reason="/);
    expect(String(body.details["draft_reason"])).toMatch(/ENOTDIR|EEXIST|not a directory/i);
    // the command was not left behind: it ran to its end before the answer
    expect(readFileSync(mark, "utf8")).toBe("ran\n");
  });
});

describe("review with fewer drafts than a batch needs", () => {
  it("says how many there are and how many a batch needs", () => {
    for (let i = 1; i <= 4; i++) draft(`d${i}.json`, `echo d${i}`);
    const r = runCli(["review"], env);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("phase=idle steps=nothing to do (4 drafts, a batch needs 12)");
  }, 60_000);
});

describe("promotion refuses symlinks and never echoes a draft's content", () => {
  it("a file symlink and a folder symlink in drafts/ are refused; nothing is written", () => {
    const outside = join(base, "outside");
    mkdirSync(outside);
    writeFileSync(join(outside, "secret.json"), JSON.stringify({ description: "Outside", template: "echo outside" }));
    symlinkSync(join(outside, "secret.json"), join(drafts, "link.json"));
    symlinkSync(outside, join(drafts, "sub"));
    const file = runCli(["register_tool", "name=from_link", "draft=link.json"], env);
    expect(file.status).toBe(1);
    expect(file.stderr).toBe(`Draft not promoted: ${join(drafts, "link.json")} is a symlink; a draft must be a regular file inside the drafts folder.\n`);
    const folder = runCli(["register_tool", "name=from_folder", "draft=recipes/drafts/sub/secret.json"], env);
    expect(folder.status).toBe(1);
    expect(folder.stderr).toContain(`${join(drafts, "sub")} is a symlink`);
    expect(existsSync(join(agent, "recipes", "from_link.json"))).toBe(false);
    expect(existsSync(join(agent, "recipes", "from_folder.json"))).toBe(false);
  }, 60_000);

  it("an invalid draft's error says where, not what the file holds", () => {
    writeFileSync(join(drafts, "passwd.json"), "root:x:0:0:root:/root:/bin/bash\n");
    const r = runCli(["register_tool", "name=pw", "draft=passwd.json"], env);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^Draft recipe is invalid: /);
    expect(r.stderr).not.toContain("root:x");
    expect(r.stderr).not.toContain("/bin/bash");
  }, 60_000);
});

describe("spawn of a template that prints the environment", () => {
  it("runs it, but saves no draft: printing every variable touches every secret among them", () => {
    const templates = ["env", "printenv", "cat /proc/self/environ", "node -e console.log(process.env.GITHUB_TOKEN)", "sh -c 'cat; export -p'", "printenv GITHUB_TOKEN"];
    for (const template of templates) {
      const r = runCli(["spawn", `template=${template}`, "--json"], env);
      const details = (JSON.parse(r.stdout) as { details: Record<string, unknown> }).details;
      expect({ template, draft: details["draft_recipe"], reason: details["draft_reason"] }).toEqual({ template, draft: null, reason: "touches secrets (risk.secret_touching)" });
    }
    expect(existsSync(drafts) ? readdirSync(drafts) : []).toEqual([]);
    // one that prints a single harmless variable is still a draft
    expect(runCli(["spawn", "template=printenv HOME"], env).stdout).toMatch(/draft_recipe=.*recipes\/drafts\/spawn-/);
  });

  it("also through a shell's own command, a print flag or a jq filter; a search for the text or one harmless variable is still a draft", () => {
    for (const template of ["sh -c 'exec env'", "node -p process.env", "jq -n env"]) {
      const r = runCli(["spawn", `template=${template}`, "--json"], env);
      const details = (JSON.parse(r.stdout) as { details: Record<string, unknown> }).details;
      expect({ template, draft: details["draft_recipe"], reason: details["draft_reason"] }).toEqual({ template, draft: null, reason: "touches secrets (risk.secret_touching)" });
    }
    expect(existsSync(drafts) ? readdirSync(drafts) : []).toEqual([]);
    for (const template of ["sh -c 'grep -rn process.env /dev/null; true'", "node -e 'console.log(process.env.HOME)'"])
      expect(runCli(["spawn", `template=${template}`], env).stdout, template).toMatch(/draft_recipe=.*recipes\/drafts\/spawn-/);
  }, 60_000);
});
