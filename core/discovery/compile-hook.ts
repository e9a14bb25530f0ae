// A store of earlier compiles that the runtime may offer discovery (a verified on-disk cache):
// what loading, resolving and checking one recipe file produced, and the paths that resolution
// read. The runtime answers `lookup` only when it has verified that the file and every path read
// are unchanged; discovery hands each fresh compile to `store`.
import type { RecipeConfig, RecipeProblem, SnapshotFile } from "../model.js";
import type { TemplateSurvey } from "../recipe/survey.js";

export interface StoredCompile {
  readonly config?: RecipeConfig;
  readonly problem?: RecipeProblem;
  readonly survey?: TemplateSurvey;
  /** sha256 (hex) of the bytes compiled */
  readonly sourceSha256?: string;
  /** every path the resolution asked for, in order (found or not) */
  readonly readPaths: readonly string[];
}

export interface CompileHook {
  lookup(file: SnapshotFile): StoredCompile | undefined;
  store(file: SnapshotFile, compiled: StoredCompile): void;
}
