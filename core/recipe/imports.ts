// Resolving a loaded recipe against the files it refers to: imports are loaded recursively,
// import references substituted, import nodes expanded and recipe references delegated. Pure: files come from an injected reader.
import * as E from "fp-ts/lib/Either.js";
import type { RecipeConfig, RecipeProblem, SnapshotFile } from "../model.js";
import { type ImportBinding, parseBindings } from "./bindings.js";
import { decodeRecipeObject } from "./decode.js";
import { type ExpandEnv, type ImportedRecipe, expandTemplate } from "./expand.js";
import { loadRecipe } from "./load.js";
import { dirname, formatOfPath, idOfPath, resolveAgainst } from "./posix.js";
import { overlay, setOwn } from "./own.js";
import { substituteReferences } from "./references.js";
import { type PathContext, recipeReference, resolveRecipePath } from "./resolve-path.js";
import { finishConfig } from "./resolved-config.js";

export const IMPORT_DEPTH_LIMIT = 32;

export interface ResolveContext {
  /** a file by absolute path, or undefined when there is none (a Map in tests, a cached reader at runtime) */
  readonly readFile: (path: string) => SnapshotFile | undefined;
  readonly agentDir: string;
  readonly home: string;
  readonly cwd: string;
  /** the user recipe root (ROOT) */
  readonly userRoot: string;
  readonly packagedRoot?: string;
  /** absolute paths of the recipes that import this one, outermost first (empty for a discovered recipe) */
  readonly stack?: readonly string[];
}

interface Resolved {
  readonly config: RecipeConfig;
  /** the longest chain of recipe files this one loads, itself included */
  readonly height: number;
}

/** One top-level resolution: successes are shared so that diamond-shaped imports load once.
 * Most recipes load no other file: what only a dependency needs is created with the first one. */
interface Session {
  readonly ctx: ResolveContext;
  readonly paths: PathContext;
  /** the stack the top-level recipe is resolved on behalf of (its own result is never shared:
   * any file reaching it again is a cycle) */
  base: readonly string[];
  done: Map<string, Resolved> | undefined;
  /** every recipe file the resolution loaded or tried to load, in first-use order */
  touched: Set<string> | undefined;
}

const failed = (message: string): RecipeProblem => ({ kind: "failed", message });

const NO_STACK: readonly string[] = Object.freeze([]);

function session(ctx: ResolveContext): Session {
  const exists = (path: string): boolean => ctx.readFile(path) !== undefined;
  const paths: PathContext = ctx.packagedRoot === undefined
    ? { agentDir: ctx.agentDir, home: ctx.home, cwd: ctx.cwd, userRoot: ctx.userRoot, exists }
    : { agentDir: ctx.agentDir, home: ctx.home, cwd: ctx.cwd, userRoot: ctx.userRoot, packagedRoot: ctx.packagedRoot, exists };
  return { ctx, paths, base: NO_STACK, done: undefined, touched: undefined };
}

const chain = (path: string, stack: readonly string[]): string => [...stack, path].join(" -> ");

const cycle = (path: string, stack: readonly string[]): RecipeProblem | undefined =>
  stack.includes(path) ? failed(`Cyclic recipe import: ${chain(path, stack)}`) : undefined;

const tooDeep = (path: string, stack: readonly string[]): RecipeProblem | undefined =>
  stack.length >= IMPORT_DEPTH_LIMIT ? failed(`Recipe import depth exceeds limit ${IMPORT_DEPTH_LIMIT}: ${chain(path, stack)}`) : undefined;

/**
 * Loads and resolves the recipe at `path` on behalf of the recipes in `stack`. Right(undefined)
 * means the file is missing or is not a valid recipe; the caller words that for its context.
 */
function loadDependency(s: Session, path: string, stack: readonly string[]): E.Either<RecipeProblem, Resolved | undefined> {
  (s.touched ??= new Set()).add(path);
  const cyclic = cycle(path, stack);
  if (cyclic !== undefined) return E.left(cyclic);
  // a success proves the subgraph acyclic, so only the remaining depth can make it fail elsewhere
  const known = s.done?.get(path);
  if (known !== undefined && stack.length + known.height <= IMPORT_DEPTH_LIMIT) return E.right(known);
  const deep = tooDeep(path, stack);
  if (deep !== undefined) return E.left(deep);
  const file = s.ctx.readFile(path);
  if (file === undefined) return E.right(undefined);
  const loaded = loadRecipe(file, idOfPath(path), formatOfPath(path));
  if (E.isLeft(loaded)) return loaded.left.kind === "invalid" ? E.right(undefined) : loaded;
  return resolveAt(s, loaded.right, path, stack);
}

const NO_IMPORTS: E.Either<never, { imports: ReadonlyMap<string, ImportedRecipe>; height: number }> = E.right({ imports: new Map(), height: 0 });

