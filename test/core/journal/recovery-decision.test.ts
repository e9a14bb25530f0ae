import { describe, expect, it } from "vitest";
import * as E from "fp-ts/lib/Either.js";
import { createHash } from "node:crypto";
import { blobBytes, buildPlan as buildTaggedPlan, pathsOf, planErrorText, type Plan, type PlanInput } from "../../../core/journal/plan.js";
import { decide } from "../../../core/journal/recovery-decision.js";
import { decodeJournal as decodeTaggedJournal, encodeJournal, journalErrorText, journalFileName, journalHash } from "../../../core/journal/record.js";

// the errors as the texts a user reads (recovery reports and thrown messages carry these)
const buildPlan = (input: PlanInput): E.Either<string, Plan> => E.mapLeft(planErrorText)(buildTaggedPlan(input));
const decodeJournal = (text: string) => E.mapLeft(journalErrorText)(decodeTaggedJournal(text));

const sha = (text: string | Uint8Array): string => createHash("sha256").update(text).digest("hex");

function plan(input: PlanInput): Plan {
  const p = buildPlan(input);
  if (E.isLeft(p)) throw new Error(p.left);
  return p.right;
}

describe("buildPlan", () => {
  it("hashes contents, keeps before bytes when given, and is reversible only then", () => {
    const p = plan({ id: "a1", kind: "t", phases: [[{ op: "write", path: "/r/x", before: "old", content: "new" }, { op: "unlink", path: "/r/y", before: { hash: sha("y") } }]] });
    expect(p.phases[0]).toEqual([
      { op: "write", path: "/r/x", before: sha("old"), after: sha("new") },
      { op: "unlink", path: "/r/y", before: sha("y") },
    ]);
    expect(Object.keys(p.blobs).sort()).toEqual([sha("new"), sha("old")].sort());
    expect(p.reversible).toBe(false);
    expect(pathsOf(p)).toEqual(["/r/x", "/r/y"]);
  });

  it("keeps bytes that are not UTF-8 exactly (base64)", () => {
    const bytes = new Uint8Array([0xff, 0x00, 0xfe, 0x41]);
    const p = plan({ id: "b", kind: "t", phases: [[{ op: "write", path: "/r/bin", before: null, content: bytes }]] });
    const blob = p.blobs[sha(bytes)]!;
    expect("base64" in blob).toBe(true);
    expect([...blobBytes(blob)]).toEqual([...bytes]);
  });

  it("refuses a bad id, a relative path, a path changed twice, and a link source that changes", () => {
    const bad = (input: PlanInput): string => {
      const p = buildPlan(input);
      return E.isLeft(p) ? p.left : "built";
    };
    expect(bad({ id: "../x", kind: "t", phases: [] })).toMatch(/is not \[A-Za-z0-9_-\]\+/);
    expect(bad({ id: "x", kind: "t", phases: [[{ op: "mkdir", path: "rel" }]] })).toMatch(/'rel' is not absolute/);
    expect(bad({ id: "x", kind: "t", phases: [[{ op: "mkdir", path: "/d" }], [{ op: "write", path: "/d", before: null, content: "" }]] })).toMatch(/\/d is changed by two steps/);
    expect(bad({ id: "x", kind: "t", phases: [[{ op: "link", from: "/a", to: "/b", before: "a" }, { op: "unlink", path: "/a", before: "a" }]] })).toMatch(/linked from and changed/);
  });
});

