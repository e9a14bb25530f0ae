// The journal engine under the crash harness: random plans (every kind of step, one to three
// phases, reversible or not), a power failure at every mutation of runPlan, then at every
// mutation of recovery, recovery run twice, torn writes chosen by the seed. Afterwards every
// path is exactly its before or its after content for the whole plan, no journal is left, and
// the next plan runs.
import { describe, expect, it } from "vitest";
import { fc, test } from "@fast-check/vitest";
import * as E from "fp-ts/lib/Either.js";
import type { FileSystem } from "../adapters/fs/FileSystem.js";
import { buildPlan, planErrorText } from "../core/journal/plan.js";
import { PlanFailed, recoverJournals, runPlan } from "../runtime/journal/index.js";
import type { MemFileSystem } from "../adapters/fs/memfs.js";
import { EVERY_STEP, JOURNALS, engineViolations, scenarioArb, volumeOf } from "./support/journal-scenarios.js";
import { exploreCrashes } from "./support/crash-fs.js";
import { numRuns } from "./support/runs.js";
import { interceptFs } from "../test/support/intercept-fs.js";

describe("the journal engine under power failures", () => {
  it("a plan with every kind of step: worst-case loss, nested recovery crashes", async () => {
    expect(await engineViolations(EVERY_STEP)).toEqual([]);
  });

  test.prop([scenarioArb, fc.option(fc.integer({ min: 0, max: 2 ** 30 }), { nil: undefined })], { numRuns: 20 })(
    "random plans: all-before or all-after, durable once acknowledged, no journal left, the next plan runs",
    async (scenario, seed) => {
      expect(await engineViolations(scenario, seed === undefined ? {} : { seed })).toEqual([]);
    },
  );
});

/** A port whose `n`-th mutation fails with an I/O error (not a crash: the process lives on). */
function failingAt(fs: FileSystem, n: number): FileSystem {
  let count = 0;
  const hit = (): void => {
    if (count++ === n) throw Object.assign(new Error("EIO: injected"), { code: "EIO" });
  };
  const guard =
    <A extends unknown[], R>(f: (...a: A) => Promise<R>) =>
    async (...a: A): Promise<R> => {
      hit();
      return f(...a);
    };
  return { ...fs, writeFile: guard(fs.writeFile), rename: guard(fs.rename), unlink: guard(fs.unlink), link: guard(fs.link), mkdir: guard(fs.mkdir), fsyncDir: guard(fs.fsyncDir) };
}

describe("an I/O error while a plan runs", () => {
  test.prop([scenarioArb, fc.nat(40)], { numRuns: numRuns(60) })("rolls a reversible plan back, and leaves a one-way plan for recovery to finish", async (s, n) => {
    const fs = volumeOf(s.initial);
    const outcome = await runPlan(failingAt(fs, n), JOURNALS, s.plan).then(
      () => "done" as const,
      (e: unknown) => e,
    );
    const image = (): Record<string, string | undefined> =>
      Object.fromEntries(Object.keys(s.after).map((p) => [p, fs.vol.existsSync(p) ? (fs.vol.statSync(p).isDirectory() ? "<dir>" : (fs.vol.readFileSync(p, "utf8") as string)) : undefined]));
    if (outcome === "done") {
      expect(image()).toEqual(s.after);
      return;
    }
    expect(outcome).toBeInstanceOf(PlanFailed);
    const failed = outcome as PlanFailed;
    if (failed.rolledBack) expect(image(), failed.message).toEqual(s.initial);
    else {
      expect(failed.journalKept, failed.message).toBe(true);
      const recovered = await recoverJournals(fs, JOURNALS);
      expect(recovered.map((r) => r.outcome), failed.message).toEqual([expect.stringMatching(/^rolled-(forward|back)$/)]);
      // a plan that had turned back stays turned back
      expect(image(), failed.message).toEqual(recovered[0]?.outcome === "rolled-back" ? s.initial : s.after);
    }
    const left = fs.vol.existsSync(JOURNALS) ? (fs.vol.readdirSync(JOURNALS) as string[]).filter((f) => !f.startsWith(".")) : [];
    expect(left).toEqual([]);
  });
});

/** a port whose process dies at the first rename outside the journal folder: after the journal
 *  is durable, before the first step lands */
function diesAfterTheJournal(fs: FileSystem): FileSystem {
  let dead = false;
  return interceptFs(fs, async (name, args, call) => {
    if (name === "rename" && !String(args[1]).startsWith(`${JOURNALS}/`)) dead = true;
    if (dead) throw new Error("the process died");
    return call();
  });
}

