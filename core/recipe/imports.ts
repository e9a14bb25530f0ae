// Resolving a loaded recipe against the files it refers to: imports are loaded recursively,
// import references substituted, import nodes expanded and recipe references delegated. Pure: files come from an injected reader.
import * as E from "fp-ts/lib/Either.js";
import { bind, bindTo, chain } from "../either-steps.js";
import { pipe } from "fp-ts/lib/function.js";
import type { RecipeConfig, SnapshotFile } from "../model.js";
import { type ImportBinding, parseBindings } from "./bindings.js";
import { decodeRecipeObject } from "./decode.js";
import { type ExpandEnv, type ImportedRecipe, expandTemplate } from "./expand.js";
import { loadRecipe } from "./load.js";
import { dirname, formatOfPath, idOfPath, resolveAgainst } from "./posix.js";
import { overlay, setOwn } from "./own.js";
import { substituteReferences } from "./references.js";
import { type PathContext, recipeReference, resolveRecipePath } from "./resolve-path.js";
import type { RecipeError } from "./recipe-error.js";
import { finishConfig, inheritable } from "./resolved-config.js";
import { confinementOf, type Confining } from "./placed-sandbox.js";
import { measureTemplate } from "../template/command-count.js";
import { MAX_JSON_DEPTH } from "./fields.js";
import { COMMAND_LIMIT, tooManyCommandsText } from "../template/repeat.js";

export const IMPORT_DEPTH_LIMIT = 32;

/** A template whose placed recipes nest it deeper than one recipe file may nest. */
export const placedTooDeepText = (levels: number): string =>
  `Command template nests deeper than ${levels} levels with the recipes it imports or delegates to placed in it.`;

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

const NO_STACK: readonly string[] = Object.freeze([]);

function session(ctx: ResolveContext): Session {
  const exists = (path: string): boolean => ctx.readFile(path) !== undefined;
  const paths: PathContext = ctx.packagedRoot === undefined
    ? { agentDir: ctx.agentDir, home: ctx.home, cwd: ctx.cwd, userRoot: ctx.userRoot, exists }
    : { agentDir: ctx.agentDir, home: ctx.home, cwd: ctx.cwd, userRoot: ctx.userRoot, packagedRoot: ctx.packagedRoot, exists };
  return { ctx, paths, base: NO_STACK, done: undefined, touched: undefined };
}

const cycle = (path: string, stack: readonly string[]): RecipeError | undefined =>
  stack.includes(path) ? { _tag: "ImportCycle", chain: [...stack, path] } : undefined;

const tooDeep = (path: string, stack: readonly string[]): RecipeError | undefined =>
  stack.length >= IMPORT_DEPTH_LIMIT ? { _tag: "ImportTooDeep", chain: [...stack, path], limit: IMPORT_DEPTH_LIMIT } : undefined;

/** A missing file and a file that is not a recipe look the same to the recipe that names it
 * (the caller words that for its context); only a failure to load it otherwise is its own error. */
const notARecipe = (e: RecipeError): boolean =>
  e._tag === "NotUtf8" || e._tag === "JsonSyntax" || e._tag === "Markdown" || (e._tag === "Decode" && e.problem.kind === "invalid");

/**
 * Loads and resolves the recipe at `path` on behalf of the recipes in `stack`. Right(undefined)
 * means the file is missing or is not a valid recipe; the caller words that for its context.
 */
function loadDependency(s: Session, path: string, stack: readonly string[]): E.Either<RecipeError, Resolved | undefined> {
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
  return pipe(
    loadRecipe(file, idOfPath(path), formatOfPath(path)),
    E.match(
      (e): E.Either<RecipeError, Resolved | undefined> => (notARecipe(e) ? E.right(undefined) : E.left(e)),
      (config) => resolveAt(s, config, path, stack),
    ),
  );
}

interface Imports {
  readonly imports: ReadonlyMap<string, ImportedRecipe>;
  /** the longest chain of recipe files the imports load */
  readonly height: number;
}

const NO_IMPORTS: E.Either<never, Imports> = E.right({ imports: new Map(), height: 0 });

/** Why an import resolved to nothing: no file there, or a file that is no valid recipe (read
 *  again from the same reader: only on this error path). */
