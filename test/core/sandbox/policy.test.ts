// The sandbox policy as core describes it: what `true`, an object and PI_RECIPES_SANDBOX mean,
// and how a call's values and the place resolve its paths.
import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import { declaredPolicy, describePolicy, isSandboxField, resolveSandbox } from "../../../core/sandbox/policy.js";
import { scopeOf } from "../../../core/template/substitute.js";

const place = { cwd: "/work/proj", home: "/home/u" };

describe("sandbox policy", () => {
  it("true is no network and writes under the working directory; an object fills what it leaves out from it", () => {
    expect(declaredPolicy(true, "off")).toEqual({ network: false, write: ["."], readDeny: [] });
    expect(declaredPolicy({ read_deny: ["~/.ssh"] }, "off")).toEqual({ network: false, write: ["."], readDeny: ["~/.ssh"] });
    expect(declaredPolicy({ network: true, write: [] }, "off")).toEqual({ network: true, write: [], readDeny: [] });
  });

  it("PI_RECIPES_SANDBOX=on confines a recipe without the field, never one that says false", () => {
    expect(declaredPolicy(undefined, "off")).toBeUndefined();
    expect(declaredPolicy(undefined, "on")).toEqual(declaredPolicy(true, "off"));
    expect(declaredPolicy(false, "on")).toBeUndefined();
  });

  it("refuses host lists, unknown keys and non-string paths", () => {
    expect(isSandboxField({ network: ["example.com"] })).toBe(false);
    expect(isSandboxField({ netwrok: false })).toBe(false);
    expect(isSandboxField({ write: [1] })).toBe(false);
    expect(isSandboxField({ network: false, write: ["."], read_deny: ["~/.ssh"] })).toBe(true);
  });

  it("resolves placeholders from the call, ~ from home, relative paths from the working directory; an empty value allows nothing", () => {
    const policy = { network: false, write: [".", "{out}", "{dir}/", "{maybe}", "{slash}"], readDeny: ["~/.ssh", "~"] };
    const r = resolveSandbox(policy, scopeOf({ out: "build/a.pdf", dir: "/abs/cache", maybe: "", slash: "some/dir/" }), place);
    expect(E.isRight(r) && r.right).toEqual({
      network: false,
      write: [
        { path: "/work/proj", folder: false, fromValue: false, fromCwd: true },
        { path: "/work/proj/build/a.pdf", folder: false, fromValue: true },
        { path: "/abs/cache", folder: true, fromValue: true },
        // a folder is what the recipe wrote as one: a value's trailing `/` does not make it one
        { path: "/work/proj/some/dir", folder: false, fromValue: true },
      ],
      readDeny: [{ path: "/home/u/.ssh", folder: false, fromValue: false }, { path: "/home/u", folder: false, fromValue: false }],
    });
    const missing = resolveSandbox({ network: false, write: ["{nope}"], readDeny: [] }, scopeOf({}), place);
    expect(E.isLeft(missing) && missing.left).toMatchObject({ kind: "missing-value", message: "Missing sandbox.write value: nope" });
  });

  it("a path with a placeholder after a folder of its own says which: a value may not lead out of it", () => {
    const r = resolveSandbox({ network: false, write: ["build/{name}/", "~/out/{file}", "{out}", "build/x"], readDeny: [] }, scopeOf({ name: "../..", file: "a.txt", out: "o" }), place);
    expect(E.isRight(r) && r.right.write).toEqual([
      { path: "/work", folder: true, fromValue: true, under: "/work/proj/build" },
      { path: "/home/u/out/a.txt", folder: false, fromValue: true, under: "/home/u/out" },
      { path: "/work/proj/o", folder: false, fromValue: true },
      { path: "/work/proj/build/x", folder: false, fromValue: false, fromCwd: true },
    ]);
  });

  it("describes a policy as view tokens", () => {
    expect(describePolicy({ network: false, write: [".", "{out}"], readDeny: ["~/.ssh"] })).toBe("network=off write=.,{out} read_deny=~/.ssh");
  });
});
