import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import type { Json } from "../../../core/model.js";
import { type ImportRecord, substituteReferences } from "../../../core/recipe/references.js";
import { recipeProblem } from "../../../core/recipe/recipe-error.js";

const base: ImportRecord = {
  name: "base",
  file: "/r/base.json",
  defaults: { profile: "safe", nested: { level: 3 }, zero: 0, no: "no", none: null, list: ["a", "b"] },
  values: { target: "docs", empty: "" },
};
const imports = new Map([["base", base]]);
// the error as the problem a caller shows
const sub = (value: Json) => E.mapLeft(recipeProblem)(substituteReferences(value, imports));
const ok = (value: Json) => {
  const r = sub(value);
  if (E.isLeft(r)) throw new Error(JSON.stringify(r.left));
  return r.right;
};

describe("import references", () => {
  it("name, file and nested lookups; a whole-string token keeps the value's JSON type", () => {
    expect(ok("{base.name}")).toBe("base");
    expect(ok("{base.file}")).toBe("/r/base.json");
    expect(ok("{base.defaults.nested.level}")).toBe(3);
    expect(ok("{base.defaults.nested}")).toEqual({ level: 3 });
    expect(ok("{base.defaults.none}")).toBeNull();
    expect(ok("n={base.defaults.nested.level} x={base.defaults.none}.")).toBe("n=3 x=.");
    expect(ok("{base.defaults.list.1}")).toBe("b");
  });

  it("=fallback applies to undefined and null only", () => {
    expect(ok("{base.defaults.missing=dflt}")).toBe("dflt");
    expect(ok("{base.defaults.none=dflt}")).toBe("dflt");
    expect(ok("{base.values.empty=dflt}")).toBe("");
    expect(ok("{base.defaults.missing='a=b'}")).toBe("a=b");
    expect(ok("{base.defaults.missing=base.values.target}")).toBe("docs");
    expect(ok("{base.defaults.missing=base.values.nope}")).toBe("");
  });

  it("?yes:no picks no for undefined, null, false, 0 and empty string; \"no\" is truthy", () => {
    expect(ok("{base.defaults.zero?y:n}")).toBe("n");
    expect(ok("{base.values.empty?y:n}")).toBe("n");
    expect(ok("{base.defaults.missing?y:n}")).toBe("n");
    expect(ok("{base.defaults.no?y:n}")).toBe("y");
    expect(ok("{base.defaults.profile?\"a:b\":n}")).toBe("a:b");
    expect(ok("[{base.defaults.missing?y}]")).toBe("[]");
  });

  it("unknown aliases and sections are left untouched", () => {
    expect(ok("{other.defaults.x} {base.args} {label} {base} {base.name.x}")).toBe("{other.defaults.x} {base.args} {label} {base} {base.name.x}");
  });

  it("lookups never reach into prototypes", () => {
    expect(sub("{base.defaults.constructor}")).toEqual(E.left({ kind: "failed", message: "Unknown recipe import reference: base.defaults.constructor" }));
    expect(ok({ ["__proto__"]: "{base.name}" } as unknown as Json)).toEqual(JSON.parse('{"__proto__":"base"}'));
  });

  it("every string at any depth, keys untouched, unchanged parts keep their identity", () => {
    const untouched = { a: ["x", { b: "y" }] };
    const input = { "{base.name}": "{base.name}", deep: [1, { d: "-{base.values.target}-" }], untouched } as Json;
    const out = ok(input) as { [k: string]: Json };
    expect(out).toEqual({ "{base.name}": "base", deep: [1, { d: "-docs-" }], untouched });
    expect(out["untouched"]).toBe(untouched);
    const same = { t: "echo {x}" };
    expect(ok(same)).toBe(same);
  });

  it("a missing reference without fallback is an error", () => {
    expect(sub(["ok", "{base.values.nope}"])).toEqual(E.left({ kind: "failed", message: "Unknown recipe import reference: base.values.nope" }));
  });
});
