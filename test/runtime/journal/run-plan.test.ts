// The engine on real files (the crash properties run it on the simulated disk in props/).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as E from "fp-ts/lib/Either.js";
import { makeNodeFileSystem } from "../../../adapters/fs/node.js";
import { buildPlan, planErrorText, type PlanInput } from "../../../core/journal/plan.js";
import { encodeJournal } from "../../../core/journal/record.js";
import { PlanFailed, recoverJournals, runPlan, runSteps } from "../../../runtime/journal/index.js";

let dir: string;
const fs = makeNodeFileSystem();
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "journal-"));
  mkdirSync(join(dir, "r"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const at = (name: string): string => join(dir, "r", name);
const journals = (): string => join(dir, "j");

describe("runPlan on real files", () => {
  it("applies every kind of step and leaves no journal", async () => {
    writeFileSync(at("old"), "o");
    writeFileSync(at("gone"), "g");
    writeFileSync(at("src"), "s");
    const input: PlanInput = {
      id: "p1",
      kind: "test",
      phases: [
        [{ op: "mkdir", path: at("sub") }, { op: "write", path: at("old"), before: "o", content: "n" }, { op: "link", from: at("src"), to: at("alias"), before: "s" }],
        [{ op: "rename", from: at("gone"), to: at("sub/moved"), before: "g", replaced: null }],
      ],
    };
    await runSteps(fs, journals(), input);
    expect(readFileSync(at("old"), "utf8")).toBe("n");
    expect(readFileSync(at("alias"), "utf8")).toBe("s");
    expect(readFileSync(at("sub/moved"), "utf8")).toBe("g");
    expect(existsSync(at("gone"))).toBe(false);
    expect(readdirSync(journals())).toEqual([]);
  });

  it("rolls a reversible plan back when a step fails (a folder path that is a file), and says so", async () => {
    writeFileSync(at("a"), "A");
    const ok = buildPlan({
      id: "p3",
      kind: "test",
      phases: [[{ op: "write", path: at("a"), before: "A", content: "A2" }], [{ op: "write", path: join(dir, "r", "file-not-folder", "x"), before: null, content: "x" }]],
    });
    if (E.isLeft(ok)) throw new Error(planErrorText(ok.left));
    writeFileSync(at("file-not-folder"), "I am a file");
    const failed = await runPlan(fs, journals(), ok.right).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(PlanFailed);
    expect(failed).toMatchObject({ rolledBack: true, journalKept: false });
    expect((failed as Error).message).toMatch(/^Plan p3 \(test\) failed and was rolled back: /);
    expect(readFileSync(at("a"), "utf8")).toBe("A");
    expect(readdirSync(journals())).toEqual([]);
  });

  it("recovery finishes a journal left behind and reports it", async () => {
    const plan = buildPlan({ id: "p4", kind: "test", phases: [[{ op: "write", path: at("x"), before: null, content: "x" }]] });
    if (E.isLeft(plan)) throw new Error(planErrorText(plan.left));
    // a journal whose process died before its step: written by the engine's own encoder
    mkdirSync(journals());
    writeFileSync(join(journals(), "p4.journal.json"), encodeJournal({ plan: plan.right, direction: "forward" }));
    expect(await recoverJournals(fs, journals())).toEqual([{ id: "p4", kind: "test", outcome: "rolled-forward" }]);
    expect(readFileSync(at("x"), "utf8")).toBe("x");
    expect(await recoverJournals(fs, journals())).toEqual([]);
  });
});
