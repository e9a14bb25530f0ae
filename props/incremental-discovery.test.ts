// Incremental discovery is discovery: after any sequence of edits, additions, deletions and
// touches, a pass that reuses an earlier pass's work (a memo) returns exactly what a fresh pass
// over the same snapshot returns, and it loads only the files that changed or read a changed file.
import { fc, test } from "@fast-check/vitest";
import { describe, expect } from "vitest";
import { createDiscoveryMemo, discover } from "../core/discovery/discover.js";
import type { Discovery } from "../core/discovery/discovery-result.js";
import type { RegistrySnapshot, SnapshotFile, SourceListing } from "../core/model.js";
import { file } from "../test/support/snapshot.js";
import { numRuns } from "./support/runs.js";

const ROOTS = ["/A/recipes", "/P"] as const;
const DRAFTS = "/A/recipes/drafts";

// contents that exercise every dependency: imports, delegation by path and by bare name, probes
// that find nothing, invalid and disabled winners, shadowing
const content = fc.constantFrom<unknown>(
  { template: "echo {x}" },
  { description: "other text", template: "echo {x}" },
  { template: "echo {y:int}" },
  { disabled: true, template: "echo off" },
  { template: "" },
  "{ broken",
  { template: "a" },
  { template: "b.json" },
  { template: "/P/a.json" },
  { imports: { dep: "a" }, template: { name: "dep" } },
  { imports: { dep: "/P/b.json" }, template: ["echo pre", { name: "dep" }] },
  { imports: { self: "c" }, template: { name: "self" } },
  "---\ndescription: md\n---\n```template\necho {z=1}\n```\n",
);

const target = fc.record({
  where: fc.constantFrom(0, 1, 2),
  id: fc.constantFrom("a", "b", "c", "bash"),
  format: fc.constantFrom("json", "md"),
});

const op = fc.oneof(
  fc.record({ kind: fc.constant("write" as const), target, content }),
  fc.record({ kind: fc.constant("delete" as const), target }),
  fc.record({ kind: fc.constant("touch" as const), target }),
);

const pathOf = (t: { where: number; id: string; format: string }): string =>
  `${t.where === 2 ? DRAFTS : ROOTS[t.where]!}/${t.id}.${t.format}`;

const bytesOf = (c: unknown): string => (typeof c === "string" ? c : JSON.stringify(c));

/** the runtime's way: a file map per folder whose order survives in-place replacement */
function snapshotOf(folders: readonly Map<string, SnapshotFile>[]): RegistrySnapshot {
  const sources: SourceListing[] = ROOTS.map((root, i) => ({
    kind: "root",
    root,
    present: true,
    tool: i === 0,
    mutableUsage: i === 0,
    files: [...folders[i]!.values()],
  }));
  return { agentDir: "/A", recipeRoot: "/A/recipes", home: "/home/u", cwd: "/work", sources, drafts: [...folders[2]!.values()], packagedRoot: "/P" };
}

const plain = (d: Discovery) => ({ ...d, active: [...d.active] });

describe("incremental discovery", () => {
  test.prop([fc.array(op, { minLength: 1, maxLength: 25 })], { numRuns: numRuns(300) })("equals a fresh discovery after every step", (ops) => {
    const folders = [new Map<string, SnapshotFile>(), new Map<string, SnapshotFile>(), new Map<string, SnapshotFile>()];
    const memo = createDiscoveryMemo();
    discover(snapshotOf(folders), { memo });
    for (const o of ops) {
      const folder = folders[o.target.where]!;
      const path = pathOf(o.target);
      if (o.kind === "write") folder.set(path, file(path, bytesOf(o.content)));
      else if (o.kind === "delete") folder.delete(path);
      else {
        const was = folder.get(path);
        if (was !== undefined) folder.set(path, { ...was });
      }
      const snap = snapshotOf(folders);
      const incremental = discover(snap, { memo });
      const fresh = discover(snap);
      expect(plain(incremental)).toEqual(plain(fresh));
      for (const id of ["a", "b", "c", "bash", "none"]) expect(incremental.active.get(id)).toEqual(fresh.active.get(id));
      expect(incremental.active.size).toBe(fresh.active.size);
    }
  });

  test.prop([content, content])("an edit loads the edited file and the files that read it, nothing else", (before, after) => {
    const folders = [new Map<string, SnapshotFile>(), new Map<string, SnapshotFile>(), new Map<string, SnapshotFile>()];
    for (let i = 0; i < 50; i++) folders[0]!.set(`/A/recipes/t${i}.json`, file(`/A/recipes/t${i}.json`, { template: `echo ${i}` }));
    folders[0]!.set("/A/recipes/c.json", file("/A/recipes/c.json", bytesOf(before)));
    folders[0]!.set("/A/recipes/user.json", file("/A/recipes/user.json", { imports: { dep: "c" }, template: { name: "dep" } }));
    const memo = createDiscoveryMemo();
    discover(snapshotOf(folders), { memo });
    folders[0]!.set("/A/recipes/c.json", file("/A/recipes/c.json", bytesOf(after)));
    discover(snapshotOf(folders), { memo });
    expect([...memo.lastPass.loaded].sort()).toEqual(["/A/recipes/c.json", "/A/recipes/user.json"]);
  });
});
