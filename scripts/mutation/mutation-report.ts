// What a mutation run found, read from Stryker's report (the mutation-testing-report JSON that
// Stryker keeps as its incremental file): the score per file and over the scope, and every mutant
// no test noticed, checked against the list of equivalent mutants in docs/equivalent-mutants.md.
// A surviving mutant that is not on the list is a gap in the tests; an entry on the list that no
// surviving mutant matches is stale (the code changed, or a test now kills it). A mutant the list
// explains that timed out is counted as undetected: no test can tell it apart, so its timeout was
// the machine's (a run under load), not a test's finding, and it must not raise the score.
import { makeRe } from "minimatch";

export interface Position {
  readonly line: number;
  readonly column: number;
}

export interface ReportMutant {
  readonly id: string;
  readonly mutatorName: string;
  readonly replacement?: string;
  readonly location: { readonly start: Position; readonly end: Position };
  readonly status: string;
  readonly static?: boolean;
}

export interface ReportFile {
  readonly source: string;
  readonly mutants: readonly ReportMutant[];
}

export interface MutationReport {
  readonly files: Readonly<Record<string, ReportFile>>;
}

/** Killed and Timeout are detected; Survived and NoCoverage are not; the rest do not count. */
export interface Counts {
  killed: number;
  timeout: number;
  survived: number;
  noCoverage: number;
  compileError: number;
  runtimeError: number;
  ignored: number;
  pending: number;
}

const emptyCounts = (): Counts => ({ killed: 0, timeout: 0, survived: 0, noCoverage: 0, compileError: 0, runtimeError: 0, ignored: 0, pending: 0 });

const COUNTED: Readonly<Record<string, keyof Counts>> = {
  Killed: "killed",
  Timeout: "timeout",
  Survived: "survived",
  NoCoverage: "noCoverage",
  CompileError: "compileError",
  RuntimeError: "runtimeError",
  Ignored: "ignored",
  Pending: "pending",
};

export function countsOf(mutants: Iterable<ReportMutant>): Counts {
  const c = emptyCounts();
  for (const m of mutants) {
    const key = COUNTED[m.status];
    if (key === undefined) throw new Error(`unknown mutant status "${m.status}" (mutant ${m.id})`);
    c[key]++;
  }
  return c;
}

export const detected = (c: Counts): number => c.killed + c.timeout;
export const undetected = (c: Counts): number => c.survived + c.noCoverage;

/** Stryker's mutation score: detected over detected + undetected, in percent; undefined with no
 *  valid mutant. */
export function scoreOf(c: Counts): number | undefined {
  const valid = detected(c) + undetected(c);
  return valid === 0 ? undefined : (100 * detected(c)) / valid;
}

/** The code a mutant replaced: the source between its start and end (1-based lines and columns). */
export function originalOf(source: string, m: ReportMutant): string {
  const lines = source.split("\n");
  const offset = (p: Position): number => {
    let at = 0;
    for (let i = 0; i < p.line - 1; i++) at += (lines[i]?.length ?? 0) + 1;
    return at + p.column - 1;
  };
  return source.slice(offset(m.location.start), offset(m.location.end));
}

/** Runs of white space count as one space: a multi-line original can be written on one line. */
export const sameCode = (a: string, b: string): boolean => squash(a) === squash(b);
const squash = (s: string): string => s.replace(/\s+/g, " ").trim();

export interface EquivalentEntry {
  readonly file: string;
  /** the line the heading names; only a hint (code moves), used to tell equal texts apart */
  readonly line: number;
  readonly mutator: string;
  readonly original: string;
  readonly replacement: string;
  /** where the entry is written, for messages */
  readonly docLine: number;
}

export class EquivalentsFormatError extends Error {}

// `code`, or ``code with a ` inside`` (CommonMark code spans: the same run of backticks closes;
// one space on each side is padding when both are there)
const CODE_SPAN = /(`+)(.+?)\1(?!`)/g;
const unpad = (s: string): string => (s.length >= 2 && s.startsWith(" ") && s.endsWith(" ") ? s.slice(1, -1) : s);

/**
 * The entries of docs/equivalent-mutants.md. The list is written for people and read by
 * `npm run mutate`, so its shape is fixed:
 *
 *     ### core/args/normalize.ts:17
 *     - ConditionalExpression `key === "__proto__"` → `true`
 *     - Why equivalent: …
 *
 * A heading names a file and a line; each bullet that starts with a mutator name is one mutant
 * (its original code and the replacement, as Stryker reports them); any other bullet explains.
 * Lines outside `### ` sections are prose.
 */
