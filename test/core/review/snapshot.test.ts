// Revision snapshots as a rollback reads them: the ring of 32 slots per lineage (revision 33 takes
// revision 1's file), and a snapshot file is believed only when it is a snapshot of exactly the
// lineage and revision asked for, its content has its recorded digest and its extension is one a
// recipe can have. Anything else, a rotated slot or a tampered file, is refused with one text and
// never throws.
import { describe, expect, it } from "vitest";
import { toBlob } from "../../../core/journal/plan.js";
import { sha256Hex } from "../../../core/ledger/sha256.js";
import { SNAPSHOT_SLOTS, SNAPSHOT_TYPE, snapshotBytes, snapshotOf, snapshotPath, snapshotSlot } from "../../../core/review/snapshot.js";
import type { LedgerRecord } from "../../../core/ledger/codec.js";

const REFUSED = "Invalid or rotated recipe revision snapshot.";
const utf8 = new TextEncoder();

function snapshotFile(bytes: Uint8Array, over: Record<string, unknown> = {}): Record<string, unknown> {
  const record = { lineage_name: "deploy", revision: 3, fingerprint: "f" } as unknown as LedgerRecord;
  const snap = snapshotOf({ record, bytes, path: "/home/u/.pi/agent/recipes/deploy.json", sha256: sha256Hex(bytes), reviewId: "r-1", at: "t" });
  return { ...JSON.parse(JSON.stringify(snap)), ...over };
}

describe("the snapshot ring", () => {
  it("has 32 slots per lineage; revision 33 reuses revision 1's file, 34 revision 2's", () => {
    expect(SNAPSHOT_SLOTS).toBe(32);
    expect([1, 2, 32, 33, 34, 65].map(snapshotSlot)).toEqual([1, 2, 32, 1, 2, 1]);
    expect(snapshotPath("/u", "deploy", 33)).toBe(snapshotPath("/u", "deploy", 1));
    expect(snapshotPath("/u", "deploy", 2)).toBe("/u/revisions/deploy/2.json");
  });
});

describe("reading a snapshot back", () => {
  const bytes = utf8.encode('{"template":"echo hi"}\n');

  it("gives the exact bytes of a text snapshot and of a binary one", () => {
    const text = snapshotBytes(snapshotFile(bytes), "deploy", 3);
    expect(text).toMatchObject({ bytes, snapshot: { type: SNAPSHOT_TYPE, extension: ".json" } });
    const binary = new Uint8Array([0xff, 0xfe, 0x00, 0x41]);
    expect(toBlob(binary)).toHaveProperty("base64");
    expect(snapshotBytes(snapshotFile(binary), "deploy", 3)).toMatchObject({ bytes: binary });
  });

  it("refuses what is not a snapshot of this lineage and revision", () => {
    for (const raw of [null, [], "x", { ...snapshotFile(bytes), content: null }]) expect(snapshotBytes(raw, "deploy", 3)).toBe(REFUSED);
    expect(snapshotBytes(snapshotFile(bytes, { type: "recipe_snapshot" }), "deploy", 3)).toBe(REFUSED);
    expect(snapshotBytes(snapshotFile(bytes), "other", 3)).toBe(REFUSED);
    // a rotated slot: the file holds revision 3, revision 35 was asked for
    expect(snapshotBytes(snapshotFile(bytes), "deploy", 35)).toBe(REFUSED);
  });

  it("refuses content that is not text or base64, or whose digest does not match", () => {
    // a number as the text would otherwise be read as the text "5"
    expect(snapshotBytes(snapshotFile(bytes, { content: { text: 5 }, sha256: sha256Hex("5") }), "deploy", 3)).toBe(REFUSED);
    expect(snapshotBytes(snapshotFile(bytes, { content: { base64: "a" } }), "deploy", 3)).toBe(REFUSED);
    expect(snapshotBytes(snapshotFile(bytes, { sha256: sha256Hex("other") }), "deploy", 3)).toBe(REFUSED);
  });

  it("refuses an extension a recipe cannot have", () => {
    expect(snapshotBytes(snapshotFile(bytes, { extension: ".md" }), "deploy", 3)).not.toBe(REFUSED);
    for (const extension of ["x.json", ".jsonx", ".json.bak", "json", 7]) expect(snapshotBytes(snapshotFile(bytes, { extension }), "deploy", 3)).toBe(REFUSED);
  });
});
