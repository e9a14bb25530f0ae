// The records a discovery pass builds and the next pass reuses: a file's candidacy for an id
// (candidates.ts), its compiled recipe (compile-pass.ts), an id's resolved bucket (buckets.ts) and
// the whole resolution (resolution.ts). They refer to one another, so they live here together and
// the modules that build them import only this one, not each other.
import type * as E from "fp-ts/lib/Either.js";
import type { RecipeFormat, SnapshotFile, SourceListing } from "../model.js";
import type { CompiledRecipe } from "../compile/compile-recipe.js";
import type { NotATool, ToolSpec } from "../tool/tool-spec.js";
import type { ConfigFacts, Discovery, RecipeEntry } from "./discovery-result.js";

export interface Candidate {
  readonly id: string;
  readonly format: RecipeFormat;
  readonly file: SnapshotFile;
  /** index of the source in the snapshot (0 = highest priority) */
  readonly priority: number;
  /** path with `.md` rewritten to `.json`, the listing sort key */
  readonly key: string;
  /** the pass that last listed this candidate */
  mark: number;
  /** the file's loaded recipe (compile-pass.ts) */
  loaded?: LoadedRecipe;
  /** the bucket this candidate won, as resolved last time (discover.ts) */
  bucket?: BucketMemo;
}

/** Each path a resolution asked for, with the listed file it got (undefined: not in any listing). */
export type Reads = readonly (readonly [string, SnapshotFile | undefined])[];

/** One recipe file, compiled, with the reads its resolution made. */
export interface LoadedRecipe {
  readonly file: SnapshotFile;
  readonly reads: Reads;
  readonly compiled: CompiledRecipe;
  /** the listed config fields of a loadable recipe (types.ts ConfigFacts) */
  readonly facts?: ConfigFacts;
  /** the tool it becomes if it wins its id in a tool source (enabled, valid recipes only) */
  readonly tool?: E.Either<NotATool, ToolSpec>;
}

export interface BucketMemo {
  readonly members: readonly Candidate[];
  /** what each member was when the bucket was resolved: its loaded recipe and its source, side by
   *  side (member i at 2i and 2i + 1; one list rather than two, for 10,000 buckets) */
  readonly seen: readonly (LoadedRecipe | SourceListing | undefined)[];
  readonly entries: readonly RecipeEntry[];
  /** the bucket's part of the registry diagnostics, in order */
  readonly diagnostics: readonly string[];
  readonly tool?: ToolSpec;
}

/** One id's candidates: a single candidate, or several in priority order. */
export type Group = Candidate | Candidate[];

export interface Slot {
  group: Group;
  bucket: BucketMemo;
  /** index of the bucket's first entry in `entries` */
  readonly start: number;
}

export interface Resolution {
  readonly sources: readonly SourceListing[];
  /** id -> slot, in order of first appearance; patched in place by the next pass */
  readonly slots: Map<string, Slot>;
  readonly rootDiagnostics: readonly string[];
  /** candidates whose resolution read other files: checked again on every pass */
  readonly readers: Set<Candidate>;
  readonly result: Omit<Discovery, "drafts" | "unlisted">;
}
