// The bytes of the compile cache file (runtime/compile-cache.ts says when an entry may be used).
//
// One line of JSON, the header, names the format, the code version and the context, and holds
// one small entry per recipe file: its identity, digest, dependencies and the compile result
// without the recipe's config and argument surface (empty lists left out). After the newline come
// the configs and surfaces, each a JSON text at the offset its entry gives. A process that only
// lists tools parses the header and nothing else; a config or surface is parsed when something
// reads it, from the bytes of this very file (kept in memory, so a later rewrite of the cache
// cannot mix two versions).
//
// A file whose length is not what its header says (a torn or foreign file), or whose header does
// not parse, is no cache at all. A config text that does not parse is damaged: the caller answers
// it as a miss (see `servedCompile`).
import type { CompiledConfig, CompiledProblem, CompiledRecipe, RecipeSource } from "../core/compile/compile-recipe.js";
import type { ArgSurface, ConfigFacts } from "../core/discovery/types.js";
import type { RecipeConfig } from "../core/model.js";

export const CACHE_FORMAT = "pi-recipes-compile-cache/3";

/** "dev:ino:size:mtimeNs:ctimeNs" */
export type Id = string;

export type Deps = readonly (readonly [string, Id | null])[];

/** A compile result's lists, left out of the stored form when empty. */
type Lists = "diagnostics" | "warnings" | "riskLabels" | "optionInjection";
type Optional<T, K extends keyof T> = Omit<T, K> & { readonly [P in K]?: T[P] | undefined };

/** The compile result as stored: without `path` (the entry's key) and `sourceSha256` (the entry's
 *  `sha`), for a recipe without `config` and `surface` (the entry's `c` and `s`), empty lists
 *  left out. */
type StoredResult = Optional<Omit<CompiledProblem, "path">, "diagnostics"> | Optional<Omit<CompiledConfig, "path" | "sourceSha256" | "config" | "surface">, Lists>;

export interface Entry {
  readonly id: Id;
  /** sha256 of the bytes compiled */
  readonly sha: string;
  /** the file-system time (ns) of the pass that verified this entry: identities strictly older
   *  than it are trusted without reading */
  readonly t: string;
  /** each path resolution read, with its identity then (null: absent); absent when none */
  readonly deps?: Deps;
  /** the working directory, for entries whose resolution read files (relative import paths) */
  readonly cwd?: string;
  /** the compile step's result (plain data), see StoredResult */
  readonly r: StoredResult;
  /** a recipe's config and argument surface: offset and length of each JSON text after the header */
  readonly c?: readonly [number, number];
  readonly s?: readonly [number, number];
  /** the surface's argument names and required names, and its other keys in order: a listing of
   *  the tools shows the names without parsing the rest */
  readonly n?: readonly [readonly string[], readonly string[], readonly string[]];
  /** a recipe's listed config fields */
  readonly f?: ConfigFacts;
}

/** An entry with the bytes its `c` and `s` point into (the body it was read from), or, for a
 *  fresh compile, the two texts themselves. */
export interface Held {
  readonly entry: Entry;
  readonly body?: Uint8Array;
  readonly texts?: readonly [Uint8Array, Uint8Array];
}

interface Header {
  readonly format: string;
  readonly version: string;
  readonly context: string;
  /** bytes after the header line */
  readonly size: number;
  readonly entries: Readonly<Record<string, Entry>>;
}

const NEWLINE = 0x0a;

export interface CacheContents {
  readonly entries: Readonly<Record<string, Entry>>;
  /** the config texts */
  readonly body: Uint8Array;
}

/** The entries of a cache file of this code and context; undefined for a torn, foreign or other
 *  version's file. */
export function readCacheBytes(bytes: Uint8Array, version: string, context: string): CacheContents | undefined {
  const nl = bytes.indexOf(NEWLINE);
  if (nl < 0) return undefined;
  try {
    const u = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, nl).toString("utf8")) as Partial<Header> | null;
    if (u === null || typeof u !== "object" || u.format !== CACHE_FORMAT || u.version !== version || u.context !== context) return undefined;
    if (u.size !== bytes.length - nl - 1) return undefined;
    const entries = u.entries;
    if (typeof entries !== "object" || entries === null || Array.isArray(entries)) return undefined;
    // a copy, so that the header's bytes are not kept alive by the configs' for the process's life
    return { entries, body: new Uint8Array(bytes.subarray(nl + 1)) };
  } catch {
    return undefined;
  }
}