describe("recovery keeps an untrusted journal aside", () => {
  const plan = buildPlan({ id: "t1", kind: "test", phases: [[{ op: "write", path: "/v/a/1", before: null, content: "new" }]] });

  it("a journal whose bytes were edited is quarantined, reported, and nothing is applied", async () => {
    if (E.isLeft(plan)) throw new Error(planErrorText(plan.left));
    const fs = volumeOf({});
    // a journal written, then the process died before the step
    const crashing = diesAfterTheJournal(fs);
    await runPlan(crashing, JOURNALS, plan.right).catch(() => undefined);
    const file = `${JOURNALS}/t1.journal.json`;
    fs.vol.writeFileSync(file, (fs.vol.readFileSync(file, "utf8") as string).replace('"new"', '"evil"'));
    const [outcome] = await recoverJournals(fs, JOURNALS);
    expect(outcome).toMatchObject({ id: "t1", outcome: "quarantined", quarantinedAs: `${file}.quarantined` });
    expect(outcome?.outcome === "quarantined" && outcome.reason).toMatch(/hash does not match/);
    expect(fs.vol.existsSync("/v/a/1")).toBe(false);
    expect(fs.vol.readdirSync(JOURNALS)).toEqual(["t1.journal.json.quarantined"]);
    // a second recovery leaves it there and applies nothing
    expect(await recoverJournals(fs, JOURNALS)).toEqual([]);
  });

  it("a file changed by someone else after the crash is never overwritten: the journal is kept aside", async () => {
    if (E.isLeft(plan)) throw new Error(planErrorText(plan.left));
    const fs = volumeOf({});
    const crashing = diesAfterTheJournal(fs);
    await runPlan(crashing, JOURNALS, plan.right).catch(() => undefined);
    fs.vol.writeFileSync("/v/a/1", "someone else's");
    const [outcome] = await recoverJournals(fs, JOURNALS);
    expect(outcome).toMatchObject({ outcome: "quarantined" });
    expect(outcome?.outcome === "quarantined" && outcome.reason).toMatch(/changed outside the journal/);
    expect(fs.vol.readFileSync("/v/a/1", "utf8")).toBe("someone else's");
  });

  it("runPlan refuses a plan whose files changed since it was made, and writes nothing", async () => {
    if (E.isLeft(plan)) throw new Error(planErrorText(plan.left));
    const fs = volumeOf({ "/v/a/1": "already here" });
    await expect(runPlan(fs, JOURNALS, plan.right)).rejects.toThrow(/changed since the plan t1/);
    expect(fs.vol.existsSync(JOURNALS)).toBe(false);
  });
});

describe("the journal only moves forward", () => {
  // an I/O error turns a reversible plan back; a power failure at any mutation after that, and
  // in the recovery that follows, never turns it forward again: once the journal on disk says
  // back, the end state is all-before
  test.prop([scenarioArb.filter((s) => s.plan.reversible), fc.nat(30), fc.option(fc.integer({ min: 0, max: 2 ** 30 }), { nil: undefined })], { numRuns: 10 })(
    "after turning back, every crash ends all-before; before it, all-before or all-after",
    async (s, n, seed) => {
      let sawBack = false;
      let failed: PlanFailed | undefined;
      const image = (fs: MemFileSystem): Record<string, string | undefined> =>
        Object.fromEntries(Object.keys(s.after).map((p) => [p, fs.vol.existsSync(p) ? (fs.vol.statSync(p).isDirectory() ? "<dir>" : (fs.vol.readFileSync(p, "utf8") as string)) : undefined]));
      await exploreCrashes({
        setup: () => {
          sawBack = false;
          failed = undefined;
          return volumeOf(s.initial);
        },
        run: async (fs) => {
          try {
            await runPlan(failingAt(fs, n), JOURNALS, s.plan);
          } catch (e) {
            // an injected I/O error is an answer; a crash (even wrapped) is not
            if (!(e instanceof PlanFailed) || !(e.cause instanceof Error) || !e.cause.message.startsWith("EIO")) throw e;
            failed = e;
          }
        },
        recover: async (fs) => {
          const file = `${JOURNALS}/p1.journal.json`;
          const text = await fs.readFile(file).then((b) => new TextDecoder().decode(b), () => undefined);
          if (text !== undefined && text.includes('"direction": "back"')) sawBack = true;
          await recoverJournals(fs, JOURNALS);
        },
        ...(seed === undefined ? {} : { seed }),
        check: (view, k, trace) => {
          const now = image(view);
          const where = `crash at ${k}\n${trace.join("\n")}`;
          if (sawBack || failed?.rolledBack === true) expect(now, where).toEqual(s.initial);
          else expect([s.initial, s.after], where).toContainEqual(now);
        },
      });
    },
  );
});