describe("decide", () => {
  const p = plan({
    id: "d",
    kind: "t",
    phases: [[{ op: "write", path: "/r/x", before: "old", content: "new" }], [{ op: "rename", from: "/r/a", to: "/r/b", before: "A", replaced: "B" }]],
  });
  const obs = (x: string | null, a: string | null, b: string | null) => new Map([["/r/x", x], ["/r/a", a], ["/r/b", b]].map(([k, v]) => [k!, v === null ? null : sha(v!)]));

  it("forward: runs only what has not run, in phase order; done when every path is after", () => {
    expect(decide({ plan: p, direction: "forward" }, obs("old", "A", "B"))).toEqual({
      kind: "forward",
      phases: [[{ op: "write", path: "/r/x", content: sha("new") }], [{ op: "rename", from: "/r/a", to: "/r/b" }]],
    });
    expect(decide({ plan: p, direction: "forward" }, obs("new", "A", "B"))).toEqual({ kind: "forward", phases: [[{ op: "rename", from: "/r/a", to: "/r/b" }]] });
    expect(decide({ plan: p, direction: "forward" }, obs("new", null, "A"))).toEqual({ kind: "done" });
  });

  it("back: undoes in reverse phase order, a rename first moved back, then what it replaced restored", () => {
    expect(decide({ plan: p, direction: "back" }, obs("new", null, "A"))).toEqual({
      kind: "back",
      phases: [[{ op: "rename", from: "/r/b", to: "/r/a" }], [{ op: "write", path: "/r/b", content: sha("B") }], [{ op: "write", path: "/r/x", content: sha("old") }]],
    });
    expect(decide({ plan: p, direction: "back" }, obs("old", "A", "B"))).toEqual({ kind: "done" });
  });

  it("back, halfway through undoing a rename: the file is back, what it replaced not yet", () => {
    expect(decide({ plan: p, direction: "back" }, obs("new", "A", null))).toEqual({
      kind: "back",
      phases: [[{ op: "write", path: "/r/b", content: sha("B") }], [{ op: "write", path: "/r/x", content: sha("old") }]],
    });
    // the same state going forward, or with the file not back, is someone else's change
    expect(decide({ plan: p, direction: "forward" }, obs("new", "A", null))).toMatchObject({ kind: "corrupt", reason: expect.stringMatching(/^\/r\/b was changed outside the journal/) });
    expect(decide({ plan: p, direction: "back" }, obs("new", null, null))).toMatchObject({ kind: "corrupt", reason: expect.stringMatching(/^\/r\/b was changed outside the journal/) });
  });

  it("corrupt: a path that is neither its before nor its after state is never overwritten", () => {
    expect(decide({ plan: p, direction: "forward" }, obs("edited", "A", "B"))).toMatchObject({ kind: "corrupt", reason: expect.stringMatching(/^\/r\/x was changed outside the journal/) });
    const oneWay = plan({ id: "o", kind: "t", phases: [[{ op: "write", path: "/r/x", before: { hash: sha("old") }, content: "new" }]] });
    expect(decide({ plan: oneWay, direction: "back" }, new Map([["/r/x", sha("new")]]))).toMatchObject({ kind: "corrupt", reason: expect.stringMatching(/does not hold its former content/) });
  });
});

describe("the journal record", () => {
  it("round-trips, and rejects an edited or torn record", () => {
    const p = plan({ id: "r", kind: "t", phases: [[{ op: "write", path: "/r/x", before: null, content: "v" }]] });
    const text = encodeJournal({ plan: p, direction: "forward" });
    expect(decodeJournal(text)).toEqual(E.right({ plan: p, direction: "forward" }));
    expect(decodeJournal(text.replace('"forward"', '"back"'))).toEqual(E.left("its hash does not match its content (torn or edited)"));
    expect(E.isLeft(decodeJournal(text.slice(0, text.length / 2)))).toBe(true);
  });
});

describe("decoding a journal file", () => {
  it("a journal file is named after its plan", () => {
    expect(journalFileName("0lx2-ab_c")).toBe("0lx2-ab_c.journal.json");
  });

  it("reads a journal written by hand in the documented format (docs/journal.md)", () => {
    const plan = { id: "h", kind: "t", phases: [[{ op: "mkdir", path: "/r/d" }]], blobs: {}, reversible: true };
    const sha256 = sha(`{"direction":"forward","plan":{"blobs":{},"id":"h","kind":"t","phases":[[{"op":"mkdir","path":"/r/d"}]],"reversible":true}}`);
    const text = JSON.stringify({ format: "pi-recipes-journal/1", direction: "forward", plan, sha256 });
    expect(decodeJournal(text)).toEqual(E.right({ plan, direction: "forward" }));
    expect(encodeJournal({ plan: plan as Plan, direction: "forward" })).toBe(`${JSON.stringify(JSON.parse(text), null, 1)}\n`);
  });

  it("says why a text is not a journal", () => {
    expect(decodeJournal("{")).toEqual(E.left(expect.stringMatching(/^not JSON \(.+\)$/)));
    expect(decodeJournal('{"format":"pi-recipes-journal/2"}')).toEqual(E.left("not a journal record (wrong format or fields)"));
    const p = plan({ id: "r", kind: "t", phases: [[{ op: "mkdir", path: "/r/d" }]] });
    const text = encodeJournal({ plan: p, direction: "back" });
    expect(JSON.parse(text)).toMatchObject({ format: "pi-recipes-journal/1", direction: "back" });
    expect(decodeJournal(text.replace('"pi-recipes-journal/1"', '"pi-recipes-journal/2"'))).toEqual(E.left("not a journal record (wrong format or fields)"));
    expect(decodeJournal(text)).toEqual(E.right({ plan: p, direction: "back" }));
  });
});

