// addNew keeps a list of distinct names in first-seen order, as `includes` then `push` does, at
// any length, also when the list is appended to directly between its calls.
import { fc, test } from "@fast-check/vitest";
import { expect } from "vitest";
import { addNew } from "../../core/unique-list.js";

test.prop([fc.array(fc.tuple(fc.integer({ min: 0, max: 300 }), fc.boolean()), { minLength: 200, maxLength: 600 })])(
  "matches includes-then-push for any sequence of additions, direct pushes of new names included",
  (steps) => {
    const list: string[] = [];
    const model: string[] = [];
    for (const [n, direct] of steps) {
      const name = `n${n}`;
      if (direct && !model.includes(name)) {
        list.push(name);
        model.push(name);
        continue;
      }
      addNew(list, name);
      if (!model.includes(name)) model.push(name);
    }
    expect(list).toEqual(model);
  },
);
