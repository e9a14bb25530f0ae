// Drafts and automatic draft review through the real command: inline spawns become drafts, one
// review cycle (scripted reply, then a configured reviewer command) promotes and discards the
// twelve oldest, the promoted tools keep their lineage, and the newest draft waits.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliNodeArgs, runCli, runCliJson } from "../support/cli.js";

interface Projected {
  batchId: string;
  drafts: { draft: string; sha256: string; promotable: boolean; usage: { lifetime_calls: number } }[];
}

let agent: string;
beforeAll(() => {
  agent = mkdtempSync(join(tmpdir(), "pi-recipes-drafts-"));
  mkdirSync(join(agent, "recipes"));
  writeFileSync(join(agent, "recipes", "existing.json"), JSON.stringify({ description: "Existing", template: "printf existing" }));
});
afterAll(() => rmSync(agent, { recursive: true, force: true }));

/** A reviewer standing in for a model, written into `dir`: it promotes the first draft and
 *  discards the rest. Answers the PI_RECIPES_REVIEWER command line that runs it. */
function promotingReviewer(dir: string): string {
  const script = join(dir, "reviewer.mjs");
  writeFileSync(
    script,
    `let s="";process.stdin.on("data",d=>s+=d);process.stdin.on("end",()=>{const p=JSON.parse(s.slice(s.indexOf("\\n{\\n")+1));` +
      `const decisions=p.drafts.map((d,i)=>({draft:d.draft,sha256:d.sha256,action:i===0?"promote":"discard",rationale:"model says so",assessment:{launches:d.usage.lifetime_calls}}));` +
      `console.log("DRAFT_REVIEW_RESULT");console.log(JSON.stringify({batchId:p.batchId,decisions}));});`,
  );
  return `${JSON.stringify(process.execPath)} ${JSON.stringify(script)}`;
}

const draftsIn = (dir: string): string[] => readdirSync(dir).filter((n) => n.endsWith(".json")).sort();