describe("plan contents", () => {
  it("keeps UTF-8 text readable in the plan, and each content once", () => {
    const p = plan({ id: "c", kind: "t", phases: [[{ op: "write", path: "/r/a", before: "same", content: "héllo" }, { op: "write", path: "/r/b", before: null, content: new TextEncoder().encode("same") }]] });
    expect(p.blobs).toEqual({ [sha("héllo")]: { text: "héllo" }, [sha("same")]: { text: "same" } });
    expect(p.reversible).toBe(true);
    expect(new TextDecoder().decode(blobBytes(p.blobs[sha("héllo")]!))).toBe("héllo");
  });

  it("keeps a leading byte order mark: the bytes written back are the bytes planned", () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, 0x68, 0x69]);
    const p = plan({ id: "bom", kind: "t", phases: [[{ op: "write", path: "/r/bom", before: null, content: bytes }]] });
    expect([...blobBytes(p.blobs[sha(bytes)]!)]).toEqual([...bytes]);
  });

  it("a rename or a link names its content by hash only; what a rename replaces is kept", () => {
    const p = plan({
      id: "rl",
      kind: "t",
      phases: [[{ op: "rename", from: "/r/a", to: "/r/b", before: "A", replaced: "B" }, { op: "link", from: "/r/c", to: "/r/d", before: { hash: sha("C") } }]],
    });
    expect(p.phases[0]).toEqual([
      { op: "rename", from: "/r/a", to: "/r/b", before: sha("A"), replaced: sha("B") },
      { op: "link", from: "/r/c", to: "/r/d", before: sha("C") },
    ]);
    expect(Object.keys(p.blobs)).toEqual([sha("B")]);
    expect(p.reversible).toBe(true);
    expect(pathsOf(p)).toEqual(["/r/a", "/r/b", "/r/c", "/r/d"]);
  });

  it("a rename over content known only by hash makes the plan one-way", () => {
    const p = plan({ id: "ow", kind: "t", phases: [[{ op: "rename", from: "/r/a", to: "/r/b", before: "A", replaced: { hash: sha("B") } }]] });
    expect(p.reversible).toBe(false);
    expect(p.blobs).toEqual({});
  });

  it("accepts Windows absolute paths and refuses relative ones on either side of a link", () => {
    expect(E.isRight(buildPlan({ id: "w", kind: "t", phases: [[{ op: "mkdir", path: "C:\\r\\d" }, { op: "mkdir", path: "d:/r/e" }]] }))).toBe(true);
    expect(buildPlan({ id: "w", kind: "t", phases: [[{ op: "link", from: "rel", to: "/r/x", before: "x" }]] })).toEqual(E.left("Journal plan w: path 'rel' is not absolute"));
    expect(buildPlan({ id: "w", kind: "t", phases: [[{ op: "mkdir", path: "C:r" }]] })).toEqual(E.left("Journal plan w: path 'C:r' is not absolute"));
    expect(buildPlan({ id: "w", kind: "t", phases: [[{ op: "mkdir", path: "r/C:/d" }]] })).toEqual(E.left("Journal plan w: path 'r/C:/d' is not absolute"));
    expect(buildPlan({ id: "a b", kind: "t", phases: [] })).toEqual(E.left("Journal plan id 'a b' is not [A-Za-z0-9_-]+"));
  });
});

