// Random edit sequences on a real recipe root (props/support/recipe-edits.ts: rewrites inside one
// timestamp tick included), with launches counted in the usage ledger (left pending in a launch
// log, or folded into the ledgers) between them: after every step, `inspect target=recipes` of a
// random view through the view cache (runtime/view-cache.ts: its kept answer, when an earlier step
// kept one that still holds) prints exactly what the same command computed without any cache
// prints, as `--json` and as text.
import { fc, test } from "@fast-check/vitest";
import { describe, expect } from "vitest";
import { cacheBox } from "../test/support/compile-cache-box.js";
import { numRuns } from "./support/runs.js";
import { applyEdit, NAMES, op, type Op } from "./support/recipe-edits.js";

type Step =
  | Op
  | { readonly kind: "launch"; readonly k: number; readonly fold: boolean };

const step: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: op, weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant("launch" as const), k: fc.nat(3), fold: fc.boolean() }), weight: 1 },
);

const VIEWS = [
  { target: "recipes", view: "summary" },
  { target: "recipes", view: "status" },
  { target: "recipes", view: "doctor" },
  { target: "recipes", view: "imports" },
  { target: "recipes", view: "summary", verbose: "true" },
];
const command = fc.record({ view: fc.nat(VIEWS.length - 1), json: fc.boolean() });

// steps the kept answer printed: a property that never used it would prove nothing
let printedKept = 0;

describe("the view cache against inspect without any cache", () => {
  test.prop([fc.array(fc.tuple(step, command), { minLength: 1, maxLength: 16 }), fc.boolean()], { numRuns: numRuns(50) })(
    "every step prints exactly what a cacheless inspect prints",
    async (steps, blindCtime) => {
      const box = cacheBox();
      // see props/compile-cache.test.ts: one fixed time for forced mtimes, in the future when the
      // recipe files' ctimes are blinded
      const fixed = new Date(Date.now() + (blindCtime ? 3_600_000 : -3_600_000));
      try {
        for (const [s, c] of steps) {
          if (s.kind === "launch") await box.launch(NAMES[s.k]!, s.fold);
          else applyEdit(box.root, s, fixed, blindCtime);
          const params = VIEWS[c.view]!;
          // Seeding says its notes once, in the command that seeds (a lineage name another file
          // holds, say): the cached command would say them and the cacheless one right after it
          // would not. So the lineages follow the edit before the two are compared; launches
          // left pending in a launch log are still folded by the compared commands.
          await box.settle();
          // twice: the second of two identical commands is the one the kept answer serves
          for (let i = 0; i < 2; i++) {
            const viewed = await box.inspected(params, c.json, blindCtime);
            expect(viewed.output).toBe(await box.plainInspected(params, c.json));
            if (viewed.from === "kept") printedKept++;
          }
        }
      } finally {
        box.cleanup();
      }
    },
  );
  test("the kept answer was printed in some of those steps", () => {
    expect(printedKept).toBeGreaterThan(0);
  });
});