function importNotFound(s: Session, alias: string, path: string): RecipeError {
  const file = s.ctx.readFile(path);
  if (file === undefined) return { _tag: "ImportNotFound", alias };
  const loaded = loadRecipe(file, idOfPath(path), formatOfPath(path));
  return E.isLeft(loaded) && notARecipe(loaded.left) ? { _tag: "ImportNotFound", alias, invalid: { path, error: loaded.left } } : { _tag: "ImportNotFound", alias };
}

/** One import binding loaded and resolved, as the importing recipe sees it. */
function loadImport(s: Session, binding: ImportBinding, dir: string, stack: readonly string[]): E.Either<RecipeError, { imported: ImportedRecipe; height: number }> {
  const file = resolveRecipePath(binding.from, dir, s.paths);
  return pipe(
    loadDependency(s, file, stack),
    chain((resolved) => (resolved !== undefined ? E.right(resolved) : E.left(importNotFound(s, binding.alias, file)))),
    E.map(({ config, height }) => {
      const imported: ImportedRecipe = {
        name: config.name,
        file,
        defaults: overlay(config.defaults, binding.defaults),
        values: binding.values,
        template: config.template,
      };
      const described = config.arg_descriptions === undefined ? imported : { ...imported, descriptions: config.arg_descriptions };
      return { imported: config.sandbox === undefined ? described : { ...described, sandbox: config.sandbox }, height };
    }),
  );
}

/** The imports in declaration order; the first that fails stops the rest (none is loaded after it). */
function loadImports(s: Session, bindings: readonly ImportBinding[], dir: string, stack: () => readonly string[]): E.Either<RecipeError, Imports> {
  if (bindings.length === 0) return NO_IMPORTS;
  const imports = new Map<string, ImportedRecipe>();
  let height = 0;
  for (const binding of bindings) {
    const one = loadImport(s, binding, dir, stack());
    if (E.isLeft(one)) return one;
    height = Math.max(height, one.right.height);
    imports.set(binding.alias, one.right.imported);
  }
  return E.right({ imports, height });
}

/** The config with import references substituted through its raw object and validated again. */
function substituted(config: RecipeConfig, path: string, imports: ReadonlyMap<string, ImportedRecipe>): E.Either<RecipeError, RecipeConfig> {
  if (imports.size === 0) return E.right(config);
  return pipe(
    substituteReferences(config.raw, imports),
    chain((raw) =>
      raw === config.raw
        ? E.right(config)
        : pipe(decodeRecipeObject(raw, path, config.name), E.mapLeft((problem): RecipeError => ({ _tag: "Decode", problem })))),
  );
}

/** What the expansion of one recipe's template learns from the recipes it places. */
interface Placing {
  /** the longest chain of recipe files loaded so far */
  height: number;
  /** the argument descriptions of every recipe whose template is placed in this one (the first
   * one placed wins), for the arguments they bring along */
  borrowed: Record<string, string> | undefined;
  /** the sandbox of every recipe whose commands are placed in this one (imports and delegation
   * targets) that has one */
  confining: Confining[];
}

function borrow(placing: Placing, descriptions: Readonly<Record<string, string>> | undefined): void {
  if (descriptions === undefined) return;
  for (const key of Object.keys(descriptions)) {
    if (placing.borrowed === undefined || !Object.hasOwn(placing.borrowed, key)) setOwn((placing.borrowed ??= {}), key, descriptions[key]!);
  }
}

/** The recipe a template string delegates to (resolved), undefined when the string is a command. */
function delegateTarget(s: Session, text: string, dir: string, stack: () => readonly string[], placing: Placing): E.Either<RecipeError, RecipeConfig | undefined> {
  const target = recipeReference(text, dir, s.paths);
  if (target === undefined) return E.right(undefined);
  return pipe(
    loadDependency(s, target, stack()),
    chain(E.fromNullable<RecipeError>({ _tag: "DelegateWithoutTemplate", target })),
    E.filterOrElse((dep) => dep.config.disabled !== true, (): RecipeError => ({ _tag: "DelegateDisabled", target })),
    E.map((dep) => {
      placing.height = Math.max(placing.height, dep.height);
      borrow(placing, dep.config.arg_descriptions);
      if (dep.config.sandbox !== undefined) placing.confining.push({ from: target, field: dep.config.sandbox });
      return dep.config;
    }),
  );
}

