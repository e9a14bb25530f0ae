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
import { sha256Hex } from "../ledger/sha256.js";

/** lowercase hex SHA-256 of a file's bytes */
export type ContentHash = string;

/** What a path holds: a regular file with this content hash, nothing (`null`) or a folder. */
export type PathState = ContentHash | null | "dir";

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
  /** the folder the plan is confined to: every path it reads or changes lies below it, and
   *  no folder between it and a path is a symlink (runtime/journal checks that on disk before the
   *  plan is first applied and again before a recovery replays it). Absent: not confined. */
  readonly root?: string;
}

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
  /** see Plan.root */
  readonly root?: string;
}

const ID = /^[A-Za-z0-9_-]+$/;

const plainParts = (parts: readonly string[]): boolean => parts.every((p) => p !== "" && p !== "." && p !== "..");
/** an absolute POSIX folder path without `.`, `..` or empty parts (so no trailing `/`): walking
 *  up from a path below it by dirname reaches it */
export const plainRoot = (root: string): boolean => root.startsWith("/") && root.length > 1 && plainParts(root.slice(1).split("/"));
/** `path` lies below `root` by its text alone: no `..` can lead it out, no `.` or `//` hides a part */
export const plainBelow = (root: string, path: string): boolean => path.startsWith(`${root}/`) && plainParts(path.slice(root.length + 1).split("/"));
const isAbsolute = (path: string): boolean => path.startsWith("/") || /^[A-Za-z]:[\\/]/.test(path);

const utf8 = new TextEncoder();
const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

const bytesOf = (data: Uint8Array | string): Uint8Array => (typeof data === "string" ? utf8.encode(data) : data);

/** Bytes as a blob: text when they are UTF-8 (so a journal stays readable), else base64. */
export function toBlob(bytes: Uint8Array): Blob {
  try {
    return { text: strictUtf8.decode(bytes) };
  } catch {
    let binary = "";
    for (const b of bytes) binary += String.fromCharCode(b);
    return { base64: btoa(binary) };
  }
}

export function blobBytes(blob: Blob): Uint8Array {
  if ("text" in blob) return utf8.encode(blob.text);
  const binary = atob(blob.base64);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

/** The paths a step changes (a link's source and a rename's content are only read). */
export function changedPaths(step: Step): readonly string[] {
  switch (step.op) {
    case "rename":
      return [step.from, step.to];
    case "link":
      return [step.to];
    default:
      return [step.path];
  }
}

const readPaths = (step: Step): readonly string[] => (step.op === "link" ? [step.from] : []);

/** Why steps do not form a plan (`planErrorText` says it in words). */
export type PlanError =
  | { readonly _tag: "BadPlanId"; readonly id: string }
  | { readonly _tag: "RelativePath"; readonly id: string; readonly path: string }
  | { readonly _tag: "ChangedTwice"; readonly id: string; readonly path: string }
  | { readonly _tag: "LinkedAndChanged"; readonly id: string; readonly path: string }
  | { readonly _tag: "OutsideRoot"; readonly id: string; readonly path: string; readonly root: string }
  | { readonly _tag: "BadRoot"; readonly id: string; readonly root: string };

export function planErrorText(e: PlanError): string {
  switch (e._tag) {
    case "BadPlanId":
      return `Journal plan id '${e.id}' is not [A-Za-z0-9_-]+`;
    case "RelativePath":
      return `Journal plan ${e.id}: path '${e.path}' is not absolute`;
    case "ChangedTwice":
      return `Journal plan ${e.id}: ${e.path} is changed by two steps`;
    case "LinkedAndChanged":
      return `Journal plan ${e.id}: ${e.path} is linked from and changed`;
    case "OutsideRoot":
      return `Journal plan ${e.id}: ${e.path} is not a plain path below the folder the plan is confined to, ${e.root}`;
    case "BadRoot":
      return `Journal plan ${e.id}: the folder it is confined to, '${e.root}', is not an absolute path without '.', '..' or empty parts`;
  }
}

/**
 * Builds a plan, or says why the steps do not form one: a bad id, a relative path, a path
 * changed by two steps (a path's state must identify its step), or a path outside the root the
 * plan is confined to.
 */
export function buildPlan(input: PlanInput): E.Either<PlanError, Plan> {
  const { id } = input;
  if (!ID.test(id)) return E.left({ _tag: "BadPlanId", id });
  if (input.root !== undefined && !plainRoot(input.root)) return E.left({ _tag: "BadRoot", id, root: input.root });
  const blobs: Record<ContentHash, Blob> = {};
  let reversible = true;
  const keep = (data: Uint8Array | string): ContentHash => {
    const bytes = bytesOf(data);
    const hash = sha256Hex(bytes);
    blobs[hash] ??= toBlob(bytes);
    return hash;
  };
  /** the hash of content the plan may have to put back; unknown bytes make the plan one-way */
  const known = (k: Known): ContentHash => {
    if (typeof k === "string" || k instanceof Uint8Array) return keep(k);
    reversible = false;
    return k.hash;
  };
  const knownOrAbsent = (k: Known | null): ContentHash | null => (k === null ? null : known(k));
  const hashOnly = (k: Known): ContentHash => (typeof k === "string" || k instanceof Uint8Array ? sha256Hex(bytesOf(k)) : k.hash);
  const phases = input.phases.map((phase) =>
    phase.map((s): Step => {
      switch (s.op) {
        case "write":
          return { op: "write", path: s.path, before: knownOrAbsent(s.before), after: keep(s.content) };
        case "unlink":
          return { op: "unlink", path: s.path, before: known(s.before) };
        case "rename":
          return { op: "rename", from: s.from, to: s.to, before: hashOnly(s.before), replaced: knownOrAbsent(s.replaced) };
        case "link":
          return { op: "link", from: s.from, to: s.to, before: hashOnly(s.before) };
        case "mkdir":
          return { op: "mkdir", path: s.path };
      }
    }),
  );
  const changed = new Set<string>();
  for (const step of phases.flat()) {
    for (const path of [...changedPaths(step), ...readPaths(step)]) {
      if (!isAbsolute(path)) return E.left({ _tag: "RelativePath", id, path });
      if (input.root !== undefined && !plainBelow(input.root, path)) return E.left({ _tag: "OutsideRoot", id, path, root: input.root });
    }
    for (const path of changedPaths(step)) {
      if (changed.has(path)) return E.left({ _tag: "ChangedTwice", id, path });
      changed.add(path);
    }
  }
  for (const step of phases.flat()) {
    for (const path of readPaths(step)) if (changed.has(path)) return E.left({ _tag: "LinkedAndChanged", id, path });
  }
  return E.right(input.root === undefined ? { id, kind: input.kind, phases, blobs, reversible } : { id, kind: input.kind, phases, blobs, reversible, root: input.root });
}

/** Every path the plan reads or changes, sorted: what recovery observes before it decides. */
export function pathsOf(plan: Plan): readonly string[] {
  return [...new Set(plan.phases.flat().flatMap((s) => [...changedPaths(s), ...readPaths(s)]))].sort();
}