/** The file for `held` (path -> entry with its config bytes). */
export function cacheBytes(version: string, context: string, held: Readonly<Record<string, Held>>): Uint8Array {
  const entries: Record<string, Entry> = {};
  const parts: Uint8Array[] = [];
  let size = 0;
  const put = (text: Uint8Array): [number, number] => {
    parts.push(text);
    size += text.length;
    return [size - text.length, text.length];
  };
  for (const [path, { entry, body, texts }] of Object.entries(held)) {
    const [c, s] = texts ?? (body !== undefined && entry.c !== undefined && entry.s !== undefined ? [slice(body, entry.c), slice(body, entry.s)] : []);
    entries[path] = c === undefined || s === undefined ? entry : { ...entry, c: put(c), s: put(s) };
  }
  const header: Header = { format: CACHE_FORMAT, version, context, size, entries };
  const line = Buffer.from(JSON.stringify(header) + "\n");
  return Buffer.concat([line, ...parts], line.length + size);
}

const slice = (body: Uint8Array, [off, len]: readonly [number, number]): Uint8Array => body.subarray(off, off + len);

const isStrings = (a: unknown): boolean => a === undefined || (Array.isArray(a) && a.every((x) => typeof x === "string"));
const isSpan = (c: unknown, body: Uint8Array): boolean =>
  Array.isArray(c) && Number.isSafeInteger(c[0]) && Number.isSafeInteger(c[1]) && c[0] >= 0 && c[1] >= 0 && c[0] + c[1] <= body.length;
const isId = (i: unknown): i is Id => typeof i === "string";
const isDep = (d: unknown): boolean => Array.isArray(d) && typeof d[0] === "string" && (d[1] === null || isId(d[1]));
const DIGITS = /^\d+$/;

/** A well-formed entry, or undefined (a damaged entry is a miss, never an error). Its config and
 *  surface texts are checked when they are parsed (see `servedCompile`). */
export function checkedEntry(e: unknown, body: Uint8Array): Entry | undefined {
  if (typeof e !== "object" || e === null) return undefined;
  const x = e as Partial<Entry>;
  if (!isId(x.id) || typeof x.sha !== "string" || typeof x.t !== "string" || !DIGITS.test(x.t)) return undefined;
  if (x.deps !== undefined && !(Array.isArray(x.deps) && x.deps.every(isDep))) return undefined;
  const r = x.r as Partial<Record<keyof CompiledConfig | keyof CompiledProblem, unknown>> | undefined;
  if (typeof r !== "object" || r === null || typeof r.id !== "string" || typeof r.format !== "string" || !isStrings(r.diagnostics)) return undefined;
  if (r.kind === "problem") return typeof r.problem === "object" && r.problem !== null ? (x as Entry) : undefined;
  if (r.kind !== "recipe" || typeof x.f !== "object" || x.f === null || typeof r.disabled !== "boolean") return undefined;
  if (!(r.warnings === undefined || Array.isArray(r.warnings)) || !isStrings(r.riskLabels) || !isStrings(r.optionInjection)) return undefined;
  if (!isSpan(x.c, body) || !isSpan(x.s, body)) return undefined;
  const n = x.n;
  if (!Array.isArray(n) || n.length !== 3 || !Array.isArray(n[0]) || !Array.isArray(n[1]) || !Array.isArray(n[2]) || !n.every(isStrings)) return undefined;
  return x as Entry;
}

const NONE: readonly never[] = Object.freeze([]);
const listOf = <T>(list: readonly T[]): readonly T[] | undefined => (list.length === 0 ? undefined : list);

/** The entry stored for a fresh compile, with its config text. */
export function heldOf(id: Id, sha: string, t: string, deps: Deps, cwd: string, compiled: CompiledRecipe, facts: (c: RecipeConfig) => ConfigFacts): Held {
  const where = deps.length > 0 ? { deps, cwd } : {};
  if (compiled.kind === "problem") {
    const { path: _path, ...r } = compiled;
    return { entry: { id, sha, t, ...where, r } };
  }
  const { path: _path, sourceSha256: _sha, config, surface, diagnostics, warnings, riskLabels, optionInjection, ...rest } = compiled;
  const r = { ...rest, diagnostics: listOf(diagnostics), warnings: listOf(warnings), riskLabels: listOf(riskLabels), optionInjection: listOf(optionInjection) };
  const n = [surface.names, surface.required, Object.keys(surface).filter((k) => k !== "names" && k !== "required")] as const;
  return { entry: { id, sha, t, ...where, r, f: facts(config), n }, texts: [Buffer.from(JSON.stringify(config)), Buffer.from(JSON.stringify(surface))] };
}

