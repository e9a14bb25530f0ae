// A refresh with a memo (the live registry's way): after an edit it looks at the edited file and
// the recipes that read other files only, however many recipes there are; a change of a folder's
// listing other than its files (its mode, an error, the folder gone, another kind of source, a
// source more or less) is seen as fully as by a fresh pass; and tools are listed by name whatever
// source each comes from.
import { describe, expect, it } from "vitest";
import { createDiscoveryMemo, discover } from "../../../core/discovery/discover.js";
import type { Discovery } from "../../../core/discovery/discovery-result.js";
import type { SnapshotFile, SourceListing } from "../../../core/model.js";
import { file, root, snapshot, userRoot } from "../../support/snapshot.js";

const plain = (d: Discovery) => ({ ...d, active: [...d.active] });

describe("refresh with a memo", () => {
  it("an edit looks at the edited file and at the one recipe that reads another file, not at the 50 others", () => {
    const files = new Map<string, SnapshotFile>();
    const put = (name: string, content: object) => files.set(`/A/recipes/${name}`, file(`/A/recipes/${name}`, content));
    for (let i = 0; i < 50; i++) put(`t${i}.json`, { template: `echo ${i}` });
    put("c.json", { template: "echo c" });
    put("user.json", { imports: { dep: "c" }, template: { name: "dep" } });
    const snap = () => snapshot([{ ...userRoot({}), files: [...files.values()] }]);
    const memo = createDiscoveryMemo();
    discover(snap(), { memo });
    expect([...memo.lastPass.loaded].sort()).toEqual([...files.keys()].sort());
    expect(memo.lastPass.reused).toBe(0);

    // t3 is read by nobody: it alone is loaded; the reader is checked (and reused), no other file
    put("t3.json", { template: "echo three" });
    const d = discover(snap(), { memo });
    expect(memo.lastPass).toEqual({ loaded: ["/A/recipes/t3.json"], reused: 1 });
    expect(d.active.get("t3")?.config?.template).toBe("echo three");
    expect(plain(d)).toEqual(plain(discover(snap())));

    // nothing changed: only the reader is checked
    discover(snap(), { memo });
    expect(memo.lastPass).toEqual({ loaded: [], reused: 1 });
  });

  describe("a listing that changed in something other than its files is seen as a fresh pass sees it", () => {
    const files = { "a.json": { template: "echo a" } };
    const cases: [string, Partial<SourceListing>, Partial<SourceListing>, string[]][] = [
      ["mode", { rootMode: 0o40755 }, { rootMode: 0o40777 }, ["Recipe root is world-writable; review permissions: /P", "Recipe root is group-writable; review ownership and permissions: /P"]],
      ["mode, back", { rootMode: 0o40775 }, { rootMode: 0o40755 }, []],
      ["error", {}, { error: "EACCES: permission denied" }, ["Failed to inspect recipe root /P: EACCES: permission denied"]],
      ["error, another", { error: "EACCES: permission denied" }, { error: "EIO: i/o error" }, ["Failed to inspect recipe root /P: EIO: i/o error"]],
      ["the folder gone", { rootMode: 0o40777 }, { rootMode: 0o40777, present: false }, []],
      ["the folder back", { rootMode: 0o40777, present: false }, { present: true }, ["Recipe root is world-writable; review permissions: /P", "Recipe root is group-writable; review ownership and permissions: /P"]],
      ["a file source now", { rootMode: 0o40777 }, { rootMode: 0o40777, kind: "file" }, []],
      ["a root now", { rootMode: 0o40777, kind: "file" }, { kind: "root" }, ["Recipe root is world-writable; review permissions: /P", "Recipe root is group-writable; review ownership and permissions: /P"]],
    ];
    for (const [what, before, after, diagnostics] of cases) {
      it(what, () => {
        const memo = createDiscoveryMemo();
        // the same file objects in both passes: only the listing's other fields differ
        const p = root("/P", files, before);
        discover(snapshot([userRoot({}), p]), { memo });
        const next = snapshot([userRoot({}), { ...p, ...after }]);
        const d = discover(next, { memo });
        expect(d.diagnostics).toEqual(diagnostics);
        expect(plain(d)).toEqual(plain(discover(next)));
      });
    }
  });

  it("a source more, then one less", () => {
    const memo = createDiscoveryMemo();
    const user = userRoot({ "a.json": { template: "echo a" } });
    const p = root("/P", { "b.json": { template: "echo b" } }, { tool: true });
    discover(snapshot([user]), { memo });
    const two = discover(snapshot([user, p]), { memo });
    expect(two.tools.map((t) => t.name)).toEqual(["a", "b"]);
    const one = discover(snapshot([user]), { memo });
    expect(one.tools.map((t) => t.name)).toEqual(["a"]);
  });

  it("tools are listed by name, whichever source each comes from", () => {
    // the higher source holds the later names: candidates come source by source
    const d = discover(snapshot([
      userRoot({ "m.json": { template: "echo m" }, "z.json": { template: "echo z" } }),
      root("/P", { "a.json": { template: "echo a" }, "n.json": { template: "echo n" } }, { tool: true }),
    ]));
    expect(d.tools.map((t) => t.name)).toEqual(["a", "m", "n", "z"]);
  });
});