describe("decide: what cannot be finished or undone", () => {
  const short = (text: string): string => `content ${sha(text).slice(0, 12)}`;

  it("names what a changed path now holds", () => {
    const p = plan({ id: "f", kind: "t", phases: [[{ op: "write", path: "/r/x", before: "old", content: "new" }]] });
    expect(decide({ plan: p, direction: "forward" }, new Map([["/r/x", "dir" as const]]))).toEqual({
      kind: "corrupt",
      reason: `/r/x was changed outside the journal: it is a folder, neither its before (${short("old")}) nor its after (${short("new")}) state`,
    });
  });

  it("a link whose source lost its content, a rename whose content is gone from both names", () => {
    const link = plan({ id: "l", kind: "t", phases: [[{ op: "link", from: "/r/a", to: "/r/b", before: "A" }]] });
    expect(decide({ plan: link, direction: "forward" }, new Map([["/r/a", null]]))).toEqual({ kind: "corrupt", reason: "/r/a no longer holds the content to link (absent)" });
    expect(decide({ plan: link, direction: "forward" }, new Map([["/r/a", sha("A")]]))).toEqual({ kind: "forward", phases: [[{ op: "link", from: "/r/a", to: "/r/b" }]] });
    expect(decide({ plan: link, direction: "forward" }, new Map([["/r/a", sha("A")], ["/r/b", sha("A")]]))).toEqual({ kind: "done" });
    expect(decide({ plan: link, direction: "back" }, new Map([["/r/a", sha("A")], ["/r/b", sha("A")]]))).toEqual({ kind: "back", phases: [[{ op: "unlink", path: "/r/b" }]] });

    const rename = plan({ id: "r", kind: "t", phases: [[{ op: "rename", from: "/r/a", to: "/r/b", before: { hash: sha("A") }, replaced: null }]] });
    expect(decide({ plan: rename, direction: "forward" }, new Map())).toEqual({ kind: "corrupt", reason: "/r/a and /r/b both lost the content being renamed" });
    expect(decide({ plan: rename, direction: "back" }, new Map())).toEqual({ kind: "corrupt", reason: "/r/a and /r/b both lost the content being renamed" });
  });

  it("undoes a rename whose content the plan holds even when both names lost it", () => {
    const rename = plan({ id: "r", kind: "t", phases: [[{ op: "rename", from: "/r/a", to: "/r/b", before: "A", replaced: null }, { op: "write", path: "/r/c", before: null, content: "A" }]] });
    // the plan holds "A" (as the write's content), so the rename's source can be written back
    expect(decide({ plan: rename, direction: "back" }, new Map([["/r/c", sha("A")]]))).toEqual({
      kind: "back",
      phases: [[{ op: "write", path: "/r/a", content: sha("A") }, { op: "unlink", path: "/r/c" }]],
    });
  });

  it("undoes a rename that has not run by restoring only what it would replace", () => {
    const rename = plan({ id: "r", kind: "t", phases: [[{ op: "rename", from: "/r/a", to: "/r/b", before: { hash: sha("A") }, replaced: "B" }]] });
    expect(decide({ plan: rename, direction: "back" }, new Map([["/r/a", sha("A")], ["/r/b", null]]))).toEqual({
      kind: "back",
      phases: [[{ op: "write", path: "/r/b", content: sha("B") }]],
    });
    expect(decide({ plan: rename, direction: "back" }, new Map([["/r/a", sha("A")], ["/r/b", sha("B")]]))).toEqual({ kind: "done" });
  });

  it("undoes a new folder only while it is there", () => {
    const mk = plan({ id: "m", kind: "t", phases: [[{ op: "mkdir", path: "/r/d" }]] });
    expect(decide({ plan: mk, direction: "back" }, new Map([["/r/d", "dir" as const]]))).toEqual({ kind: "back", phases: [[{ op: "rmdir", path: "/r/d" }]] });
    expect(decide({ plan: mk, direction: "back" }, new Map())).toEqual({ kind: "done" });
    expect(decide({ plan: mk, direction: "forward" }, new Map())).toEqual({ kind: "forward", phases: [[{ op: "mkdir", path: "/r/d" }]] });
    expect(decide({ plan: mk, direction: "forward" }, new Map([["/r/d", "dir" as const]]))).toEqual({ kind: "done" });
  });
});

describe("decide: a file to remove", () => {
  const p = plan({ id: "u", kind: "t", phases: [[{ op: "unlink", path: "/r/x", before: "old" }]] });

  it("is removed going forward and put back going back", () => {
    expect(decide({ plan: p, direction: "forward" }, new Map([["/r/x", sha("old")]]))).toEqual({ kind: "forward", phases: [[{ op: "unlink", path: "/r/x" }]] });
    expect(decide({ plan: p, direction: "forward" }, new Map())).toEqual({ kind: "done" });
    expect(decide({ plan: p, direction: "back" }, new Map())).toEqual({ kind: "back", phases: [[{ op: "write", path: "/r/x", content: sha("old") }]] });
    expect(decide({ plan: p, direction: "back" }, new Map([["/r/x", sha("old")]]))).toEqual({ kind: "done" });
  });

  it("is never removed once someone else changed it", () => {
    expect(decide({ plan: p, direction: "forward" }, new Map([["/r/x", sha("edited")]]))).toMatchObject({ kind: "corrupt", reason: expect.stringMatching(/^\/r\/x was changed outside the journal/) });
  });
});

