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
import type { ConfigFacts } from "../core/discovery/discovery-result.js";
import type { ArgSurface } from "../core/tool/tool-spec.js";
import type { RecipeConfig } from "../core/model.js";

export const CACHE_FORMAT = "pi-recipes-compile-cache/4";

/** "dev:ino:size:mtimeNs:ctimeNs" */
export type Id = string;

export type Deps = readonly (readonly [string, Id | null])[];

/** A compile result's lists, left out of the stored form when empty. */
type Lists = "diagnostics" | "warnings" | "riskLabels" | "optionInjection";
type Optional<T, K extends keyof T> = Omit<T, K> & { readonly [P in K]?: T[P] | undefined };

/** The compile result as stored: without `path` (the entry's key) and `sourceSha256` (the entry's
 *  `sha`), for a recipe without `config` and `surface` (the entry's `b`), empty lists
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
  /** a recipe's config and argument surface, two JSON texts one after the other after the header:
   *  [offset, length of the config, length of the surface] */
  readonly b?: readonly [number, number, number];
  /** the surface's argument names, its required names and its other keys in order, each list
   *  preceded by its length (one flat list: fewer objects to parse): a listing of the tools shows
   *  the names without parsing the rest */
  readonly n?: readonly (number | string)[];
  /** a recipe's listed config fields */
  readonly f?: ConfigFacts;
  /** the keys of a recipe's config, in order: the served config has them before it is parsed */
  readonly k?: readonly string[];
}

/** An entry with the bytes its `c` and `s` point into (the body it was read from), or, for a
 *  fresh compile, the two texts themselves. */
export interface Held {
  readonly entry: Entry;
  readonly body?: Uint8Array;
  readonly texts?: readonly [string, string];
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
  // the texts after the header: kept entries' bytes as read (config and surface side by side),
  // fresh ones' strings, encoded straight into the file's one buffer
  const parts: (Uint8Array | string)[] = [];
  let size = 0;
  for (const [path, { entry, body, texts }] of Object.entries(held)) {
    if (texts !== undefined) {
      const c = Buffer.byteLength(texts[0]);
      const s = Buffer.byteLength(texts[1]);
      entries[path] = { ...entry, b: [size, c, s] };
      parts.push(texts[0], texts[1]);
      size += c + s;
    } else if (body !== undefined && entry.b !== undefined) {
      const [off, c, s] = entry.b;
      entries[path] = { ...entry, b: [size, c, s] };
      parts.push(body.subarray(off, off + c + s));
      size += c + s;
    } else entries[path] = entry;
  }
  const header: Header = { format: CACHE_FORMAT, version, context, size, entries };
  const line = JSON.stringify(header) + "\n";
  const start = Buffer.byteLength(line);
  const out = Buffer.allocUnsafe(start + size);
  let at = out.write(line, 0);
  for (const part of parts) at += typeof part === "string" ? out.write(part, at) : (out.set(part, at), part.length);
  return out;
}


const isStrings = (a: unknown): boolean => a === undefined || (Array.isArray(a) && a.every((x) => typeof x === "string"));
const isSpans = (b: unknown, body: Uint8Array): boolean =>
  Array.isArray(b) && b.length === 3 && b.every((n) => Number.isSafeInteger(n) && n >= 0) && b[0] + b[1] + b[2] <= body.length;
const configSpan = (b: readonly [number, number, number]): readonly [number, number] => [b[0], b[1]];
const surfaceSpan = (b: readonly [number, number, number]): readonly [number, number] => [b[0] + b[1], b[2]];

/** The three lists of a well-formed `n`, or undefined. */
function namesOf(n: readonly unknown[]): [string[], string[], string[]] | undefined {
  const out: string[][] = [];
  let i = 0;
  while (i < n.length && out.length < 3) {
    const count = n[i];
    if (typeof count !== "number" || !Number.isSafeInteger(count) || count < 0 || i + 1 + count > n.length) return undefined;
    const list = n.slice(i + 1, i + 1 + count);
    if (!list.every((x) => typeof x === "string")) return undefined;
    out.push(list as string[]);
    i += 1 + count;
  }
  return out.length === 3 && i === n.length ? (out as [string[], string[], string[]]) : undefined;
}
/** `n` of a surface: its names, its required names and its other keys, each list after its length */
function flatNames(surface: ArgSurface): (number | string)[] {
  const out: (number | string)[] = [surface.names.length];
  for (const name of surface.names) out.push(name);
  out.push(surface.required.length);
  for (const name of surface.required) out.push(name);
  const others = Object.keys(surface).filter((k) => k !== "names" && k !== "required");
  out.push(others.length);
  for (const key of others) out.push(key);
  return out;
}
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
  if (!isSpans(x.b, body) || !Array.isArray(x.n) || !Array.isArray(x.k) || !isStrings(x.k)) return undefined;
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
  const n = flatNames(surface);
  return { entry: { id, sha, t, ...where, r, f: facts(config), n, k: Object.keys(config) }, texts: [JSON.stringify(config), JSON.stringify(surface)] };
}

