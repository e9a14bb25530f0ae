// A discovery that reuses an earlier pass's work (a memo) sees what a fresh one sees: a resolved
// bucket is reused only while its members and what it read of their source listings (the root,
// whether it exposes tools, whether its usage is mutable) stay the same.
import { describe, expect, it } from "vitest";
import { createDiscoveryMemo, discover } from "../../../core/discovery/discover.js";
import type { SourceListing } from "../../../core/model.js";
import { file, root, snapshot, userRoot } from "../../support/snapshot.js";

const t = file("/A/recipes/t.json", { template: "echo t" });
const u = file("/P/u.json", { template: "echo u" });
// a fresh listing object each pass, as the runtime lists the folders afresh
const user = (options: Partial<SourceListing> = {}): SourceListing => ({ ...userRoot({}), files: [t], ...options });
const other = (files = [u]): SourceListing => ({ ...root("/P", {}, { tool: true }), files });

describe("discovery with a memo", () => {
  it("a root that stops exposing tools takes its tool away, and gives it back", () => {
    const memo = createDiscoveryMemo();
    expect(discover(snapshot([user()]), { memo }).tools.map((x) => x.name)).toEqual(["t"]);
    const off = discover(snapshot([user({ tool: false })]), { memo });
    expect(off.tools).toEqual([]);
    expect(off.active.get("t")).toMatchObject({ toolSource: false, tool: false });
    expect(discover(snapshot([user()]), { memo }).active.get("t")).toMatchObject({ toolSource: true, tool: true });
  });

  it("a root whose usage stops being mutable says so on its entries", () => {
    const memo = createDiscoveryMemo();
    expect(discover(snapshot([user()]), { memo }).active.get("t")?.mutableUsage).toBe(true);
    expect(discover(snapshot([user({ mutableUsage: false })]), { memo }).active.get("t")?.mutableUsage).toBe(false);
  });

  it("an entry names the root its listing now gives", () => {
    const memo = createDiscoveryMemo();
    expect(discover(snapshot([user()]), { memo }).active.get("t")?.sourceRoot).toBe("/A/recipes");
    expect(discover(snapshot([user({ root: "/A/other" })]), { memo }).active.get("t")?.sourceRoot).toBe("/A/other");
  });

  it("each answer equals a fresh discovery of the same snapshot", () => {
    const memo = createDiscoveryMemo();
    for (const s of [[user()], [user({ tool: false })], [user(), other()], [user({ mutableUsage: false }), other([])], [user()]]) {
      const seen = discover(snapshot(s), { memo });
      const fresh = discover(snapshot(s));
      expect(seen.entries).toEqual(fresh.entries);
      expect(seen.tools.map((x) => [x.name, x.path])).toEqual(fresh.tools.map((x) => [x.name, x.path]));
      expect(seen.diagnostics).toEqual(fresh.diagnostics);
    }
  });

  it("a file listed twice in one listing counts twice, on every pass, as two equal files do", () => {
    const memo = createDiscoveryMemo();
    const twin = file("/A/recipes/t.json", { template: "echo t" });
    const equal = discover(snapshot([user({ files: [t, twin] })]));
    expect(equal.entries.map((e) => e.shadowed)).toEqual([false, true]);
    // a JSON recipe under a JSON recipe is shadowed, not "a Markdown recipe shadowed by JSON"
    expect(equal.entries.map((e) => e.diagnostics)).toEqual([[], []]);
    const md = file("/A/recipes/m.md", "---\ndescription: m\n---\n\n```template\necho m\n```\n");
    expect(discover(snapshot([user({ files: [md, md] })])).entries.map((e) => e.diagnostics)).toEqual([[], []]);
    expect(discover(snapshot([user({ files: [t, t] })]), { memo }).entries).toEqual(equal.entries);
    // another file makes the next pass list the candidates again
    const next = discover(snapshot([user({ files: [t, t, file("/A/recipes/u.json", { template: "echo u" })] })]), { memo });
    expect(next.entries.filter((e) => e.id === "t")).toEqual(equal.entries);
  });

  it("an edit of a file listed twice replaces both listings", () => {
    const memo = createDiscoveryMemo();
    discover(snapshot([user({ files: [t, t] })]), { memo });
    const edited = file("/A/recipes/t.json", { template: "echo edited" });
    const after = discover(snapshot([user({ files: [edited, edited] })]), { memo });
    expect(after.entries).toEqual(discover(snapshot([user({ files: [edited, edited] })])).entries);
    expect(after.entries.map((e) => e.config?.template)).toEqual(["echo edited", "echo edited"]);
  });

  it("a root inserted above another moves the lower root's entries down a priority", () => {
    const memo = createDiscoveryMemo();
    const x = (): SourceListing => ({ ...root("/X", {}, { tool: true }), files: [file("/X/x.json", { template: "echo x" })] });
    expect(discover(snapshot([user(), other()]), { memo }).active.get("u")?.priority).toBe(1);
    const after = discover(snapshot([user(), x(), other()]), { memo });
    expect(after.active.get("u")?.priority).toBe(2);
    expect(after.entries).toEqual(discover(snapshot([user(), x(), other()])).entries);
  });

  it("a shadowed recipe deleted leaves its winner alone in the bucket", () => {
    const memo = createDiscoveryMemo();
    const low = file("/P/t.json", { template: "echo low" });
    const q = file("/Q/t.json", { template: "echo q" });
    const two = discover(snapshot([user(), { ...root("/P", {}), files: [low] }]), { memo });
    expect(two.entries).toHaveLength(2);
    const one = discover(snapshot([user(), { ...root("/P", {}), files: [] }]), { memo });
    expect(one.entries.map((e) => e.path)).toEqual(["/A/recipes/t.json"]);
    expect(one.diagnostics).toEqual([]);
    expect(one.active.get("t")?.shadows).toEqual([]);
    // and of three, two stay
    discover(snapshot([user(), { ...root("/P", {}), files: [low] }, { ...root("/Q", {}), files: [q] }]), { memo });
    const left = discover(snapshot([user(), { ...root("/P", {}), files: [low] }, { ...root("/Q", {}), files: [] }]), { memo });
    expect(left.entries.map((e) => e.path)).toEqual(["/A/recipes/t.json", "/P/t.json"]);
  });

  it("files added between the ones already listed take their place in the order", () => {
    const memo = createDiscoveryMemo();
    const f = (id: string) => file(`/A/recipes/${id}.json`, { template: `echo ${id}` });
    const [a, b, c, d, e, g] = ["a", "b", "c", "d", "e", "g"].map(f);
    discover(snapshot([user({ files: [b!, d!, g!] })]), { memo });
    const listing = [user({ files: [a!, b!, c!, d!, e!, g!] })];
    const seen = discover(snapshot(listing), { memo });
    expect(seen.entries.map((x) => x.id)).toEqual(["a", "b", "c", "d", "e", "g"]);
    expect(seen.entries).toEqual(discover(snapshot(listing)).entries);
    // and when the new ones all sort before several kept ones
    const [h, i] = ["h", "i"].map(f);
    discover(snapshot([user({ files: [e!, g!, h!, i!] })]), { memo });
    const later = [user({ files: [b!, c!, e!, g!, h!, i!] })];
    expect(discover(snapshot(later), { memo }).entries.map((x) => x.id)).toEqual(["b", "c", "e", "g", "h", "i"]);
  });

  it.each([
    ["in both", true, "echo two"],
    ["in one of them only", false, "echo one"],
  ])("one file object listed in two sources, then edited %s", (_how, both, second) => {
    const memo = createDiscoveryMemo();
    const shared = file("/A/recipes/t.json", { template: "echo one" });
    discover(snapshot([user({ files: [shared] }), { ...root("/A/recipes", {}), files: [shared] }]), { memo });
    const edited = file("/A/recipes/t.json", { template: "echo two" });
    const listing = [user({ files: [edited] }), { ...root("/A/recipes", {}), files: [both ? edited : shared] }];
    const seen = discover(snapshot(listing), { memo });
    expect(seen.entries.map((x) => [x.priority, x.config?.template])).toEqual([[0, "echo two"], [1, second]]);
    expect(seen.entries).toEqual(discover(snapshot(listing)).entries);
  });

  it("a file object listed again after an edit replaced it counts as listed", () => {
    const memo = createDiscoveryMemo();
    discover(snapshot([user({ files: [t] })]), { memo });
    discover(snapshot([user({ files: [file("/A/recipes/t.json", { template: "echo edited" })] })]), { memo });
    const back = discover(snapshot([user({ files: [t, file("/A/recipes/u.json", { template: "echo u" })] })]), { memo });
    expect(back.entries.map((x) => [x.id, x.config?.template])).toEqual([["t", "echo t"], ["u", "echo u"]]);
  });

  it("a memo that has seen no pass reports nothing loaded", () => {
    expect(createDiscoveryMemo().lastPass).toEqual({ loaded: [], reused: 0 });
  });

  it("another home, working folder or packaged root starts the memo over: imports resolve against them", () => {
    const memo = createDiscoveryMemo();
    const sources = [
      user({ files: [file("/A/recipes/h.json", { imports: { b: "~/lib/b.json" }, template: { name: "b" } }), file("/A/recipes/w.json", { imports: { b: "lib/b.json" }, template: { name: "b" } }), file("/A/recipes/p.json", { imports: { b: "comp" }, template: { name: "b" } })] }),
      { ...root("/pkg", {}), files: [file("/pkg/comp.json", { template: "echo comp" })] },
      { ...root("/home/u/lib", {}), files: [file("/home/u/lib/b.json", { template: "echo b" })] },
      { ...root("/work/lib", {}), files: [file("/work/lib/b.json", { template: "echo b" })] },
    ];
    const base = snapshot(sources);
    const validity = (d: ReturnType<typeof discover>) => ["h", "w", "p"].map((id) => d.active.get(id)?.invalid);
    for (const s of [base, { ...base, home: "/home/v" }, base, { ...base, cwd: "/other" }, base, { ...base, packagedRoot: "/pkg" }, { ...base, packagedRoot: "/pkg2" }, { ...base, packagedRoot: "/pkg" }]) {
      const seen = discover(s, { memo });
      expect(seen.entries).toEqual(discover(s).entries);
      expect(validity(seen)).toEqual(validity(discover(s)));
    }
    // the contexts do differ: each import resolves in some of them only
    expect(validity(discover(base))).toEqual([false, false, true]);
    expect(validity(discover({ ...base, home: "/home/v" }))).toEqual([true, false, true]);
    expect(validity(discover({ ...base, cwd: "/other" }))).toEqual([false, true, true]);
    expect(validity(discover({ ...base, packagedRoot: "/pkg" }))).toEqual([false, false, false]);
  });

  it("edits in place, one pass after another, give what a fresh discovery gives", () => {
    const memo = createDiscoveryMemo();
    const other = file("/A/recipes/o.json", { template: "echo o" });
    const steps = [
      [t, other],
      [file("/A/recipes/t.json", "{"), other],
      [file("/A/recipes/t.json", "[1"), other],
      [file("/A/recipes/t.json", { template: "echo back" }), other],
      [file("/A/recipes/t.json", { template: "echo back", description: "now described" }), other],
    ];
    for (const files of steps) {
      // a world-writable root: its diagnostic stays first whatever the recipes' diagnostics do
      const s = snapshot([user({ files, rootMode: 0o40777 })]);
      const seen = discover(s, { memo });
      const fresh = discover(s);
      expect(seen.entries).toEqual(fresh.entries);
      expect(seen.diagnostics).toEqual(fresh.diagnostics);
      expect(seen.diagnostics[0]).toBe("Recipe root is world-writable; review permissions: /A/recipes");
      expect(seen.tools.map((x) => [x.name, x.description])).toEqual(fresh.tools.map((x) => [x.name, x.description]));
    }
  });

  it("a file replaced by one of another name at the same place is that other recipe", () => {
    const memo = createDiscoveryMemo();
    discover(snapshot([user({ files: [file("/A/recipes/a.json", { template: "echo a" })] })]), { memo });
    const d = discover(snapshot([user({ files: [file("/A/recipes/b.json", { template: "echo b" })] })]), { memo });
    expect(d.entries.map((e) => e.id)).toEqual(["b"]);
    expect(d.tools.map((x) => x.name)).toEqual(["b"]);
  });

  it("a bucket nothing touched keeps its entries when another root changes", () => {
    const memo = createDiscoveryMemo();
    const before = discover(snapshot([user(), other([])]), { memo }).active.get("t");
    const after = discover(snapshot([user(), other()]), { memo });
    expect(after.tools.map((x) => x.name)).toEqual(["t", "u"]);
    // the same object: the bucket was not resolved again
    expect(after.active.get("t")).toBe(before);
  });

  it("a bucket of three recipes nothing touched keeps its entries when another root changes", () => {
    const memo = createDiscoveryMemo();
    const three = (): SourceListing[] => [user(), { ...root("/Q", {}), files: [file("/Q/t.json", { template: "echo q" })] }, { ...root("/R", {}), files: [file("/R/t.md", "---\ndescription: r\n---\n\n```template\necho r\n```\n")] }];
    const q = three()[1]!.files;
    const r = three()[2]!.files;
    const listing = (extra: boolean): SourceListing[] => {
      const [a, b, c] = three();
      return [a!, { ...b!, files: q }, { ...c!, files: r }, other(extra ? [u] : [])];
    };
    const before = discover(snapshot(listing(false)), { memo }).entries.filter((e) => e.id === "t");
    expect(before.map((e) => e.path)).toEqual(["/A/recipes/t.json", "/Q/t.json", "/R/t.md"]);
    const after = discover(snapshot(listing(true)), { memo }).entries.filter((e) => e.id === "t");
    expect(after).toHaveLength(3);
    after.forEach((e, i) => expect(e).toBe(before[i]));
    // an edit of the lowest of the three is seen, though the winner is the same
    const edited = [file("/R/t.md", "---\ndescription: r\n---\n\n```template\necho edited\n```\n")];
    const [a, b, c] = three();
    const next = discover(snapshot([a!, { ...b!, files: q }, { ...c!, files: edited }, other([u])]), { memo });
    expect(next.entries.filter((e) => e.id === "t").map((e) => e.config?.template)).toEqual(["echo t", "echo q", "echo edited"]);
  });
});
