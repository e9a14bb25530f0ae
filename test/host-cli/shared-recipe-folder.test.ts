// A recipe folder shared by a group (mode 2775): every member counts their launches, saves drafts
// and registers tools, whoever came first. What the runtime creates in the folder takes its
// permissions from the folder, not from the umask of the member who created it. The real
// command, run as two users of one group (test/support/as-owner.ts).
import { chmodSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { groupTestsRun, sharedAgentDirs } from "../support/as-owner.js";

const runs = groupTestsRun("a shared recipe folder");

/** every folder and file under `dir` */
function walk(dir: string): { path: string; mode: number; dir: boolean }[] {
  const out: { path: string; mode: number; dir: boolean }[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const st = statSync(path);
    out.push({ path, mode: st.mode & 0o7777, dir: st.isDirectory() });
    if (st.isDirectory()) out.push(...walk(path));
  }
  return out;
}

const lifetimeCalls = (summary: { stdout: string }, tool: string): unknown =>
  (JSON.parse(summary.stdout) as { details: { active: { id: string; usage?: { lifetime_calls?: number } }[] } }).details.active.find((a) => a.id === tool)?.usage?.lifetime_calls;

describe.skipIf(!runs)("a recipe folder shared by a group, its members with umask 022", () => {
  const dirs = sharedAgentDirs("cli-shared-root-");
  afterAll(() => dirs.removeAll());

  it("counts the launches of every member, saves their drafts, and leaves everything it made writable by the group", () => {
    const d = dirs.fresh();
    writeFileSync(join(d.recipes, "e.json"), JSON.stringify({ description: "e", template: "echo hello" }));
    d.ownAll();
    expect(d.run(0, ["call", "e"])).toEqual({ status: 0, stdout: "hello\n", stderr: "" });
    // the second member, after the first made the usage folder, its fence and its launch log
    expect(d.run(1, ["call", "e"])).toEqual({ status: 0, stdout: "hello\n", stderr: "" });
    const spawned = d.run(1, ["spawn", "template=echo sp"]);
    expect(spawned.status).toBe(0);
    expect(spawned.stdout).toMatch(/^sp\ndraft_recipe=\S+\n$/);
    expect(spawned.stderr).toBe("");
    // and the first again, over what the second made (the ledgers, the index, the journal folder)
    expect(d.run(0, ["call", "e"])).toEqual({ status: 0, stdout: "hello\n", stderr: "" });
    for (const who of [0, 1] as const) {
      const summary = d.run(who, ["inspect", "target=recipes", "view=summary", "verbose=true", "--json"]);
      expect(summary.status).toBe(0);
      expect(JSON.parse(summary.stdout).details.usage_unreadable).toBeUndefined();
      expect(lifetimeCalls(summary, "e")).toBe(3);
    }
    const made = walk(d.recipes).filter((m) => !m.path.endsWith("e.json"));
    expect(made.map((m) => m.path)).toEqual(expect.arrayContaining([join(d.recipes, ".usage"), join(d.recipes, "drafts"), join(d.recipes, ".locks"), join(d.recipes, ".cache")]));
    for (const m of made) {
      // a cache file stays its writer's alone (each member puts their own in place)
      if (m.path.includes("/.cache/") && !m.dir) continue;
      if (m.dir) expect([m.path, m.mode.toString(8)]).toEqual([m.path, "2775"]);
      // lock records are readable by all, and replaced rather than written by another user
      else if (m.path.includes("/.locks/")) expect([m.path, m.mode & 0o444]).toEqual([m.path, 0o444]);
      else expect([m.path, m.mode.toString(8)]).toEqual([m.path, "664"]);
    }
  }, 120_000);

  it("a usage folder one member narrowed: the other's launch is said not counted, and the reviews view says the ledgers could not be read instead of showing none", () => {
    const d = dirs.fresh();
    writeFileSync(join(d.recipes, "e.json"), JSON.stringify({ description: "e", template: "echo hello" }));
    d.ownAll();
    expect(d.run(0, ["call", "e"])).toEqual({ status: 0, stdout: "hello\n", stderr: "" });
    // the first member takes the group's write away, on purpose (the launch is still in its log)
    const narrow = (p: string): void => {
      chmodSync(p, statSync(p).mode & ~0o020 & 0o7777);
      if (statSync(p).isDirectory()) for (const n of readdirSync(p)) narrow(join(p, n));
    };
    narrow(join(d.recipes, ".usage"));
    const call = d.run(1, ["call", "e"]);
    expect(call.stdout).toBe("hello\n");
    expect(call.stderr).toMatch(/Usage accounting failed for .*e\.json: EACCES.*The launch was not counted\./);
    const reviews = d.run(1, ["inspect", "target=recipes", "view=reviews"]);
    expect(reviews.status).toBe(0);
    expect(reviews.stdout).toMatch(/^automatic_reviews draft=idle tool=idle\nlineages=unknown revision_snapshots=unknown\nwarning: Usage ledgers could not be read: .*EACCES: permission denied.*; usage is not shown/);
    const json = JSON.parse(d.run(1, ["inspect", "target=recipes", "view=reviews", "--json"]).stdout);
    expect(json.details.usage_unreadable).toMatch(/^Usage ledgers could not be read: .*EACCES/);
    // not counts of none: unknown, as the text says
    expect([json.details.lineage_count, json.details.revision_snapshots]).toEqual([null, null]);
    // the member who may write it folds and sees the launch
    expect(d.run(0, ["inspect", "target=recipes", "view=reviews"]).stdout).toMatch(/^automatic_reviews draft=idle tool=idle\nlineages=1 revision_snapshots=0\n?$/);

  }, 120_000);

  for (const sticky of [0o1777, 0o3775]) {
    it(`in a sticky folder (${sticky.toString(8)}) a member's recipe stays theirs, and every member's launches, drafts and deletes still work`, () => {
      const d = dirs.fresh();
      writeFileSync(join(d.recipes, "e.json"), JSON.stringify({ description: "e", template: "echo hello" }));
      d.ownAll();
      chmodSync(d.recipes, sticky);
      expect(d.run(0, ["register_tool", "name=mine", "description=mine", "template=echo safe"]).status).toBe(0);
      expect(statSync(join(d.recipes, "mine.json")).mode & 0o022).toBe(0);
      // the other member may neither rewrite it in place nor replace it
      expect(d.run(1, ["register_tool", "name=mine", "template=echo changed"]).status).not.toBe(0);
      expect(d.run(0, ["call", "mine"]).stdout).toBe("safe\n");
      // the shared state is the group's: the second member's launch is counted, their draft saved,
      // their own tool deleted
      for (const who of [0, 1] as const) expect(d.run(who, ["call", "e"])).toEqual({ status: 0, stdout: "hello\n", stderr: "" });
      expect(d.run(1, ["spawn", "template=echo sp"]).stdout).toMatch(/^sp\ndraft_recipe=\S+\n$/);
      expect(d.run(0, ["spawn", "template=echo sp0"]).stdout).toMatch(/^sp0\ndraft_recipe=\S+\n$/);
      expect(d.run(1, ["register_tool", "name=theirs", "description=t", "template=echo t"]).status).toBe(0);
      expect(d.run(1, ["register_tool", "name=theirs", "template=null"]).status).toBe(0);
      expect(lifetimeCalls(d.run(1, ["inspect", "target=recipes", "view=summary", "verbose=true", "--json"]), "e")).toBe(2);
      // (the lock folder keeps its folder's bits, sticky included: every user takes locks there)
      for (const m of walk(d.recipes)) if (!/\/\.locks(\/|$)/.test(m.path)) expect([m.path, m.mode & 0o1002]).toEqual([m.path, 0]);
    }, 120_000);
  }

  it("a lineage folder another member may not read, with nothing left to fold: the reviews view says unknown, not none", () => {
    const d = dirs.fresh();
    writeFileSync(join(d.recipes, "e.json"), JSON.stringify({ description: "e", template: "echo hello" }));
    d.ownAll();
    expect(d.run(0, ["call", "e"]).status).toBe(0);
    // the first member folds the launch into its lineage, then closes the lineage folder
    expect(d.run(0, ["inspect", "target=recipes", "view=reviews"]).stdout).toMatch(/\nlineages=1 /);
    chmodSync(join(d.recipes, ".usage", "recipes"), 0o700);
    const hidden = JSON.parse(d.run(1, ["inspect", "target=recipes", "view=reviews", "--json"]).stdout);
    expect([hidden.details.lineage_count, hidden.details.revision_snapshots]).toEqual([null, null]);
    expect(hidden.details.usage_unreadable).toMatch(/^Usage ledgers could not be read: .*recipes: EACCES/);
    expect(d.run(1, ["inspect", "target=recipes", "view=reviews"]).stdout).toMatch(/\nlineages=unknown revision_snapshots=unknown\nwarning: Usage ledgers could not be read: /);
  }, 120_000);
});