function resolveAt(s: Session, config: RecipeConfig, path: string, stack: readonly string[]): E.Either<RecipeError, Resolved> {
  // the stack of what this recipe loads, made when it loads something
  let innerStack: readonly string[] | undefined;
  const inner = (): readonly string[] => (innerStack ??= [...stack, path]);
  const dir = dirname(path);
  return pipe(
    parseBindings(config.imports),
    chain((bindings) => loadImports(s, bindings, dir, inner)),
    bindTo("loaded"),
    bind("current", ({ loaded }) => substituted(config, path, loaded.imports)),
    bind("placing", ({ loaded }) => E.right<RecipeError, Placing>({ height: loaded.height, borrowed: undefined, confining: [] })),
    bind("expanded", ({ loaded, current, placing }) => {
      const env: ExpandEnv = {
        imports: loaded.imports,
        delegate: (text) => delegateTarget(s, text, dir, inner, placing),
        placed: (imported) => {
          borrow(placing, imported.descriptions);
          if (imported.sandbox !== undefined) placing.confining.push({ from: imported.file, field: imported.sandbox });
        },
      };
      return pipe(
        expandTemplate(current.template, env),
        // the recipes placed here are shared, not copied: measured before anything walks the
        // graph as a tree (core/template/command-count.ts), which could take 2^N steps or nest
        // deeper than the call stack goes
        chain((expanded) => {
          if (expanded.template === current.template) return E.right(expanded);
          const m = measureTemplate(expanded.template, COMMAND_LIMIT, MAX_JSON_DEPTH);
          if (m.kind === "too-deep") return E.left<RecipeError>({ _tag: "InvalidTemplate", message: placedTooDeepText(MAX_JSON_DEPTH) });
          return m.commands > COMMAND_LIMIT ? E.left<RecipeError>({ _tag: "InvalidTemplate", message: tooManyCommandsText(COMMAND_LIMIT) }) : E.right(expanded);
        }),
      );
    }),
    chain(({ current, expanded, placing }) => {
      const { borrowed } = placing;
      const unchanged = current === config && expanded.template === config.template && expanded.delegatedTo === undefined && borrowed === undefined && placing.confining.length === 0;
      if (unchanged) return E.right({ resolved: config, placing });
      // the recipes placed in this one keep their confinement: this recipe takes their sandbox
      // when it has none of its own (nor a delegation target's), else its own must be as strict
      const inherited = expanded.delegatedTo?.sandbox;
      const own = current.sandbox ?? (inheritable("sandbox", inherited) ? inherited : undefined);
      return pipe(
        confinementOf(own, placing.confining),
        E.map((sandbox) => ({ resolved: finishConfig(config, sandbox === own || sandbox === undefined ? current : { ...current, sandbox }, expanded.template, expanded.delegatedTo, borrowed), placing })),
      );
    }),
    E.map(({ resolved, placing }) => {
      const result: Resolved = { config: resolved, height: placing.height + 1 };
      if (stack !== s.base) (s.done ??= new Map()).set(path, result);
      return result;
    }),
  );
}

function run(config: RecipeConfig, path: string, s: Session): E.Either<RecipeError, RecipeConfig> {
  const at = resolveAgainst(s.ctx.cwd, path);
  const stack = s.ctx.stack ?? NO_STACK;
  s.base = stack;
  const blocked = cycle(at, stack) ?? tooDeep(at, stack);
  if (blocked !== undefined) return E.left(blocked);
  try {
    return E.map((r: Resolved) => r.config)(resolveAt(s, config, at, stack));
  } catch (e) {
    // a last guard: one hostile recipe graph must never take discovery down
    return E.left({ _tag: "Thrown", message: e instanceof Error && e.message !== "" ? e.message : "unexpected error" });
  }
}

/**
 * The recipe at `path` (already loaded with `loadRecipe`) with its imports, import references,
 * import nodes and recipe references resolved. Every problem is a returned error
 * (./recipe-error.ts words it); never throws.
 */
export function resolveRecipe(config: RecipeConfig, path: string, ctx: ResolveContext): E.Either<RecipeError, RecipeConfig> {
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
