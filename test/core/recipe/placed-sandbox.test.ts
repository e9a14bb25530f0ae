// A recipe that runs another recipe's commands keeps that recipe's confinement: it takes the
// placed recipe's sandbox when it has none, and is refused when its own confines less or when the
// recipes it places ask for different ones.
import { describe, expect, it } from "vitest";
import { type Files, problem, resolved, ROOT } from "./imports-support.js";

const confined = { description: "no network", sandbox: { network: false }, template: "curl example.org" };

describe("the sandbox of a recipe placed in another", () => {
  it("an imported component's sandbox becomes the importing recipe's when it has none", () => {
    const files: Files = { [`${ROOT}/comp.json`]: confined, [`${ROOT}/outer.json`]: { imports: { c: "comp" }, template: [{ name: "c" }, "echo done"] } };
    expect(resolved(files, `${ROOT}/outer.json`).sandbox).toEqual({ network: false });
  });

  it("a step that delegates to a confined recipe confines the recipe that holds it", () => {
    const files: Files = { [`${ROOT}/comp.json`]: confined, [`${ROOT}/outer.json`]: { template: ["echo start", "comp"] } };
    expect(resolved(files, `${ROOT}/outer.json`).sandbox).toEqual({ network: false });
  });

  it("a sandbox at least as strict is kept as written", () => {
    const files: Files = { [`${ROOT}/comp.json`]: { ...confined, sandbox: { network: false, write: [".", "out/"] } }, [`${ROOT}/outer.json`]: { imports: { c: "comp" }, sandbox: true, template: [{ name: "c" }] } };
    expect(resolved(files, `${ROOT}/outer.json`).sandbox).toBe(true);
  });

  it("an own sandbox that confines less is refused, naming the placed recipe", () => {
    const outer = (sandbox: unknown): Files => ({ [`${ROOT}/comp.json`]: { ...confined, sandbox: { network: false, read_deny: ["~/.ssh"] } }, [`${ROOT}/outer.json`]: { imports: { c: "comp" }, sandbox, template: [{ name: "c" }] } });
    for (const sandbox of [false, { network: true }, { write: [".", "/etc"] }, true]) {
      const p = problem(outer(sandbox), `${ROOT}/outer.json`);
      expect(p).toMatchObject({ kind: "invalid", field: "sandbox" });
      expect(p.message).toContain(`sandbox confines less than that of ${ROOT}/comp.json, whose commands this recipe runs`);
    }
  });

  it("placed recipes asking for different sandboxes are refused when the recipe has none", () => {
    const files: Files = {
      [`${ROOT}/a.json`]: confined,
      [`${ROOT}/b.json`]: { ...confined, sandbox: { network: true, write: ["."] } },
      [`${ROOT}/outer.json`]: { imports: { a: "a", b: "b" }, template: [{ name: "a" }, { name: "b" }] },
    };
    expect(problem(files, `${ROOT}/outer.json`).message).toBe(`the recipes whose commands this recipe runs ask for different sandboxes (${ROOT}/a.json and ${ROOT}/b.json): give this recipe a sandbox at least as strict as each`);
  });

  it("a placed recipe that says sandbox: false asks for nothing", () => {
    const files: Files = { [`${ROOT}/comp.json`]: { ...confined, sandbox: false }, [`${ROOT}/outer.json`]: { imports: { c: "comp" }, template: [{ name: "c" }] } };
    expect(resolved(files, `${ROOT}/outer.json`).sandbox).toBeUndefined();
  });
});