describe("drafts and one review cycle through the CLI", () => {
  it("13 inline spawns, a scripted review, tools with their usage, one draft left", () => {
    const env = { PI_CODING_AGENT_DIR: agent, PI_RECIPES_REVIEWER: "" };
    const drafts = join(agent, "recipes", "drafts");
    for (let i = 1; i <= 13; i++) {
      const r = runCli(["spawn", `template=printf d${String(i).padStart(2, "0")}`], env);
      expect(r.status).toBe(0);
      expect(r.stdout).toMatch(/draft_recipe=.*recipes\/drafts\/spawn-\d+(-\d+)?\.json/);
    }
    expect(draftsIn(drafts)).toHaveLength(13);
    // a template that names a secret is run but not captured, and the result says why
    const secret = runCli(["spawn", "template=printf {api_token}", 'values={"api_token":"abc"}'], env);
    expect(secret.stdout).toContain("draft_recipe=none");
    expect(secret.stdout).toContain("touches secrets");
    expect(draftsIn(drafts)).toHaveLength(13);

    const first = draftsIn(drafts)[0]!;
    // launching a draft by file counts on its lineage
    expect(runCli(["spawn", `file=${join(drafts, first)}`], env).status).toBe(0);

    expect(runCli(["inspect", "target=recipes", "view=summary"], env).stdout).toContain("drafts=13");
    const summary = runCliJson(["inspect", "target=recipes", "view=summary", "verbose=true"], env).body;
    const listed = summary.details["drafts"] as { path: string; sha256?: string; valid: boolean; template_preview?: string; source_run?: string }[];
    expect(listed).toHaveLength(13);
    expect(listed[0]).toMatchObject({ valid: true });
    expect(listed.every((d) => d.template_preview?.startsWith("printf d") === true && typeof d.source_run === "string")).toBe(true);
    // drafts are never tools
    expect(runCli(["list"], env).stdout).not.toContain("spawn-");

    // no reviewer: the operator's review captures the batch and shows its projection
    const captured = runCliJson(["review"], env).body;
    expect(captured.details["phase"]).toBe("captured");
    const projection = JSON.parse(readFileSync(String(captured.details["projection"]), "utf8")) as Projected;
    expect(projection.drafts).toHaveLength(12);
    expect(JSON.stringify(projection)).not.toMatch(/printf|spawn-|recipes\//);
    expect(projection.drafts[0]!.usage.lifetime_calls).toBe(1);

    const decisions = projection.drafts.map((d, i) => ({
      draft: d.draft,
      sha256: d.sha256,
      action: i < 2 ? "promote" : "discard",
      rationale: i < 2 ? "useful" : "one-off",
      assessment: { launches: d.usage.lifetime_calls },
      ...(i === 0 ? { target: "Printer-Tool" } : {}),
    }));
    const replyFile = join(agent, "reply.txt");
    writeFileSync(replyFile, `thinking...\nDRAFT_REVIEW_RESULT\n${JSON.stringify({ batchId: projection.batchId, decisions })}\n`);
    const reviewed = runCliJson(["review", "--scripted", replyFile], env);
    expect(reviewed.body.text).toContain("phase=completed");
    expect(reviewed.status).toBe(0);

    const tools = runCli(["list"], env).stdout;
    expect(tools).toContain("Printer-Tool");
    const second = draftsIn(join(agent, "recipes")).filter((n) => n.startsWith("spawn-"));
    expect(second).toHaveLength(1);
    expect(draftsIn(drafts)).toHaveLength(1); // the 13th waits for the next batch
    expect(runCli(["call", "Printer-Tool"], env).stdout).toBe("d01\n");

    const after = runCliJson(["inspect", "target=recipes", "view=summary", "verbose=true"], env).body;
    const active = after.details["active"] as { id: string; usage?: Record<string, unknown> }[];
    // one launch as a draft, one as a tool: the lineage came along
    expect(active.find((a) => a.id === "Printer-Tool")?.usage).toMatchObject({ lifetime_calls: 2 });

    const reviews = runCliJson(["inspect", "target=recipes", "view=reviews"], env).body;
    expect(reviews.text).toContain("automatic_reviews draft=completed");
    expect(reviews.text).not.toContain("lineages=0");
    expect(reviews.details["draft_review"]).toMatchObject({ phase: "completed", sources: 12, evidence: { actions: { promoted: 2, discarded: 10 } } });
  });

  it("a batch whose review failed three times reads no new reply and says so, with the retry that unblocks it", () => {
    const own = mkdtempSync(join(tmpdir(), "pi-recipes-drafts-parked-"));
    try {
      const env = { PI_CODING_AGENT_DIR: own, PI_RECIPES_REVIEWER: "" };
      const drafts = join(own, "recipes", "drafts");
      mkdirSync(drafts, { recursive: true });
      for (let i = 1; i <= 12; i++) writeFileSync(join(drafts, `d${String(i).padStart(2, "0")}.json`), JSON.stringify({ description: `Draft ${i}`, template: `echo d${i}` }));
      const garbage = join(own, "garbage.txt");
      writeFileSync(garbage, "junk\n");
      const failures = [1, 2, 3].map(() => runCli(["review", "--scripted", garbage], env));
      expect(failures.map((r) => r.status)).toEqual([1, 1, 1]);
      const retry = `retry: pi-recipes message to=tool:pi-actors type=review.retry body='{"scope":"draft"}'`;
      // the first two failures may be answered again as they were; the third parks the batch
      expect(failures[1]!.stderr).not.toContain("retry:");
      expect(failures[2]!.stderr).toContain(`${retry} (the batch failed 3 times: it is not reviewed again until then)`);

      const projection = JSON.parse(readFileSync(String(runCliJson(["review"], env).body.details["projection"]), "utf8")) as Projected;
      // a path a shell would split or run part of: the retry hint must quote it
      const valid = join(own, "it's a file;$(x).txt");
      const decisions = projection.drafts.map((d) => ({ draft: d.draft, sha256: d.sha256, action: "discard", rationale: "one-off", assessment: { launches: d.usage.lifetime_calls } }));
      writeFileSync(valid, `DRAFT_REVIEW_RESULT\n${JSON.stringify({ batchId: projection.batchId, decisions })}\n`);
      const ignored = runCli(["review", "--scripted", valid], env);
      expect(ignored.status).toBe(1);
      expect(ignored.stderr).toContain("phase=failed steps=nothing to do");
      expect(ignored.stderr).toContain(`not read: ${valid} (the review of this batch failed 3 times, and no reply is read until a retry)`);
      const quoted = `'${own}/it'\\''s a file;$(x).txt'`;
      expect(ignored.stderr).toContain(`${retry}, then pi-recipes review --scripted ${quoted}\n`);
      // pasted into a POSIX shell, the word is the path itself, and nothing in it runs
      const then = /then pi-recipes review --scripted (.*)$/m.exec(ignored.stderr)?.[1] ?? "";
      expect(spawnSync("sh", ["-c", `printf %s ${then}`], { encoding: "utf8" }).stdout).toBe(valid);
      expect(draftsIn(drafts)).toHaveLength(12);
      // the command it gives, then the same review, carries the reply out
      expect(runCli(["message", "to=tool:pi-actors", "type=review.retry", 'body={"scope":"draft"}'], env).status).toBe(0);
      const done = runCli(["review", "--scripted", valid], env);
      expect(done.stdout).toContain("phase=completed");
      expect(draftsIn(drafts)).toHaveLength(0);
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
  }, 120_000);

  it("a reply file named like a JSON value (123, true, null, 1e3) is read as the file, and so is the retry's file when parked", () => {
    const own = mkdtempSync(join(tmpdir(), "pi-recipes-drafts-json-names-"));
    try {
      const env = { PI_CODING_AGENT_DIR: join(own, "agent"), PI_RECIPES_REVIEWER: "" };
      const drafts = join(own, "agent", "recipes", "drafts");
      mkdirSync(drafts, { recursive: true });
      for (let i = 1; i <= 12; i++) writeFileSync(join(drafts, `d${String(i).padStart(2, "0")}.json`), JSON.stringify({ description: `Draft ${i}`, template: `echo d${i}` }));
      for (const name of ["true", "null", "1e3"]) {
        const r = runCli(["review", "--scripted", name], env, own);
        expect(r, name).toMatchObject({ status: 1, stdout: "" });
        expect(r.stderr, name).toBe(`review could not read the scripted reply ${name}: ENOENT: no such file or directory, open '${name}'\n`);
      }
      // a FIFO is refused at once, not waited on for a writer
      execFileSync("mkfifo", [join(own, "fifo")]);
      const fifo = runCli(["review", "--scripted", "fifo"], env, own);
      expect(fifo).toMatchObject({ status: 1, stdout: "" });
      expect(fifo.stderr).toMatch(/^review could not read the scripted reply fifo: EINVAL: .*not a regular file \(a FIFO, socket or device\)/);
      writeFileSync(join(own, "123"), "junk\n");
      const failures = [1, 2, 3].map(() => runCli(["review", "--scripted", "123"], env, own));
      for (const f of failures) expect(f.stderr).toContain("Draft reviewer output marker is missing");
      const parked = runCli(["review", "--scripted", "123"], env, own);
      expect(parked.stderr).toContain("not read: 123 (the review of this batch failed 3 times");
      const then = /then pi-recipes (review --scripted .*)$/m.exec(parked.stderr)?.[1] ?? "";
      expect(then).toBe("review --scripted 123");
      expect(runCli(["message", "to=tool:pi-actors", "type=review.retry", 'body={"scope":"draft"}'], env, own).status).toBe(0);
      // the printed command, as a shell splits it, reads the file again
      const words = spawnSync("sh", ["-c", `printf '%s\\n' ${then}`], { encoding: "utf8" }).stdout.split("\n").slice(0, -1);
      const again = runCli(words, env, own);
      expect(again.stderr).not.toContain("not read:");
      expect(again.stderr).toContain("Draft reviewer output marker is missing");
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
  }, 120_000);

  it("one cycle through a configured reviewer command", () => {
    const dir = mkdtempSync(join(tmpdir(), "pi-recipes-reviewer-"));
    try {
      mkdirSync(join(dir, "recipes", "drafts"), { recursive: true });
      for (let i = 0; i < 11; i++)
        writeFileSync(join(dir, "recipes", "drafts", `Draft ${String(i).padStart(2, "0")}.json`), JSON.stringify({ template: `printf r${i}` }));
      const env = { PI_CODING_AGENT_DIR: dir, PI_RECIPES_REVIEWER: promotingReviewer(dir) };
      const status = runCliJson(["inspect", "target=tool:pi-actors", "view=status"], env).body;
      expect(status.text).toContain("reviewer=command:");
      // the twelfth draft comes from an inline spawn; once the command's work is done, the
      // configured reviewer runs one cycle
      expect(runCli(["spawn", "template=printf twelfth"], env).stdout).toContain("draft_recipe=");
      const reviews = runCliJson(["inspect", "target=recipes", "view=reviews"], env).body;
      expect(reviews.details["draft_review"]).toMatchObject({ phase: "completed", evidence: { actions: { promoted: 1, discarded: 11 } } });
      // nothing is left to review
      expect(runCliJson(["review"], env).body.text).toContain("phase=completed steps=nothing to do");
      // "Draft 00" has a space: its tool name is made valid
      expect(readdirSync(join(dir, "recipes")).filter((n) => n.endsWith(".json"))).toEqual(["Draft_00.json"]);
      expect(runCli(["call", "Draft_00"], env).stdout).toBe("r0\n");
      expect(draftsIn(join(dir, "recipes", "drafts"))).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a drafts folder that is a symlink is not written through: the review fails naming it, and the drafts stay", () => {
    const dir = mkdtempSync(join(tmpdir(), "pi-recipes-linked-drafts-"));
    try {
      const elsewhere = join(dir, "elsewhere");
      mkdirSync(elsewhere);
      mkdirSync(join(dir, "recipes"));
      symlinkSync(elsewhere, join(dir, "recipes", "drafts"));
      for (let i = 0; i < 12; i++) writeFileSync(join(elsewhere, `d${String(i).padStart(2, "0")}.json`), JSON.stringify({ template: `printf r${i}` }));
      const env = { PI_CODING_AGENT_DIR: dir, PI_RECIPES_REVIEWER: promotingReviewer(dir) };
      const r = runCli(["review"], env);
      expect(r.status).toBe(1);
      expect(r.stdout + r.stderr).toContain(`Invalid draft review transaction root: ${join(dir, "recipes", "drafts")} is a symlink below the recipe root ${join(dir, "recipes")}`);
      expect(readdirSync(elsewhere).filter((n) => n.endsWith(".json"))).toHaveLength(12);
      expect(readdirSync(join(dir, "recipes")).filter((n) => n.endsWith(".json"))).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a second review while one runs is refused as busy, never an internal error; spawn does not wait for it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pi-recipes-busy-"));
    try {
      mkdirSync(join(dir, "recipes", "drafts"), { recursive: true });
      for (let i = 0; i < 12; i++) writeFileSync(join(dir, "recipes", "drafts", `d${i}.json`), JSON.stringify({ template: `printf r${i}` }));
      const started = join(dir, "reviewer-started");
      // a reviewer that takes its time, then answers nothing usable
      const script = join(dir, "slow.cjs");
      writeFileSync(script, `require("node:fs").writeFileSync(${JSON.stringify(started)}, "x"); setTimeout(() => process.exit(1), 20000);`);
      const env = { PI_CODING_AGENT_DIR: dir, PI_RECIPES_REVIEWER: `${JSON.stringify(process.execPath)} ${JSON.stringify(script)}` };
      const first = spawn(process.execPath, [...cliNodeArgs(), "review"], { env: { ...process.env, ...env }, stdio: "ignore" });
      const firstDone = new Promise<void>((r) => first.on("exit", () => r()));
      try {
        for (let i = 0; i < 400 && !existsSync(started); i++) await new Promise((r) => setTimeout(r, 50));
        expect(existsSync(started)).toBe(true);
        const second = runCli(["review"], env);
        expect(second.status).toBe(1);
        expect(second.stderr).toMatch(/^draft review: another process is reviewing or activating now \(.+\); nothing was done\. Try again when it ends\.\n$/);
        const activation = runCli(["activate"], env);
        expect(activation.stderr).not.toContain("internal error");
        // the idle review after a command does not wait out the lock: the spawn answers as usual
        const spawned = runCli(["spawn", "template=printf during"], env);
        expect(spawned).toMatchObject({ status: 0, stdout: expect.stringContaining("during") });
        expect(spawned.stderr).not.toContain("internal error");
      } finally {
        first.kill("SIGKILL");
        await firstDone;
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("register_tool draft= promotes with the draft's own fields and takes its lineage; a hand move reattaches", () => {
    const dir = mkdtempSync(join(tmpdir(), "pi-recipes-promote-"));
    try {
      const env = { PI_CODING_AGENT_DIR: dir, PI_RECIPES_REVIEWER: "" };
      mkdirSync(join(dir, "recipes"));
      const spawned = (t: string): string => /draft_recipe=(\S+)/.exec(runCli(["spawn", `template=${t}`], env).stdout)![1]!;
      const one = spawned("printf one");
      const two = spawned("printf two");
      expect(runCli(["spawn", `file=${one}`], env).status).toBe(0);
      expect(runCli(["spawn", `file=${two}`], env).status).toBe(0);
      const promoted = runCliJson(["register_tool", "name=one_tool", `draft=${one}`], env).body;
      expect(promoted.ok).toBe(true);
      expect(promoted.details).toMatchObject({ promoted: true, lineage: "moved" });
      expect(readdirSync(join(dir, "recipes", "drafts"))).toContain(one.slice(one.lastIndexOf("/") + 1)); // the draft stays
      expect(runCliJson(["register_tool", "name=one_tool", `draft=${one}`], env).body.text).toContain("already registered");
      expect(runCli(["call", "one_tool"], env).stdout).toBe("one\n");
      // a deliberate move into the root: the next launch follows the lineage by content
      writeFileSync(join(dir, "recipes", "moved_two.json"), readFileSync(two));
      rmSync(two);
      expect(runCli(["call", "moved_two"], env).stdout).toBe("two\n");
      const active = runCliJson(["inspect", "target=recipes", "view=summary", "verbose=true"], env).body.details["active"] as { id: string; usage?: Record<string, unknown> }[];
      expect(active.find((a) => a.id === "one_tool")?.usage).toMatchObject({ lifetime_calls: 2 });
      expect(active.find((a) => a.id === "moved_two")?.usage).toMatchObject({ lifetime_calls: 2 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