export function parseEquivalents(markdown: string): EquivalentEntry[] {
  const entries: EquivalentEntry[] = [];
  let section: { file: string; line: number } | undefined;
  const lines = markdown.split("\n");
  let fenced = false;
  lines.forEach((text, i) => {
    if (text.startsWith("```")) fenced = !fenced;
    if (fenced) return;
    if (text.startsWith("## ")) section = undefined;
    if (text.startsWith("### ")) {
      const m = /^### (\S+?):(\d+)\s*$/.exec(text);
      if (m === null) throw new EquivalentsFormatError(`line ${i + 1}: a heading is "### <file>:<line>", found "${text}"`);
      section = { file: m[1]!, line: Number(m[2]) };
      return;
    }
    const bullet = /^- ([A-Z][A-Za-z]+) (`.*)$/.exec(text);
    if (bullet === null) return;
    if (section === undefined) throw new EquivalentsFormatError(`line ${i + 1}: a mutant is listed outside a "### <file>:<line>" section`);
    const spans = [...bullet[2]!.matchAll(CODE_SPAN)].map((s) => unpad(s[2]!));
    if (spans.length !== 2 || !bullet[2]!.includes("→"))
      throw new EquivalentsFormatError(`line ${i + 1}: a mutant is "- <Mutator> \`original\` → \`replacement\`", found "${text}"`);
    entries.push({ file: section.file, line: section.line, mutator: bullet[1]!, original: spans[0]!, replacement: spans[1]!, docLine: i + 1 });
  });
  return entries;
}

export interface Undetected {
  readonly file: string;
  readonly mutant: ReportMutant;
  readonly original: string;
}

export interface Review {
  readonly perFile: ReadonlyMap<string, Counts>;
  readonly total: Counts;
  /** undetected mutants that an entry of the list explains (with the timed-out ones below) */
  readonly equivalent: readonly Undetected[];
  /** timed-out mutants that an entry of the list explains: counted as survived, not detected */
  readonly timedOut: readonly Undetected[];
  /** undetected mutants that no entry explains: gaps in the tests */
  readonly unlisted: readonly Undetected[];
  /** entries that match no undetected mutant */
  readonly stale: readonly EquivalentEntry[];
}

const inScope = (file: string, scope: readonly RegExp[] | undefined): boolean => scope === undefined || scope.some((r) => r.test(file));

/** A glob of the Stryker config (`core/args/**\/*.ts`) as a regular expression over file names,
 *  read by minimatch, as Stryker reads its `mutate` globs. */
export function globToRegExp(glob: string): RegExp {
  const r = makeRe(glob);
  if (r === false) throw new Error(`Not a glob: ${glob}`);
  return r;
}

/**
 * Scores the files in `scope` (globs; every file of the report when absent) and pairs each
 * undetected mutant with an entry of the list: same file, mutator, original and replacement;
 * among equal texts, the entry whose line is nearest. Each entry explains one mutant.
 */
export function reviewReport(report: MutationReport, entries: readonly EquivalentEntry[], scope?: readonly string[]): Review {
  const patterns = scope?.map(globToRegExp);
  const perFile = new Map<string, Counts>();
  const undetectedMutants: Undetected[] = [];
  // timed-out mutants are paired with the list too (see the top of this file)
  const timeouts: Undetected[] = [];
  for (const [file, f] of Object.entries(report.files).sort(([a], [b]) => a.localeCompare(b))) {
    if (!inScope(file, patterns)) continue;
    perFile.set(file, countsOf(f.mutants));
    for (const m of f.mutants) {
      if (m.status === "Survived" || m.status === "NoCoverage") undetectedMutants.push({ file, mutant: m, original: originalOf(f.source, m) });
      else if (m.status === "Timeout") timeouts.push({ file, mutant: m, original: originalOf(f.source, m) });
    }
  }

  // entries of files outside the scope are neither used nor stale in a run of some areas only
  const open = entries.filter((e) => inScope(e.file, patterns));
  // every pair of an undetected mutant and an entry that explains it, nearest lines first; each
  // mutant and each entry is paired once
  const candidates = [...undetectedMutants, ...timeouts];
  const pairs = candidates.flatMap((u) =>
    open
      .filter((e) => e.file === u.file && e.mutator === u.mutant.mutatorName && sameCode(e.original, u.original) && sameCode(e.replacement, u.mutant.replacement ?? ""))
      .map((e) => ({ u, e, distance: Math.abs(e.line - u.mutant.location.start.line) })),
  );
  pairs.sort((a, b) => a.distance - b.distance);
  const used = new Set<EquivalentEntry>();
  const explained = new Set<Undetected>();
  for (const { u, e } of pairs) {
    if (used.has(e) || explained.has(u)) continue;
    used.add(e);
    explained.add(u);
  }
  const timedOut = timeouts.filter((u) => explained.has(u));
  for (const u of timedOut) {
    const c = perFile.get(u.file)!;
    c.timeout--;
    c.survived++;
  }
  const total = emptyCounts();
  for (const c of perFile.values()) for (const k of Object.keys(total) as (keyof Counts)[]) total[k] += c[k];
  const equivalent = candidates.filter((u) => explained.has(u));
  const unlisted = undetectedMutants.filter((u) => !explained.has(u));
  // an entry of a file with no results yet cannot be judged stale
  const stale = open.filter((e) => !used.has(e) && perFile.has(e.file));
  return { perFile, total, equivalent, timedOut, unlisted, stale };
}

/** The file patterns of each area that match no file of the results: code the results say
 * nothing about (the area was never run, or its files moved). */
export function unmeasured(files: Iterable<string>, areas: readonly { readonly name: string; readonly files: readonly string[] }[]): { readonly area: string; readonly patterns: readonly string[] }[] {
  const known = [...files];
  const out: { area: string; patterns: string[] }[] = [];
  for (const a of areas) {
    const missing = a.files.filter((glob) => {
      const r = globToRegExp(glob);
      return !known.some((f) => r.test(f));
    });
    if (missing.length > 0) out.push({ area: a.name, patterns: missing });
  }
  return out;
}
