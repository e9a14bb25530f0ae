// A store of earlier compiles that the runtime may offer discovery (a verified on-disk cache):
// the compile step's result for one recipe file, and the paths its resolution read. The runtime
// answers `lookup` only when it has verified that the file and every path read are unchanged;
// discovery hands each fresh compile to `store`. The compile result is plain data, so it is stored
// as it is.
import type { SnapshotFile } from "../model.js";
import type { CompiledRecipe, RecipeSource } from "../compile/compile-recipe.js";

export interface StoredCompile {
  readonly compiled: CompiledRecipe;
  /** every path the resolution asked for, in order (found or not) */
  readonly readPaths: readonly string[];
}

export interface CompileHook {
  lookup(source: RecipeSource): StoredCompile | undefined;
  store(file: SnapshotFile, stored: StoredCompile): void;
  /** a draft (never stored) whose compile read these paths: what the result then depends on
   *  besides the draft's own bytes (the runtime's whole-root snapshot records it) */
  draftRead?(file: SnapshotFile, readPaths: readonly string[]): void;
}