describe("decide: a special file where the plan expects a regular one", () => {
  it("reports it as not a regular file", () => {
    const p = plan({ id: "o", kind: "t", phases: [[{ op: "write", path: "/r/x", before: null, content: "x" }]] });
    expect(decide({ plan: p, direction: "forward" }, new Map([["/r/x", "other" as const]]))).toEqual({
      kind: "corrupt",
      reason: `/r/x was changed outside the journal: it is not a regular file, neither its before (absent) nor its after (content ${sha("x").slice(0, 12)}) state`,
    });
  });
});

describe("decide: a second name for a file", () => {
  it("is never made over a file someone else put there", () => {
    const p = plan({ id: "k", kind: "t", phases: [[{ op: "link", from: "/r/a", to: "/r/b", before: "A" }]] });
    expect(decide({ plan: p, direction: "forward" }, new Map([["/r/a", sha("A")], ["/r/b", sha("someone else's")]]))).toMatchObject({
      kind: "corrupt",
      reason: expect.stringMatching(/^\/r\/b was changed outside the journal/),
    });
  });
});

describe("decide: a new folder", () => {
  it("is never made where someone else put a file", () => {
    const p = plan({ id: "m", kind: "t", phases: [[{ op: "mkdir", path: "/r/d" }]] });
    expect(decide({ plan: p, direction: "forward" }, new Map([["/r/d", sha("a file")]]))).toEqual({
      kind: "corrupt",
      reason: `/r/d was changed outside the journal: it is content ${sha("a file").slice(0, 12)}, neither its before (absent) nor its after (a folder) state`,
    });
  });
});

describe("decide: undoing a rename that replaced nothing", () => {
  it("only moves the file back", () => {
    const p = plan({ id: "n", kind: "t", phases: [[{ op: "rename", from: "/r/a", to: "/r/b", before: "A", replaced: null }]] });
    expect(decide({ plan: p, direction: "back" }, new Map([["/r/b", sha("A")]]))).toEqual({ kind: "back", phases: [[{ op: "rename", from: "/r/b", to: "/r/a" }]] });
  });
});

describe("a journal record written with a good hash over a malformed plan", () => {
  it("round-trips every kind of step and blob", () => {
    const p = plan({
      id: "all",
      kind: "t",
      phases: [[
        { op: "write", path: "/r/w", before: null, content: new Uint8Array([0xff, 0x00]) },
        { op: "unlink", path: "/r/u", before: "U" },
        { op: "rename", from: "/r/a", to: "/r/b", before: "A", replaced: "B" },
        { op: "link", from: "/r/c", to: "/r/d", before: "C" },
        { op: "mkdir", path: "/r/m" },
      ]],
    });
    expect(decodeJournal(encodeJournal({ plan: p, direction: "forward" }))).toEqual(E.right({ plan: p, direction: "forward" }));
  });

  it("is refused step by step", () => {
    const good = plan({ id: "g", kind: "t", phases: [[{ op: "mkdir", path: "/r/m" }]] });
    const resealed = (plan: unknown): string => {
      const journal = { plan, direction: "forward" } as unknown as Parameters<typeof journalHash>[0];
      return JSON.stringify({ format: "pi-recipes-journal/1", direction: "forward", plan, sha256: journalHash(journal) });
    };
    for (const step of [
      { op: "write", path: "/r/x", before: null },
      { op: "unlink", path: "/r/x" },
      { op: "rename", from: "/r/a", to: "/r/b", before: "h" },
      { op: "link", from: "/r/a", before: "h" },
      { op: "mkdir" },
      { op: "chmod", path: "/r/x" },
    ]) {
      expect(decodeJournal(resealed({ ...good, phases: [[step]] })), JSON.stringify(step)).toEqual(E.left("not a journal record (wrong format or fields)"));
    }
    expect(decodeJournal(resealed({ ...good, blobs: { h: { data: "x" } } }))).toEqual(E.left("not a journal record (wrong format or fields)"));
    expect(decodeJournal(resealed({ ...good, blobs: { h: { text: 1 } } }))).toEqual(E.left("not a journal record (wrong format or fields)"));
    expect(E.isRight(decodeJournal(resealed(good)))).toBe(true);
  });
});

describe("decide: undoing a rename over a file someone else changed", () => {
  it("never overwrites the foreign file", () => {
    const p = plan({ id: "f", kind: "t", phases: [[{ op: "rename", from: "/r/a", to: "/r/b", before: "A", replaced: "B" }]] });
    expect(decide({ plan: p, direction: "back" }, new Map([["/r/a", sha("A")], ["/r/b", sha("foreign")]]))).toMatchObject({
      kind: "corrupt",
      reason: expect.stringMatching(/^\/r\/b was changed outside the journal/),
    });
  });
});
