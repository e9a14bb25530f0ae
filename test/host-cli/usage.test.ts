// Launch accounting through the real command: call, spawn recipe= and message to=tool: count, usage shows in the
// verbose summary, and an unused tool gets the operator-gated cleanup recommendation.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, runCliJson } from "../support/cli.js";

let agent: string;
beforeAll(() => {
  agent = mkdtempSync(join(tmpdir(), "pi-recipes-usage-"));
  mkdirSync(join(agent, "recipes"));
  writeFileSync(join(agent, "recipes", "hello.json"), JSON.stringify({ template: "printf hi" }));
  writeFileSync(join(agent, "recipes", "unused.json"), JSON.stringify({ template: "printf never" }));
});
afterAll(() => rmSync(agent, { recursive: true, force: true }));

describe("usage through the CLI", () => {
  it("counts call, spawn recipe= and message to=tool:, and reports usage and recommendations", () => {
    const env = { PI_CODING_AGENT_DIR: agent };
    expect(runCli(["call", "hello"], env).stdout).toBe("hi\n");
    expect(runCli(["call", "hello"], env).stdout).toBe("hi\n");
    expect(runCli(["spawn", "recipe=hello"], env).stdout).toBe("hi\n");
    expect(runCli(["message", "to=tool:hello", "type=run"], env).status).toBe(0);
    const { status, body } = runCliJson(["inspect", "target=recipes", "view=summary", "verbose=true"], env);
    expect(status).toBe(0);
    const active = body.details["active"] as { id: string; usage?: Record<string, unknown> }[];
    expect(active.find((a) => a.id === "hello")?.usage).toMatchObject({ lifetime_calls: 4, calls: 4, revision_calls: 4 });
    expect(active.find((a) => a.id === "unused")?.usage).toMatchObject({ lifetime_calls: 0, calls: 0 });
    const recommendations = body.details["recommendations"] as { id: string; reason: string }[];
    expect(recommendations.filter((r) => r.id === "unused").map((r) => r.reason)).toEqual(["active user tool has no recorded launches"]);
    expect(recommendations.some((r) => r.id === "hello")).toBe(false);
  });

  it("a call refused before any command starts counts nothing; one whose command started counts, even when it then fails", () => {
    const own = join(agent, "refusals");
    const env = { PI_CODING_AGENT_DIR: own };
    const recipes = join(own, "recipes");
    mkdirSync(recipes, { recursive: true });
    writeFileSync(join(recipes, "needx.json"), JSON.stringify({ description: "needs x", args: ["x"], template: "echo {x}" }));
    writeFileSync(join(recipes, "needpath.json"), JSON.stringify({ description: "a path", args: ["f:path"], template: "cat {f}" }));
    const touched = join(own, "touched");
    writeFileSync(join(recipes, "later_step.json"), JSON.stringify({ description: "x in step two", template: [`touch ${touched}`, "echo {x}"] }));
    writeFileSync(join(recipes, "taken.json"), JSON.stringify({ description: "x behind a when taken", template: ["printf one", { when: "{go??}", template: "echo {x}" }] }));
    writeFileSync(join(recipes, "fallback.json"), JSON.stringify({ description: "x has a fallback", args: ["x"], template: ["printf one", "echo {x??none}"] }));
    writeFileSync(join(recipes, "defaulted.json"), JSON.stringify({ description: "y has a default", args: ["x", "y=d"], template: ["printf one", { when: "{x??}", template: "echo {x}" }, "echo {y}"] }));
    writeFileSync(join(recipes, "skipped.json"), JSON.stringify({ description: "x behind when", template: [{ when: "{go??}", template: "echo {x}" }, "printf ran"] }));
    writeFileSync(join(recipes, "nocmd.json"), JSON.stringify({ description: "not on PATH", template: "no-such-command-pi-recipes-usage {x}" }));
    const calls = (): Record<string, unknown> => {
      const active = runCliJson(["inspect", "target=recipes", "view=summary", "verbose=true"], env).body.details["active"] as { id: string; usage?: { lifetime_calls: number } }[];
      return Object.fromEntries(["needx", "needpath", "later_step", "skipped", "nocmd", "taken", "fallback", "defaulted"].map((id) => [id, active.find((a) => a.id === id)?.usage?.lifetime_calls]));
    };
    for (const words of [["call", "needx"], ["call", "needx", "x=null"], ["call", "needx", "y=1"], ["call", "needpath", "f="], ["message", "to=tool:needx", "type=call"], ["spawn", "recipe=needx"]]) {
      const r = runCli(words, env);
      expect(r.status).toBe(1);
      expect(r.stderr).toContain('Invalid arguments for tool "need');
    }
    // a value missing for a later step the run certainly reaches: refused before the first step
    // runs (it would have touched the file), and not counted
    const later = runCli(["call", "later_step"], env);
    expect(later.status).toBe(1);
    expect(later.stderr).toContain('Invalid arguments for tool "later_step"');
    expect(later.stderr).toContain("Missing command template value: x");
    expect(existsSync(touched)).toBe(false);
    expect(calls()).toEqual({ needx: 0, needpath: 0, later_step: 0, skipped: 0, nocmd: 0, taken: 0, fallback: 0, defaulted: 0 });
    // a command started: counted, whatever happened next (a missing value behind a `when` the run
    // took, a command that could not be found)
    expect(runCli(["call", "taken", "go=1"], env).stderr).toContain("Missing command template value: x");
    expect(runCli(["call", "nocmd", "x=1"], env).status).toBe(1);
    // a first step its `when` skips: what runs is not known before the run, so it runs and counts
    expect(runCli(["call", "skipped"], env)).toMatchObject({ status: 0, stdout: "ran\n" });
    // a missing value the run never needs: a `when` not taken, a nullish fallback; a default fills in
    expect(runCli(["call", "taken"], env)).toMatchObject({ status: 0, stdout: "one\n" });
    expect(runCli(["call", "fallback"], env)).toMatchObject({ status: 0, stdout: "none\n" });
    expect(runCli(["call", "defaulted"], env)).toMatchObject({ status: 0, stdout: "d\n" });
    expect(runCli(["call", "needx", "x=1"], env).stdout).toBe("1\n");
    expect(calls()).toEqual({ needx: 1, needpath: 0, later_step: 0, skipped: 1, nocmd: 1, taken: 2, fallback: 1, defaulted: 1 });
  });

  it("a revision restarts revision_calls and keeps lifetime_calls", () => {
    const env = { PI_CODING_AGENT_DIR: agent };
    writeFileSync(join(agent, "recipes", "hello.json"), JSON.stringify({ template: "printf hello" }));
    expect(runCli(["call", "hello"], env).stdout).toBe("hello\n");
    const { body } = runCliJson(["inspect", "target=recipes", "view=summary", "verbose=true"], env);
    const active = body.details["active"] as { id: string; usage?: Record<string, unknown> }[];
    expect(active.find((a) => a.id === "hello")?.usage).toMatchObject({ lifetime_calls: 5, revision_calls: 1 });
  });

  it("the views follow a hand rename and an edit before the next launch; a new tool of the old name starts at zero", () => {
    const env = { PI_CODING_AGENT_DIR: agent };
    const usageOf = (id: string): Record<string, unknown> | undefined => {
      const { body } = runCliJson(["inspect", "target=recipes", "view=summary", "verbose=true"], env);
      return (body.details["active"] as { id: string; usage?: Record<string, unknown> }[]).find((a) => a.id === id)?.usage;
    };
    renameSync(join(agent, "recipes", "hello.json"), join(agent, "recipes", "greeting.json"));
    // renamed by hand, never launched under its new name: its launches are shown, no "unused" advice
    expect(usageOf("greeting")).toMatchObject({ lifetime_calls: 5, revision_calls: 1 });
    const doctor = runCliJson(["inspect", "target=recipes", "view=doctor"], env).body.text;
    expect(doctor).not.toContain("greeting");
    // a new recipe takes the old name: it is another tool, with no launches
    writeFileSync(join(agent, "recipes", "hello.json"), JSON.stringify({ template: "printf other" }));
    expect(usageOf("hello")).toMatchObject({ lifetime_calls: 0 });
    expect(usageOf("greeting")).toMatchObject({ lifetime_calls: 5 });
    // an edit is a new revision at once: its calls restart in the view, before any launch
    writeFileSync(join(agent, "recipes", "greeting.json"), JSON.stringify({ template: "printf greetings" }));
    expect(usageOf("greeting")).toMatchObject({ lifetime_calls: 5, revision_calls: 0 });
  });

  it("a journal recovery set aside is named by the views for as long as it is there", () => {
    const env = { PI_CODING_AGENT_DIR: agent };
    const journals = join(agent, "recipes", ".usage", "journal");
    mkdirSync(journals, { recursive: true });
    writeFileSync(join(journals, "0aaab-y.journal.json"), "garbage");
    // the first command that opens the store sets it aside, and says so once on its stderr
    expect(runCli(["call", "greeting"], env).stderr).toContain("was not applied and was kept as");
    const aside = join(journals, "0aaab-y.journal.json.quarantined");
    for (let i = 0; i < 2; i++) {
      const doctor = runCliJson(["inspect", "target=recipes", "view=doctor"], env).body.text;
      expect(doctor).toMatch(/^recipes doctor errors=0 warnings=1 /);
      expect(doctor).toContain(`Journal ${aside} was set aside by recovery: the plan it held was not carried out`);
      expect(doctor).toContain("then delete the journal");
    }
    rmSync(aside);
    expect(runCliJson(["inspect", "target=recipes", "view=doctor"], env).body.text).toMatch(/^recipes doctor errors=0 warnings=0 /);
  });

  it("an index the ledger had to rebuild is said by the view that found it", () => {
    const env = { PI_CODING_AGENT_DIR: agent };
    writeFileSync(join(agent, "recipes", ".usage", "index.json"), "{garbage");
    const doctor = runCliJson(["inspect", "target=recipes", "view=doctor"], env).body.text;
    expect(doctor).toMatch(/^recipes doctor errors=0 warnings=1 /);
    expect(doctor).toContain("was unreadable and was rebuilt from the ledgers; launches not yet folded are not counted.");
    // repaired: the next view has nothing to say
    expect(runCliJson(["inspect", "target=recipes", "view=doctor"], env).body.text).toMatch(/^recipes doctor errors=0 warnings=0 /);
  });

  it("a ledger that no longer reads (a hand edit gone wrong, a file cut short) is kept aside and named until it is dealt with, never overwritten", () => {
    const own = join(agent, "kept-aside");
    const env = { PI_CODING_AGENT_DIR: own };
    const recipes = join(own, "recipes");
    mkdirSync(recipes, { recursive: true });
    writeFileSync(join(recipes, "counted.json"), JSON.stringify({ description: "c", template: "printf c" }));
    writeFileSync(join(recipes, "cut.json"), JSON.stringify({ description: "t", template: "printf t" }));
    for (let i = 0; i < 3; i++) for (const tool of ["counted", "cut"]) expect(runCli(["call", tool], env).status).toBe(0);
    const lifetime = (): Record<string, unknown> => {
      const active = runCliJson(["inspect", "target=recipes", "view=summary", "verbose=true"], env).body.details["active"] as { id: string; usage?: { lifetime_calls: number } }[];
      return Object.fromEntries(active.map((a) => [a.id, a.usage?.lifetime_calls]));
    };
    expect(lifetime()).toEqual({ counted: 3, cut: 3 });
    const ledgers = join(recipes, ".usage", "recipes");
    const counted = readFileSync(join(ledgers, "counted.json"), "utf8");
    const cut = readFileSync(join(ledgers, "cut.json"), "utf8");
    // one typo: a count as text; and a file cut short
    writeFileSync(join(ledgers, "counted.json"), counted.replace('"lifetime_calls": 3', '"lifetime_calls": "3"'));
    writeFileSync(join(ledgers, "cut.json"), cut.slice(0, 40));
    for (const tool of ["counted", "cut"]) expect(runCli(["call", tool], env).status).toBe(0);
    // the launches are folded into the ledgers by the next view (or a later call)
    expect(lifetime()).toEqual({ counted: 1, cut: 1 });
    expect(readFileSync(join(ledgers, "counted.json.unreadable"), "utf8")).toBe(counted.replace('"lifetime_calls": 3', '"lifetime_calls": "3"'));
    expect(readFileSync(join(ledgers, "cut.json.unreadable"), "utf8")).toBe(cut.slice(0, 40));
    // the lineages start again, and every view names the files kept aside until they are gone
    for (let i = 0; i < 2; i++) {
      const doctor = runCliJson(["inspect", "target=recipes", "view=doctor"], env).body.text;
      expect(doctor).toMatch(/^recipes doctor errors=0 warnings=[2-9] /);
      for (const file of ["counted.json", "cut.json"]) expect(doctor).toContain(`Usage ledger ${join(ledgers, `${file}.unreadable`)} is kept aside: it did not read as a ledger`);
    }
    // a second mishap keeps both files
    writeFileSync(join(ledgers, "cut.json"), "{");
    expect(runCli(["call", "cut"], env).status).toBe(0);
    expect(lifetime()).toEqual({ counted: 1, cut: 1 });
    expect(readFileSync(join(ledgers, "cut.json.unreadable-2"), "utf8")).toBe("{");
    for (const file of ["counted.json.unreadable", "cut.json.unreadable", "cut.json.unreadable-2"]) rmSync(join(ledgers, file));
    expect(runCliJson(["inspect", "target=recipes", "view=doctor"], env).body.text).toMatch(/^recipes doctor errors=0 warnings=0 /);
  });

  it("a launch that could not be counted says so on stderr; the command's result is the command's", () => {
    const env = { PI_CODING_AGENT_DIR: agent };
    const launches = join(agent, "recipes", ".usage", "launches");
    rmSync(launches, { recursive: true, force: true });
    writeFileSync(launches, "a file where the launch logs go");
    const r = runCli(["call", "greeting"], env);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe("greetings\n");
    expect(r.stderr).toMatch(/^pi-recipes: note: Usage accounting failed for .*greeting\.json: .*The launch was not counted\.\n$/);
    rmSync(launches);
  });
});