function loadImports(
  s: Session, bindings: readonly ImportBinding[], dir: string, stack: () => readonly string[],
): E.Either<RecipeProblem, { imports: ReadonlyMap<string, ImportedRecipe>; height: number }> {
  if (bindings.length === 0) return NO_IMPORTS;
  const imports = new Map<string, ImportedRecipe>();
  let height = 0;
  for (const binding of bindings) {
    const file = resolveRecipePath(binding.from, dir, s.paths);
    const dep = loadDependency(s, file, stack());
    if (E.isLeft(dep)) return dep;
    if (dep.right === undefined) return E.left(failed(`Recipe import not found: ${binding.alias}`));
    height = Math.max(height, dep.right.height);
    const { config } = dep.right;
    const imported: ImportedRecipe = {
      name: config.name,
      file,
      defaults: overlay(config.defaults, binding.defaults),
      values: binding.values,
      template: config.template,
    };
    imports.set(binding.alias, config.arg_descriptions === undefined ? imported : { ...imported, descriptions: config.arg_descriptions });
  }
  return E.right({ imports, height });
}

/** The config with import references substituted through its raw object and validated again. */
function substituted(config: RecipeConfig, path: string, imports: ReadonlyMap<string, ImportedRecipe>): E.Either<RecipeProblem, RecipeConfig> {
  if (imports.size === 0) return E.right(config);
  const raw = substituteReferences(config.raw, imports);
  if (E.isLeft(raw)) return raw;
  if (raw.right === config.raw) return E.right(config);
  return decodeRecipeObject(raw.right, path, config.name);
}

function resolveAt(s: Session, config: RecipeConfig, path: string, stack: readonly string[]): E.Either<RecipeProblem, Resolved> {
  // the stack of what this recipe loads, made when it loads something
  let innerStack: readonly string[] | undefined;
  const inner = (): readonly string[] => (innerStack ??= [...stack, path]);
  const dir = dirname(path);
  const bindings = parseBindings(config.imports);
  if (E.isLeft(bindings)) return bindings;
  const loaded = loadImports(s, bindings.right, dir, inner);
  if (E.isLeft(loaded)) return loaded;
  let height = loaded.right.height;
  const current = substituted(config, path, loaded.right.imports);
  if (E.isLeft(current)) return current;

  // the argument descriptions of every recipe whose template is placed in this one (the first
  // one placed wins), for the arguments they bring along
  let borrowed: Record<string, string> | undefined;
  const borrow = (descriptions: Readonly<Record<string, string>> | undefined): void => {
    if (descriptions === undefined) return;
    for (const key of Object.keys(descriptions)) if (borrowed === undefined || !Object.hasOwn(borrowed, key)) setOwn((borrowed ??= {}), key, descriptions[key]!);
  };
  const env: ExpandEnv = {
    imports: loaded.right.imports,
    delegate: (text) => {
      const target = recipeReference(text, dir, s.paths);
      if (target === undefined) return E.right(undefined);
      const dep = loadDependency(s, target, inner());
      if (E.isLeft(dep)) return dep;
      if (dep.right === undefined) return E.left(failed(`Template recipe must define template: ${target}`));
      if (dep.right.config.disabled === true) return E.left(failed(`Template recipe is disabled: ${target}`));
      height = Math.max(height, dep.right.height);
      borrow(dep.right.config.arg_descriptions);
      return E.right(dep.right.config);
    },
    placed: (imported) => borrow(imported.descriptions),
  };
  const expanded = expandTemplate(current.right.template, env);
  if (E.isLeft(expanded)) return expanded;
  const unchanged = current.right === config && expanded.right.template === config.template && expanded.right.delegatedTo === undefined && borrowed === undefined;
  const resolved = unchanged ? config : finishConfig(config, current.right, expanded.right.template, expanded.right.delegatedTo, borrowed);
  const result: Resolved = { config: resolved, height: height + 1 };
  if (stack !== s.base) (s.done ??= new Map()).set(path, result);
  return E.right(result);
}

function run(config: RecipeConfig, path: string, s: Session): E.Either<RecipeProblem, RecipeConfig> {
  const at = resolveAgainst(s.ctx.cwd, path);
  const stack = s.ctx.stack ?? NO_STACK;
  s.base = stack;
  const blocked = cycle(at, stack) ?? tooDeep(at, stack);
  if (blocked !== undefined) return E.left(blocked);
  try {
    return E.map((r: Resolved) => r.config)(resolveAt(s, config, at, stack));
  } catch (e) {
    // a last guard: one hostile recipe graph must never take discovery down
    return E.left(failed(e instanceof Error && e.message !== "" ? e.message : "unexpected error"));
  }
}

/**
 * The recipe at `path` (already loaded with `loadRecipe`) with its imports, import references,
 * import nodes and recipe references resolved. Every problem is a returned `failed` problem with
 * the fixed text existing agents match on, except a substituted field of the wrong type (`invalid`). Never throws.
 */
export function resolveRecipe(config: RecipeConfig, path: string, ctx: ResolveContext): E.Either<RecipeProblem, RecipeConfig> {
  return run(config, path, session(ctx));
}

/**
 * The other recipe files `config` depends on, transitively: imports and delegation targets, also
 * those that are missing or broken (creating or fixing them changes this recipe). A watcher should
 * also watch the recipe roots, where a new `<name>.json` can turn a bare word into a reference.
 */
export function recipeDependencies(config: RecipeConfig, path: string, ctx: ResolveContext): string[] {
  const s = session(ctx);
  run(config, path, s);
  const self = resolveAgainst(ctx.cwd, path);
  return [...(s.touched ?? [])].filter((p) => p !== self);
}
