// Name normalization, hand-authored names, and the containment guarantee.
import { describe, expect, it } from "vitest";
import { fc, test } from "@fast-check/vitest";
import {
  isExactRecipeName, mangledNameProblem, nameCandidates, normalizeToolName, suggestToolName, toolNameProblem,
} from "../../../core/register/name.js";
import { planLocks } from "../../../core/register/plan-register.js";
import { ROOT, world } from "./world.js";

describe("normalizeToolName", () => {
  it("follows", () => {
    expect(normalizeToolName("Transcribe")).toBe("transcribe");
    expect(normalizeToolName("Short Hand")).toBe("short_hand");
    expect(normalizeToolName("docs-review")).toBe("docs_review");
    expect(normalizeToolName("9lives")).toBe("tool_9lives");
    expect(normalizeToolName("../../etc/passwd")).toBe("etc_passwd");
    expect(normalizeToolName("---")).toBeUndefined();
    expect(normalizeToolName("   ")).toBeUndefined();
    expect(normalizeToolName("BASH")).toBe("bash");
    expect(normalizeToolName("a\u0000b\nc")).toBe("a_b_c");
    expect(normalizeToolName(`${"a".repeat(63)}_b`)).toBe("a".repeat(63));
    expect(normalizeToolName("9".repeat(80))).toBe(`tool_${"9".repeat(59)}`);
  });

  test.prop([fc.string({ unit: "binary", maxLength: 100 })])("is [a-z0-9_], at most 64, never a path", (s) => {
    const n = normalizeToolName(s);
    if (n !== undefined) {
      expect(n).toMatch(/^[a-z][a-z0-9_]{0,63}$/);
      expect(n.endsWith("_")).toBe(false);
    }
  });
});

describe("exact names", () => {
  it("rejects separators, `..`, control characters and dot-files", () => {
    for (const bad of ["a/b", "a\\b", "..", "../x", "x..y", ".hidden", "a\u0000b", "a\nb", "a\u007fb", ""]) expect(isExactRecipeName(bad)).toBe(false);
    for (const good of ["docs-review", "My Tool", "Read", "v1.2"]) expect(isExactRecipeName(good)).toBe(true);
  });

  it("an existing hand-authored recipe is updated and deleted under its own name", () => {
    const w = world({ [`${ROOT}/docs-review.json`]: { description: "Hand", template: "echo {x}" } });
    expect(w.run({ name: "docs-review", description: "Edited", update: true })).toMatchObject({ ok: true, text: 'Updated tool "docs-review" (args: x).' });
    expect(w.read("docs-review.json")).toEqual({ description: "Edited", template: "echo {x}" });
    expect(w.files.has(`${ROOT}/docs_review.json`)).toBe(false);
    expect(w.run({ name: "docs-review", template: null })).toMatchObject({ ok: true, text: 'Deleted tool "docs-review". Reload to remove it from the complete registry.' });
    expect(w.files.has(`${ROOT}/docs-review.json`)).toBe(false);
  });

  it("a new name is always created normalized; `---` reaches an existing `---.json` only", () => {
    const w = world({ [`${ROOT}/---.json`]: { description: "dashes", template: "echo" } });
    expect(w.run({ name: "My Tool", description: "m", template: "echo" })).toMatchObject({ details: { tool: "my_tool" } });
    expect(w.run({ name: "---", template: null })).toMatchObject({ ok: true, text: 'Deleted tool "---". Reload to remove it from the complete registry.' });
    expect(w.run({ name: "---", template: null })).toMatchObject({ ok: false, text: "Invalid tool name." });
  });

  it("locks both candidates, and the draft", () => {
    expect(planLocks({ name: "Docs-Review", draft: "drafts/x.json" }, { userRoot: ROOT, cwd: ROOT })).toEqual({
      kind: "lock",
      paths: [`${ROOT}/docs_review.json`, `${ROOT}/Docs-Review.json`, `${ROOT}/drafts/x.json`],
    });
    expect(planLocks({}, { userRoot: ROOT, cwd: "/" })).toEqual({ kind: "list" });
    expect(planLocks({ name: "///" }, { userRoot: ROOT, cwd: "/" })).toMatchObject({
      kind: "answer",
      result: { text: 'Invalid tool name "///": a tool name cannot contain path separators, "..", or control characters.' },
    });
  });

  test.prop([fc.string({ unit: "binary", maxLength: 40 }), fc.boolean()])("every path written, deleted or locked is a direct child of the root", (name, seedExact) => {
    const seeded: Record<string, object> = {};
    if (seedExact && isExactRecipeName(name)) seeded[`${ROOT}/${name}.json`] = { description: "s", template: "echo s" };
    const w = world(seeded);
    const inRoot = (p: string): boolean => p.startsWith(`${ROOT}/`) && !p.slice(ROOT.length + 1).includes("/");
    const c = nameCandidates(name);
    for (const n of [c?.normalized, c?.exact]) if (n !== undefined) expect(inRoot(`${ROOT}/${n}.json`)).toBe(true);
    for (const params of [{ name, description: "d", template: "echo d", update: true }, { name, template: null }]) {
      const plan = w.plan(params);
      if (plan.kind === "write") expect(inRoot(plan.path)).toBe(true);
      if (plan.kind === "delete") expect(plan.paths.every(inRoot)).toBe(true);
    }
  });
});

describe("tool names clients accept", () => {
  it("a file name that is not ^[A-Za-z0-9_-]{1,64}$ is a problem with a rename suggestion", () => {
    expect(toolNameProblem("docs-review", "json")).toBeUndefined();
    expect(toolNameProblem("My_Tool", "md")).toBeUndefined();
    expect(toolNameProblem("git.status", "json")).toContain("rename it to git_status.json");
    expect(toolNameProblem("my tool", "md")).toContain("rename it to my_tool.md");
    expect(toolNameProblem("x".repeat(65), "json")).toContain(`rename it to ${"x".repeat(64)}.json`);
    expect(suggestToolName("Übersicht")).toBe("Ubersicht");
    expect(toolNameProblem("工具", "json")).toContain("rename the file using only those characters");
  });

  it("normalizing may change case and separators, never drop letters", () => {
    expect(mangledNameProblem("My Tool", "my_tool")).toBeUndefined();
    expect(mangledNameProblem("9lives", "tool_9lives")).toBeUndefined();
    expect(mangledNameProblem("ünï", "n")).toContain('use "uni"');
  });

  it("a name cut at 64 characters is refused: two long names differing past the cut would be one tool", () => {
    const w = world();
    const long = `${"x".repeat(64)}_a`;
    expect(w.run({ name: long, description: "d", template: "echo hi" })).toMatchObject({
      ok: false,
      text: `Invalid tool name ${JSON.stringify(long)}: a tool name has at most 64 characters, and this one would be cut to ${JSON.stringify("x".repeat(64))}; use a shorter name.`,
    });
    expect(w.files.size).toBe(0);
    expect(w.run({ name: "x".repeat(64), description: "d", template: "echo hi" })).toMatchObject({ ok: true });
    // a hand-written recipe of a longer name is still reached by its exact name
    const hand = world({ [`${ROOT}/${"y".repeat(70)}.json`]: { description: "d", template: "echo y" } });
    expect(hand.run({ name: "y".repeat(70), template: null })).toMatchObject({ ok: true });
  });
});
