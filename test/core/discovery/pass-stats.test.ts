// What a pass with a memo loads afresh and what it reuses (DiscoveryMemo.lastPass): a file is
// loaded again only when it, or a file its load read, is not the object seen before.
import { describe, expect, it } from "vitest";
import { createDiscoveryMemo, discover } from "../../../core/discovery/discover.js";
import type { CompileHook, StoredCompile } from "../../../core/discovery/compile-hook.js";
import type { SnapshotFile, SourceListing } from "../../../core/model.js";
import { file, snapshot, userRoot } from "../../support/snapshot.js";

const a = file("/A/recipes/a.json", { template: "echo a" });
const base = file("/A/recipes/base.json", { template: "echo base" });
const user = file("/A/recipes/user.json", { imports: { b: "base" }, template: { name: "b" } });
const two = file("/A/recipes/two.json", { imports: { c: "a", b: "base" }, template: [{ name: "c" }, { name: "b" }] });
const draft = file("/A/recipes/drafts/d.json", { template: "echo d" });
const listing = (files: ReturnType<typeof file>[]): SourceListing => ({ ...userRoot({}), files });

/** a compile store as the runtime's compile cache behaves: it answers for a file only while that
 *  file and every file its compile read are the very files it saw then (`now` gives them) */
function compileStore(now: () => ReadonlyMap<string, SnapshotFile>): CompileHook & { answered: string[] } {
  const kept = new Map<string, { file: SnapshotFile; seen: (SnapshotFile | undefined)[]; stored: StoredCompile }>();
  const answered: string[] = [];
  return {
    answered,
    lookup(source) {
      const k = kept.get(source.file.path);
      if (k === undefined || k.file !== source.file || k.stored.readPaths.some((p, i) => now().get(p) !== k.seen[i])) return undefined;
      answered.push(source.file.path);
      return k.stored;
    },
    store(f, stored) {
      kept.set(f.path, { file: f, seen: stored.readPaths.map((p) => now().get(p)), stored });
    },
  };
}

describe("pass stats", () => {
  it("the first pass loads everything; an unchanged file is reused, an edited one and its readers loaded", () => {
    const memo = createDiscoveryMemo();
    discover(snapshot([listing([a, base, two, user])], [draft]), { memo });
    expect(memo.lastPass).toEqual({ loaded: ["/A/recipes/a.json", "/A/recipes/base.json", "/A/recipes/two.json", "/A/recipes/user.json", "/A/recipes/drafts/d.json"], reused: 0 });

    // a new file: a full walk, every earlier load reused
    const extra = file("/A/recipes/z.json", { template: "echo z" });
    discover(snapshot([listing([a, base, two, user, extra])], [draft]), { memo });
    expect(memo.lastPass).toEqual({ loaded: ["/A/recipes/z.json"], reused: 5 });

    // the imported file edited: it and the recipes that import it (one of them reads another,
    // unchanged file too) are loaded, the rest reused
    const base2 = file("/A/recipes/base.json", { template: "echo base 2" });
    const d = discover(snapshot([listing([a, base2, two, user, extra])], [draft]), { memo });
    expect([...memo.lastPass.loaded].sort()).toEqual(["/A/recipes/base.json", "/A/recipes/two.json", "/A/recipes/user.json"]);
    expect(d.active.get("user")?.config?.template).toBe("echo base 2");

    // nothing changed
    discover(snapshot([listing([a, base2, two, user, extra])], [draft]), { memo });
    expect(memo.lastPass.loaded).toEqual([]);

    // edited again: its readers are still known to read it
    const base3 = file("/A/recipes/base.json", { template: "echo base 3" });
    const again = discover(snapshot([listing([a, base3, two, user, extra])], [draft]), { memo });
    expect([...memo.lastPass.loaded].sort()).toEqual(["/A/recipes/base.json", "/A/recipes/two.json", "/A/recipes/user.json"]);
    expect(again.active.get("user")?.config?.template).toBe("echo base 3");
  });

  it("a file whose name is no tool name is an invalid recipe with its diagnostic", () => {
    const d = discover(snapshot([listing([file("/A/recipes/git.status.json", { template: "git status" })])]));
    const entry = d.entries[0]!;
    expect(entry.invalid).toBe(true);
    expect(entry.diagnostics).toHaveLength(1);
    expect(entry.diagnostics[0]).toMatch(/^Invalid recipe: \/A\/recipes\/git\.status\.json: /);
  });

  it("a compile taken from the store is loaded again when a file it read changes", () => {
    let files = [a, base, user];
    const hook = compileStore(() => new Map(files.map((f) => [f.path, f])));
    discover(snapshot([listing(files)]), { compiled: hook });
    // a new process: its memo is empty, the store answers for every file
    const memo = createDiscoveryMemo();
    discover(snapshot([listing(files)]), { memo, compiled: hook });
    expect(hook.answered).toEqual(["/A/recipes/a.json", "/A/recipes/base.json", "/A/recipes/user.json"]);
    expect(memo.lastPass).toEqual({ loaded: [], reused: 3 });

    // the imported file edited: the stored compile of its importer read it, so the importer is
    // loaded again and sees the edit
    const base2 = file("/A/recipes/base.json", { template: "echo base 2" });
    files = [a, base2, user];
    const d = discover(snapshot([listing(files)]), { memo, compiled: hook });
    expect([...memo.lastPass.loaded].sort()).toEqual(["/A/recipes/base.json", "/A/recipes/user.json"]);
    expect(d.active.get("user")?.config?.template).toBe("echo base 2");
  });
});
