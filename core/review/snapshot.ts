// Revision snapshots: the exact bytes of a tool's revision, kept so an operator can roll the tool
// back to it. A lineage keeps a ring of SNAPSHOT_SLOTS files, `<usage>/revisions/<lineage>/<slot>.json`
// with slot = ((revision − 1) mod SNAPSHOT_SLOTS) + 1, so revision 33 takes revision 1's place: the
// ring is bounded and a rotated slot no longer answers for the old revision (the snapshot names
// the revision it holds). A snapshot is written whenever a portfolio review passes a revision.
import { blobBytes, toBlob, type Blob } from "../journal/plan.js";
import type { LedgerRecord } from "../ledger/codec.js";
import { sha256Hex } from "../ledger/sha256.js";
import { ledgerFileName } from "../ledger/keys.js";

export const SNAPSHOT_SLOTS = 32;
export const SNAPSHOT_TYPE = "recipe_revision_snapshot";

export const snapshotSlot = (revision: number): number => ((revision - 1) % SNAPSHOT_SLOTS) + 1;

/** the folder of a lineage's ring (named like its ledger file, without `.json`) */
export const snapshotDir = (usageRoot: string, lineage: string): string => `${usageRoot}/revisions/${ledgerFileName(lineage).slice(0, -5)}`;

export const snapshotPath = (usageRoot: string, lineage: string, revision: number): string => `${snapshotDir(usageRoot, lineage)}/${snapshotSlot(revision)}.json`;

export interface RevisionSnapshot {
  readonly type: typeof SNAPSHOT_TYPE;
  readonly lineage_name: string;
  readonly revision: number;
  readonly fingerprint: string;
  /** the file's extension (`.json`, `.md`): a rollback restores the same format */
  readonly extension: string;
  readonly sha256: string;
  readonly content: Blob;
  readonly review_id: string;
  readonly created_at: string;
}

export function snapshotOf(input: { record: LedgerRecord; bytes: Uint8Array; path: string; sha256: string; reviewId: string; at: string }): RevisionSnapshot {
  return {
    type: SNAPSHOT_TYPE,
    lineage_name: input.record.lineage_name,
    revision: input.record.revision,
    fingerprint: input.record.fingerprint,
    // a tool's path always ends in `.json` or `.md`: its last dot starts the extension
    extension: input.path.slice(input.path.lastIndexOf(".")),
    sha256: input.sha256,
    content: toBlob(input.bytes),
    review_id: input.reviewId,
    created_at: input.at,
  };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The snapshot's bytes when the file is a snapshot of exactly this lineage and revision whose
 * content still has its recorded digest; otherwise why not (a rotated slot, a tampered file).
 */
export function snapshotBytes(raw: unknown, lineage: string, revision: number, sha256Of: (b: Uint8Array) => string = (b) => sha256Hex(b)): { bytes: Uint8Array; snapshot: RevisionSnapshot } | string {
  if (!isObject(raw) || raw["type"] !== SNAPSHOT_TYPE || !isObject(raw["content"])) return "Invalid or rotated recipe revision snapshot.";
  if (raw["lineage_name"] !== lineage || raw["revision"] !== revision) return "Invalid or rotated recipe revision snapshot.";
  const content = raw["content"];
  if (typeof content["text"] !== "string" && typeof content["base64"] !== "string") return "Invalid or rotated recipe revision snapshot.";
  let bytes: Uint8Array;
  try {
    bytes = blobBytes(content as Blob);
  } catch {
    return "Invalid or rotated recipe revision snapshot.";
  }
  if (sha256Of(bytes) !== raw["sha256"] || typeof raw["extension"] !== "string" || !/^\.(json|md)$/.test(raw["extension"])) return "Invalid or rotated recipe revision snapshot.";
  return { bytes, snapshot: raw as unknown as RevisionSnapshot };
}
