import { fc, test } from "@fast-check/vitest";
import { describe, expect } from "vitest";
import { FIELD_ORDER, RECIPE_FIELDS, type FieldSpec } from "../core/recipe/fields.js";

// A field's shortcut guard is used only on values already known to be JSON data; there it must
// answer exactly what the field's codec answers.
const json = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }),
  fc.constantFrom<unknown>("", "echo", [], {}, [""], [[]], { template: "x" }, ["a", { template: "b" }], { accepts: ["a"] }, 0, -1, 1.5, true, false, null),
);
const shortcuts = FIELD_ORDER.flatMap((name) => {
  const spec = RECIPE_FIELDS[name] as FieldSpec<unknown>;
  return spec.checked === undefined ? [] : [[name, spec] as const];
});

describe("the field table's shortcut guards", () => {
  test.prop([json], { numRuns: 500 })("answer as the codecs do for JSON data", (value) => {
    expect(shortcuts.length).toBeGreaterThan(0);
    for (const [name, spec] of shortcuts) expect([name, spec.checked!(value)]).toEqual([name, spec.codec.is(value)]);
  });
});
