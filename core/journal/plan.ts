// A journal plan: a multi-file mutation written down as data before any file changes, so that a
// crash at any point can be finished (rolled forward) or undone (rolled back) by a later process.
//
// The model is per path. Every path a plan changes is changed by exactly one step, and every step
// says what the path holds before and after it, as a content hash (or "absent", or "a folder").
// A path's state on disk therefore tells, on its own, whether its step has run: equal to the
// after state means done, equal to the before state means not yet, anything else means someone
// else changed the file and the plan stops (it never overwrites a foreign edit). Steps are
// grouped in phases: the steps of one phase touch distinct paths and may run in any order or at
// once; a phase is durable (files and folders fsynced) before the next one starts.
//
// Content travels in the plan: a write carries its bytes in `blobs`, keyed by their hash. A step
// can be undone only when the plan also holds what it overwrites or removes (`reversible`).
// See docs/journal.md for the on-disk format and the guarantees.
import * as E from "fp-ts/lib/Either.js";
import type { Json } from "../model.js";
import { canonicalJson } from "../ledger/canonical.js";
import { sha256Hex } from "../ledger/sha256.js";

/** lowercase hex SHA-256 of a file's bytes */
export type ContentHash = string;

/** What a path holds: a regular file with this content hash, nothing (`null`) or a folder. */
export type PathState = ContentHash | null | "dir";

export const ABSENT = null;
export const FOLDER = "dir";

export type Step =
  /** `path` goes from `before` to the content `after` (its bytes are `blobs[after]`) */
  | { readonly op: "write"; readonly path: string; readonly before: ContentHash | null; readonly after: ContentHash }
  /** the file at `path` (content `before`) goes */
  | { readonly op: "unlink"; readonly path: string; readonly before: ContentHash }
  /** the file `from` (content `before`) moves to `to`, replacing what `to` held (`replaced`) */
  | { readonly op: "rename"; readonly from: string; readonly to: string; readonly before: ContentHash; readonly replaced: ContentHash | null }
  /** a second name `to` (absent before) for the file `from` (content `before`, unchanged) */
  | { readonly op: "link"; readonly from: string; readonly to: string; readonly before: ContentHash }
  /** a new, empty folder */
  | { readonly op: "mkdir"; readonly path: string };

/** File content kept in a plan: UTF-8 text as is, any other bytes as base64. */
export type Blob = { readonly text: string } | { readonly base64: string };

export interface Plan {
  /** unique among the plans of one journal folder; [A-Za-z0-9_-]+ (it names the journal file) */
  readonly id: string;
  /** what the plan is for, e.g. "ledger-commit"; shown in reports */
  readonly kind: string;
  /** applied in order; each phase durable before the next */
  readonly phases: readonly (readonly Step[])[];
  /** content by hash: every write's after content, and the before content of what the plan
   *  overwrites or removes when the caller provided it */
  readonly blobs: Readonly<Record<ContentHash, Blob>>;
  /** every step can be undone from the blobs (an in-process failure then rolls back) */
  readonly reversible: boolean;
}

/** A plan's content hash: SHA-256 of its canonical JSON. Recovery refuses a journal whose plan
 *  does not match the hash stored beside it. */
export const planHash = (plan: Plan): ContentHash => sha256Hex(canonicalJson(plan as unknown as Json));

/** Content the caller knows: bytes (kept in the plan) or only its hash (not kept). */
export type Known = Uint8Array | string | { readonly hash: ContentHash };

/** One step as the caller describes it; `buildPlan` hashes and stores the contents. */
export type StepInput =
  | { readonly op: "write"; readonly path: string; readonly before: Known | null; readonly content: Uint8Array | string }
  | { readonly op: "unlink"; readonly path: string; readonly before: Known }
  | { readonly op: "rename"; readonly from: string; readonly to: string; readonly before: Known; readonly replaced: Known | null }
  | { readonly op: "link"; readonly from: string; readonly to: string; readonly before: Known }
  | { readonly op: "mkdir"; readonly path: string };

export interface PlanInput {
  readonly id: string;
  readonly kind: string;
  readonly phases: readonly (readonly StepInput[])[];
}

/**
 * Builds a plan, or says why the steps do not form one: a bad id, a relative path, or a path
 * changed by two steps (a path's state must identify its step).
 */
export function buildPlan(input: PlanInput): E.Either<string, Plan> {
  void input;
  throw new Error("not implemented");
}

/** Every path the plan reads or changes, sorted: what recovery observes before it decides. */
export function pathsOf(plan: Plan): readonly string[] {
  void plan;
  throw new Error("not implemented");
}
