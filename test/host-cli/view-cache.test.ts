// The view cache (runtime/view-cache.ts) of `inspect target=recipes`, one rule at a time, on a real
// recipe root: the second of two identical commands prints the kept answer, and every kind of change
// the answer depends on (a recipe, a draft, a first launch, a pending launch, a folded one, the
// sandbox setting, a rewrite inside one timestamp tick) makes the next command compute it again,
// printing what the same command prints without any cache. props/view-cache.test.ts checks random
// sequences of such changes.
import { mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { execFileSync, spawnSync } from "node:child_process";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { cacheBox, type CacheBox } from "../support/compile-cache-box.js";
import { runCli } from "../support/cli.js";

const SUMMARY = { target: "recipes", view: "summary" };

let box: CacheBox;
beforeEach(() => {
  box = cacheBox();
  box.write("alpha.json", { description: "a", template: "echo a {x}" });
  box.write("beta.json", { description: "b", template: "echo b {y}" });
});
afterEach(() => box.cleanup());

/** inspects until the answer is kept: after a launch the first computations fold the launch log
 *  and then drop its watermark (writes: not kept), the next may only move the clock on */
async function keep(params: Readonly<Record<string, string>>, json: boolean, blindCtime = false): Promise<void> {
  for (let i = 0; i < 5; i++) if ((await box.inspected(params, json, blindCtime)).from === "kept") return;
  throw new Error("the answer was never kept");
}

/** the next inspect computes again, and prints what a cacheless inspect prints */
async function recomputed(params: Readonly<Record<string, string>>, json: boolean, blindCtime = false): Promise<string> {
  const viewed = await box.inspected(params, json, blindCtime);
  expect(viewed.from).not.toBe("kept");
  expect(viewed.output).toBe(await box.plainInspected(params, json));
  return viewed.output;
}

describe("inspect through the view cache", () => {
  test("the second identical command prints the kept answer, byte for byte the computed one", async () => {
    for (const json of [true, false]) {
      const first = await box.inspected(SUMMARY, json);
      expect(first.output).toBe(await box.plainInspected(SUMMARY, json));
      await keep(SUMMARY, json);
      const kept = await box.inspected(SUMMARY, json);
      expect(kept.from).toBe("kept");
      expect(kept.output).toBe(first.output);
    }
    // one file per output form
    expect(readdirSync(join(box.root, ".cache")).filter((n) => n.startsWith("view-")).sort()).toEqual(["view-json-summary.json", "view-text-summary.json"]);
  });

  test("an edited, added or removed recipe is computed again", async () => {
    await keep(SUMMARY, true);
    box.write("alpha.json", { description: "a changed", template: "echo a {x}" });
    expect(await recomputed(SUMMARY, true)).toContain("a changed");
    await keep(SUMMARY, true);
    box.write("gamma.json", { description: "g", template: "echo g" });
    expect(await recomputed(SUMMARY, true)).toContain("gamma");
  });

  test("a draft added or removed is computed again", async () => {
    await keep(SUMMARY, true);
    mkdirSync(join(box.root, "drafts"));
    writeFileSync(join(box.root, "drafts", "d.json"), JSON.stringify({ description: "a draft", template: "echo d" }));
    expect(await recomputed(SUMMARY, true)).toContain("a draft");
    await keep(SUMMARY, true);
    writeFileSync(join(box.root, "drafts", "e.json"), JSON.stringify({ description: "another draft", template: "echo e" }));
    expect(await recomputed(SUMMARY, true)).toContain("another draft");
    await keep(SUMMARY, true);
    rmSync(join(box.root, "drafts", "d.json"));
    expect(await recomputed(SUMMARY, true)).not.toContain("a draft");
  });

  test("the first launch (no usage folder before) is computed again", async () => {
    await keep(SUMMARY, false);
    expect(await box.launch("alpha", true)).toBe(true);
    expect(await recomputed(SUMMARY, false)).toContain("alpha calls=1");
  });

  test("a path that was nothing and now cannot be looked at (a symlink loop) is not taken for nothing", async () => {
    // the usage folder did not exist when the answer was kept; an error other than "not there"
    // (ELOOP here) says nothing of what is there now, so the kept answer must not be printed
    await keep(SUMMARY, true);
    const usage = join(box.root, ".usage");
    symlinkSync(".usage", usage);
    const viewed = await box.inspected(SUMMARY, true).catch((e: unknown) => ({ from: "failed" as const, output: String(e) }));
    expect(viewed.from).not.toBe("kept");
  });

  test("a launch still pending in a launch log is computed again, and that computation (which folds it) is not kept", async () => {
    await box.launch("alpha", true);
    await keep(SUMMARY, false);
    await box.launch("alpha", false);
    expect(readdirSync(join(box.root, ".usage", "launches")).length).toBeGreaterThan(0);
    const viewed = await box.inspected(SUMMARY, false);
    // it folded the log: a computation that wrote is never kept
    expect(viewed.from).toBe("result");
    expect(viewed.output).toContain("alpha calls=2");
    expect(viewed.output).toBe(await box.plainInspected(SUMMARY, false));
  });

  test("a launch folded into the ledgers since is computed again", async () => {
    await box.launch("alpha", true);
    await keep(SUMMARY, false);
    await box.launch("beta", true);
    expect(await recomputed(SUMMARY, false)).toContain("beta calls=1");
  });

  test("a ledger rewritten in place (same size) is computed again", async () => {
    await box.launch("alpha", true);
    await keep(SUMMARY, false);
    const ledger = join(box.root, ".usage", "recipes", "alpha.json");
    writeFileSync(ledger, readFileSync(ledger, "utf8").replace('"calls": 1,', '"calls": 7,'));
    expect(await recomputed(SUMMARY, false)).toContain("alpha calls=7");
  });

  test("a ledger rewritten inside one timestamp tick (same size, same times) is never taken for the kept one", async () => {
    await box.launch("alpha", true);
    await keep(SUMMARY, false);
    // ctimes blinded and one mtime forced on both versions: only the clock rule can tell them apart
    const fixed = new Date(Date.now() + 3_600_000);
    const ledger = join(box.root, ".usage", "recipes", "alpha.json");
    const rewrite = (from: string, to: string): void => {
      writeFileSync(ledger, readFileSync(ledger, "utf8").replace(`"calls": ${from},`, `"calls": ${to},`));
      utimesSync(ledger, fixed, fixed);
    };
    rewrite("1", "7");
    for (let i = 0; i < 3; i++) await box.inspected(SUMMARY, false, true);
    rewrite("7", "8");
    expect(await recomputed(SUMMARY, false, true)).toContain("alpha calls=8");
  });

  test("another sandbox setting, another view or another output form is another answer", async () => {
    box.write("confined.json", { description: "c", template: "echo c", sandbox: { network: false } });
    await keep(SUMMARY, true);
    const on = { PI_RECIPES_SANDBOX: "on" };
    const viewed = await box.inspected(SUMMARY, true, false, on);
    expect(viewed.from).not.toBe("kept");
    expect(viewed.output).toBe(await box.plainInspected(SUMMARY, true, on));
    expect(viewed.output).not.toBe(await box.plainInspected(SUMMARY, true));
    expect((await box.inspected({ target: "recipes", view: "doctor" }, true)).from).not.toBe("kept");
    expect((await box.inspected(SUMMARY, false)).from).not.toBe("kept");
  });

  test("a draft rewritten inside one timestamp tick (same size, same times) is never taken for the kept one", async () => {
    // ctimes blinded and one mtime forced on both versions: only the clock rule can tell them
    // apart (a draft as new as the clock is never kept)
    const fixed = new Date(Date.now() + 3_600_000);
    const draft = join(box.root, "drafts", "d.json");
    mkdirSync(join(box.root, "drafts"));
    const write = (word: string): void => {
      writeFileSync(draft, JSON.stringify({ description: "a draft", template: `echo ${word}` }));
      utimesSync(draft, fixed, fixed);
    };
    write("AAAA");
    for (let i = 0; i < 3; i++) await box.inspected(SUMMARY, true, true);
    write("BBBB");
    expect(await recomputed(SUMMARY, true, true)).toContain("BBBB");
  });

  test("a temp a killed writer left is removed by the next write; a live writer's is not", async () => {
    await keep(SUMMARY, true);
    const cache = join(box.root, ".cache");
    const gone = spawnSync(process.execPath, ["-e", "0"]).pid!;
    const dead = `.view-json-summary.json.${gone}-1.tmp`;
    const live = `.view-json-summary.json.${process.pid}-99.tmp`;
    writeFileSync(join(cache, dead), "half an answer");
    writeFileSync(join(cache, live), "being written");
    box.write("gamma.json", { description: "g", template: "echo g" });
    await recomputed(SUMMARY, true);
    const names = readdirSync(cache);
    expect(names).not.toContain(dead);
    expect(names).toContain(live);
  });

  test("a FIFO where the file belongs neither hangs the command nor is taken for an answer", async () => {
    await keep(SUMMARY, true);
    const file = join(box.root, ".cache", "view-json-summary.json");
    rmSync(file);
    execFileSync("mkfifo", [file]);
    await recomputed(SUMMARY, true);
  });

  test("a damaged file is no answer: the command computes and prints it", async () => {
    await keep(SUMMARY, true);
    const file = join(box.root, ".cache", "view-json-summary.json");
    for (const junk of ["", "not a view cache\n", "{}\n000000000000003\n", `${"x".repeat(40)}\n000000000000010\n`]) {
      writeFileSync(file, junk);
      await recomputed(SUMMARY, true);
    }
  });
});

describe("the view cache through the real command", () => {
  test("`inspect --json` and its text: the kept answer is printed exactly, a change shows at once, tables keep nothing", () => {
    const env = { PI_CODING_AGENT_DIR: join(box.root, ".."), PI_RECIPES_TABLES: "" };
    const args = ["inspect", "target=recipes", "view=summary"];
    const runs = [0, 1, 2, 3].map(() => runCli([...args, "--json"], env));
    for (const r of runs) {
      expect(r.status).toBe(0);
      expect(r.stdout).toBe(runs[0]!.stdout);
      expect(r.stderr).toBe("");
    }
    expect((JSON.parse(runs[0]!.stdout) as { details: { counts: { active: number } } }).details.counts.active).toBe(2);
    expect(readdirSync(join(box.root, ".cache"))).toContain("view-json-summary.json");
    // a recipe added between two commands is in the next answer
    box.write("gamma.json", { description: "g", template: "echo g" });
    const after = runCli([...args, "--json"], env);
    expect((JSON.parse(after.stdout) as { details: { counts: { active: number } } }).details.counts.active).toBe(3);
    const text = [0, 1, 2].map(() => runCli(args, env).stdout);
    expect(new Set(text).size).toBe(1);
    expect(text[0]).toContain("recipes active=3");
    // the tables of a terminal are drawn from the answer's details: no text answer is kept for them
    rmSync(join(box.root, ".cache", "view-text-summary.json"));
    expect(runCli(args, { ...env, PI_RECIPES_TABLES: "1" }).stdout).toContain("recipes active=3");
    expect(readdirSync(join(box.root, ".cache"))).not.toContain("view-text-summary.json");
  });
});
