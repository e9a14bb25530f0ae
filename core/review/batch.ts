// Which drafts an automatic review takes, and the immutable batch it captures. Twelve eligible
// drafts make a batch: the first twelve in file-name order (`.json` before `.md` of the same stem).
// Drafts that touch secrets are never reviewed (they stay for the operator), nor are drafts whose
// current content a review already demoted. Newer drafts wait for the next batch.
import type { Json, JsonObject } from "../model.js";
import { canonicalJson } from "../ledger/canonical-json.js";
import { sha256Hex } from "../ledger/sha256.js";
import { findUnsafe, secretReason } from "./unsafe.js";
import { toolNameFor } from "./names.js";
import { compareText } from "../text-order.js";

export const BATCH_SIZE = 12;

/** A draft as the runtime found it. `recipe` is the raw object when the draft loads. */
export interface DraftCandidate {
  readonly path: string;
  /** the file name without `.json`/`.md` */
  readonly stem: string;
  readonly sha256: string;
  readonly valid: boolean;
  readonly riskLabels: readonly string[];
  readonly recipe?: JsonObject;
  readonly usage?: LineageUsage;
}

export interface LineageUsage {
  readonly lifetime_calls: number;
  readonly revision: number;
  readonly revision_calls: number;
  readonly fingerprint?: string;
  readonly demoted_fingerprint?: string;
}

export interface BatchDraft {
  /** the opaque id the reviewer sees: draft_01 … */
  readonly occurrence: string;
  readonly path: string;
  readonly stem: string;
  readonly sha256: string;
  readonly valid: boolean;
  /** valid, with a template, and nothing unsafe in it: the only drafts that may be promoted */
  readonly promotable: boolean;
  readonly unsafe?: string;
  readonly riskLabels: readonly string[];
  readonly recipe?: JsonObject;
  readonly usage: { readonly lifetime_calls: number; readonly revision: number; readonly revision_calls: number };
  /** the tool name a promotion gets when the reviewer names none */
  readonly suggestedName: string;
}

export interface Batch {
  readonly batchId: string;
  readonly createdAt: string;
  readonly drafts: readonly BatchDraft[];
  /** names of the tools that exist when the batch is captured (targets must avoid them) */
  readonly activeTools: readonly string[];
  /** names whose usage lineage outlives their tool (deleted, its history kept): a promotion there
   *  would continue that history, and the draft's own launches would not come along */
  readonly formerNames?: readonly string[];
}

// every draft sits directly in the drafts folder, so two drafts' paths differ in their file names
// only: a path sorts as its name does (a `.md` right after the `.json` of the same stem)
const sortKey = (path: string): string => (path.endsWith(".md") ? `${path.slice(0, -3)}.json\u0001` : path);

export const byFileName = (a: { path: string }, b: { path: string }): number => compareText(sortKey(a.path), sortKey(b.path));

const count = (n: unknown): number => (typeof n === "number" && Number.isFinite(n) && n >= 0 ? Math.floor(n) : 0);

/** True when the draft may enter a batch. */
export function isEligible(d: DraftCandidate): boolean {
  // a draft that does not load still carries its risk labels: the empty recipe holds no secret,
  // so only the labels decide for it
  if (secretReason(d.recipe ?? {}, d.riskLabels) !== undefined) return false;
  const u = d.usage;
  return !(u?.demoted_fingerprint !== undefined && u.demoted_fingerprint === u.fingerprint);
}

export const eligibleDrafts = (candidates: readonly DraftCandidate[]): DraftCandidate[] => candidates.filter(isEligible).sort(byFileName);

const occurrence = (i: number): string => `draft_${String(i + 1).padStart(2, "0")}`;

/** Why an automatic review may not make a tool of a draft that opts out of confinement: with
 *  `PI_RECIPES_SANDBOX=on` every other tool runs confined, and a person, not a review, decides
 *  that one may not (register_tool refuses it then too). */
export const UNCONFINED_DRAFT = 'it says "sandbox": false, and an automatic review makes no tool that runs unconfined';

function batchDraft(d: DraftCandidate, i: number): BatchDraft {
  const unsafe = d.recipe === undefined ? undefined : (findUnsafe(d.recipe)?.reason ?? (d.recipe["sandbox"] === false ? UNCONFINED_DRAFT : undefined));
  const complete = d.valid && d.recipe !== undefined && d.recipe["template"] !== undefined;
  return {
    occurrence: occurrence(i),
    path: d.path,
    stem: d.stem,
    sha256: d.sha256,
    valid: d.valid,
    promotable: complete && unsafe === undefined,
    ...(unsafe === undefined ? {} : { unsafe }),
    riskLabels: [...d.riskLabels],
    ...(d.valid && d.recipe !== undefined ? { recipe: d.recipe } : {}),
    usage: { lifetime_calls: count(d.usage?.lifetime_calls), revision: count(d.usage?.revision), revision_calls: count(d.usage?.revision_calls) },
    suggestedName: toolNameFor(d.stem),
  };
}

/** The batch to review now, or undefined while fewer than twelve drafts are eligible. */
export function captureBatch(
  candidates: readonly DraftCandidate[],
  activeTools: readonly string[],
  batchId: string,
  createdAt: string,
  formerNames: readonly string[] = [],
): Batch | undefined {
  const eligible = eligibleDrafts(candidates);
  if (eligible.length < BATCH_SIZE) return undefined;
  const active = [...new Set(activeTools)].sort();
  const former = [...new Set(formerNames)].filter((n) => !active.includes(n)).sort();
  return { batchId, createdAt, drafts: eligible.slice(0, BATCH_SIZE).map(batchDraft), activeTools: active, ...(former.length === 0 ? {} : { formerNames: former }) };
}

/** The batch's identity: a digest of its canonical JSON, kept in the admission state. */
export const batchSha256 = (batch: Batch): string => sha256Hex(canonicalJson(batch as unknown as Json));
