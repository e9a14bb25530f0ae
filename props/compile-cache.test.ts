// Random edit / rename / delete / import-change / draft sequences on a real recipe root, including
// rewrites that keep the size and force the same mtime (edits inside one timestamp tick): after
// every step, discovery through the compile cache (answered by the whole-root snapshot when an
// earlier step wrote one that still holds, runtime/root-snapshot.ts) is exactly discovery without
// it, `list` through the list index (written by an earlier step) is exactly `list` of a discovery
// without either, and every tool the cache serves is a plain value (a structured clone of it is
// equal to it, key order included).
import { fc, test } from "@fast-check/vitest";
import { describe, expect } from "vitest";
import { cacheBox } from "../test/support/compile-cache-box.js";
import { numRuns } from "./support/runs.js";
import { applyEdit, op } from "./support/recipe-edits.js";

// steps whose list the list index answered, and steps whose discovery the whole-root snapshot
// answered: a property that never used them would prove nothing
let answeredByIndex = 0;
let answeredBySnapshot = 0;
let answeredByEntry = 0;
let answeredUnknown = 0;

describe("the compile cache and the list index against discovery without them", () => {
  test.prop([fc.array(op, { minLength: 1, maxLength: 24 }), fc.boolean()], { numRuns: numRuns(60) })(
    "every step of a random sequence discovers exactly what a cacheless discovery does",
    async (ops, blindCtime) => {
      const box = cacheBox();
      // one fixed time for all forced mtimes: rewrites of equal size are then indistinguishable
      // by size and mtime. With ctime blinded the forced time is in the future (a file system
      // cannot help then; the racy check must).
      const fixed = new Date(Date.now() + (blindCtime ? 3_600_000 : -3_600_000));
      try {
        for (const o of ops) {
          applyEdit(box.root, o, fixed, blindCtime);
          // the snapshot and the list index were written by earlier steps, before this step's change
          const cached = await box.cached({}, blindCtime);
          expect(cached.discovery).toStrictEqual(box.plain());
          if (cached.snapshot) answeredBySnapshot++;
          for (const t of cached.discovery.tools) expect(structuredClone(t)).toStrictEqual(t);
          const listed = box.listed({}, blindCtime);
          expect(listed.list).toStrictEqual(box.plainList());
          if (listed.indexed) answeredByIndex++;
          // each recipe's name (tools, and recipes that make none), and a name no recipe has
          const plain = box.plain();
          for (const name of [...plain.active.keys(), "no_such_recipe"]) {
            const found = box.named(name, {}, undefined, blindCtime);
            if (found.tool !== undefined) {
              answeredByEntry++;
              expect(found.tool).toStrictEqual(plain.tools.find((t) => t.name === name));
            } else if (found.unknown !== undefined) {
              answeredUnknown++;
              expect(plain.active.has(name)).toBe(false);
              expect(found.unknown).toStrictEqual(plain.tools.map((t) => t.name));
            } else expect(found.discovery).toStrictEqual(plain);
          }
        }
      } finally {
        box.cleanup();
      }
    },
  );
  test("the list index answered some of those steps", () => {
    expect(answeredByIndex).toBeGreaterThan(0);
  });
  test("the whole-root snapshot answered some of those steps", () => {
    expect(answeredBySnapshot).toBeGreaterThan(0);
  });
  test("some tools came from their one compile cache entry, and some unknown names from the index", () => {
    expect(answeredByEntry).toBeGreaterThan(0);
    expect(answeredUnknown).toBeGreaterThan(0);
  });
});