/** The compile result an entry stands for. A recipe's config and surface are parsed on first
 *  read; a text that does not parse to an object is a miss, answered by compiling the file afresh. */
export function servedCompile(entry: Entry, body: Uint8Array, source: RecipeSource, compile: (source: RecipeSource) => CompiledRecipe): CompiledRecipe {
  const path = source.file.path;
  const r = entry.r;
  if (r.kind === "problem") return { ...r, path, diagnostics: r.diagnostics ?? NONE };
  const served: Record<string, unknown> = {
    kind: r.kind,
    id: r.id,
    path,
    format: r.format,
    sourceSha256: entry.sha,
    diagnostics: r.diagnostics ?? NONE,
    disabled: r.disabled,
    warnings: r.warnings ?? NONE,
    riskLabels: r.riskLabels ?? NONE,
    optionInjection: r.optionInjection ?? NONE,
  };
  // any field the compile step has and this list does not name
  for (const key in r) if (!(key in served)) served[key] = (r as Record<string, unknown>)[key];
  lazy.set(served, { entry, body, source, compile });
  Object.defineProperties(served, LAZY);
  return served as unknown as CompiledConfig;
}

interface Lazy {
  readonly entry: Entry;
  readonly body: Uint8Array;
  readonly source: RecipeSource;
  readonly compile: (source: RecipeSource) => CompiledRecipe;
  config?: RecipeConfig;
  surface?: ArgSurface;
  /** the whole surface as stored */
  whole?: ArgSurface;
  fresh?: CompiledConfig;
}

// The state behind each served result's two getters. The getters are shared by every result: a
// getter made per object would turn each into a slow dictionary object.
const lazy = new WeakMap<object, Lazy>();

const again = (l: Lazy): CompiledConfig => (l.fresh ??= freshRecipe(l.source.file.path, l.compile(l.source)));

const LAZY: PropertyDescriptorMap = {
  config: {
    get(this: object): RecipeConfig {
      const l = lazy.get(this)!;
      return (l.config ??= (parsedObject(l.body, l.entry.c) as RecipeConfig | undefined) ?? again(l).config);
    },
    enumerable: true,
    configurable: true,
  },
  surface: {
    get(this: object): ArgSurface {
      const l = lazy.get(this)!;
      return (l.surface ??= servedSurface(l));
    },
    enumerable: true,
    configurable: true,
  },
};

/** The argument surface with its names at hand and its other fields parsed on first read. */
function servedSurface(l: Lazy): ArgSurface {
  const [names, required, others] = l.entry.n!;
  const surface = { names, required };
  lazy.set(surface, l);
  for (const key of others) Object.defineProperty(surface, key, surfaceField(key));
  return surface as ArgSurface;
}

const wholeSurface = (l: Lazy): ArgSurface => (l.whole ??= (parsedObject(l.body, l.entry.s) as ArgSurface | undefined) ?? again(l).surface);

// one getter per field name, shared by every surface (see LAZY)
const surfaceFields = new Map<string, PropertyDescriptor>();
const surfaceField = (key: string): PropertyDescriptor => {
  let d = surfaceFields.get(key);
  if (d === undefined)
    surfaceFields.set(key, (d = { get(this: object): unknown { return (wholeSurface(lazy.get(this)!) as unknown as Record<string, unknown>)[key]; }, enumerable: true, configurable: true }));
  return d;
};

function parsedObject(body: Uint8Array, span: readonly [number, number] | undefined): object | undefined {
  if (span === undefined) return undefined;
  try {
    const parsed = JSON.parse(Buffer.from(body.buffer, body.byteOffset + span[0], span[1]).toString("utf8")) as unknown;
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function freshRecipe(path: string, fresh: CompiledRecipe): CompiledConfig {
  // the cache said "a recipe" for these very bytes; a file that is no longer one was rewritten
  // after this pass read its identity, and the caller's discovery is already out of date
  if (fresh.kind !== "recipe") throw new Error(`recipe file changed while it was being read; run again: ${path}`);
  return fresh;
}