/** The compile result an entry stands for: a plain object, whose config and surface have their
 *  keys at hand and their values parsed on first read (a listing of the tools reads neither); a
 *  text that does not parse to an object is a miss, answered by compiling the file afresh. */
export function servedCompile(entry: Entry, body: Uint8Array, source: RecipeSource, compile: (source: RecipeSource) => CompiledRecipe): CompiledRecipe {
  const path = source.file.path;
  const r = entry.r;
  if (r.kind === "problem") return { ...r, path, diagnostics: r.diagnostics ?? NONE };
  const l: Lazy = { entry, body, source, compile };
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
    config: servedConfig(l),
    surface: servedSurface(l),
  };
  // any field the compile step has and this list does not name
  for (const key in r) if (!(key in served)) served[key] = (r as Record<string, unknown>)[key];
  return served as unknown as CompiledConfig;
}

interface Lazy {
  readonly entry: Entry;
  readonly body: Uint8Array;
  readonly source: RecipeSource;
  readonly compile: (source: RecipeSource) => CompiledRecipe;
  /** the whole config as stored */
  config?: RecipeConfig;
  /** the whole surface as stored */
  whole?: ArgSurface;
  fresh?: CompiledConfig;
}

const again = (l: Lazy): CompiledConfig => (l.fresh ??= freshRecipe(l.source.file.path, l.compile(l.source)));

const wholeConfig = (l: Lazy): RecipeConfig => (l.config ??= (parsedObject(l.body, configSpan(l.entry.b!)) as RecipeConfig | undefined) ?? again(l).config);

/** A served config or surface: what stands for it until a value is read. */
interface Served {
  readonly l: Lazy;
  readonly part: "config" | "surface";
  keys?: readonly string[];
  /** a surface's names and required names, from the entry's `n` */
  lists?: readonly [readonly string[], readonly string[]];
}

// (a malformed list reads as none: the fields then come from the stored or recompiled whole)
const surfaceLists = (s: Served): readonly [readonly string[], readonly string[]] =>
  (s.lists ??= namesOf(s.l.entry.n!)?.slice(0, 2) as [string[], string[]] | undefined ?? [wholeSurface(s.l).names, wholeSurface(s.l).required]);

const keysOf = (s: Served): readonly string[] =>
  (s.keys ??= s.part === "config" ? s.l.entry.k! : ["names", "required", ...(namesOf(s.l.entry.n!)?.[2] ?? Object.keys(wholeSurface(s.l)).filter((k) => k !== "names" && k !== "required"))]);

function valueOf(s: Served, key: string): unknown {
  if (s.part === "surface" && (key === "names" || key === "required")) return surfaceLists(s)[key === "names" ? 0 : 1];
  return (s.part === "config" ? (wholeConfig(s.l) as unknown as Record<string, unknown>) : (wholeSurface(s.l) as unknown as Record<string, unknown>))[key];
}

const isOwn = (s: Served, key: string | symbol): key is string => typeof key === "string" && keysOf(s).includes(key);

// One handler for every served config and surface: each is one small object and a proxy, not a
// property per key, and behaves as a plain, read-only object with its keys in order.
const SERVED: ProxyHandler<Served> = {
  get: (s, key) => (isOwn(s, key) ? valueOf(s, key) : Reflect.get(Object.prototype, key)),
  has: (s, key) => isOwn(s, key) || Reflect.has(Object.prototype, key),
  ownKeys: (s) => [...keysOf(s)],
  getOwnPropertyDescriptor: (s, key) => (isOwn(s, key) ? { value: valueOf(s, key), enumerable: true, configurable: true, writable: false } : undefined),
  set: () => false,
  defineProperty: () => false,
  deleteProperty: () => false,
};

/** The config with its keys at hand and the whole of it parsed on the first read of a value. */
const servedConfig = (l: Lazy): RecipeConfig => new Proxy<Served>({ l, part: "config" }, SERVED) as unknown as RecipeConfig;

/** The argument surface with its names at hand and its other fields parsed on first read. */
const servedSurface = (l: Lazy): ArgSurface => new Proxy<Served>({ l, part: "surface" }, SERVED) as unknown as ArgSurface;

const wholeSurface = (l: Lazy): ArgSurface => (l.whole ??= (parsedObject(l.body, surfaceSpan(l.entry.b!)) as ArgSurface | undefined) ?? again(l).surface);

function parsedObject(body: Uint8Array, span: readonly [number, number]): object | undefined {
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
