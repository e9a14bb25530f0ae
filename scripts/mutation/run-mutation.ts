// `npm run mutate`: mutation testing of the code where a silent bug costs most (the areas are in
// stryker.config.mjs), then the score over the scope and every mutant no test noticed that
// docs/equivalent-mutants.md does not explain.
//
// Two Stryker runs, whose results are kept in Stryker's incremental file, so a later run re-tests
// only what changed (a mutant whose code or covering tests changed). The first tests every mutant
// with the tests that cover it (`--ignoreStatic`), switched on once a test file has loaded. Mutants
// of code that also runs while a module loads (static mutants) are then tested again where that
// left them alive, switched on before anything loads and with every related test (see
// markStaticSurvivors). All chosen areas go into one run: the type checker that drops mutants
// which do not compile checks mutants of unrelated files together, which is several times faster
// than one area at a time.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { EquivalentsFormatError, globToRegExp, parseEquivalents, reviewReport, scoreOf, unmeasured, type Counts, type EquivalentEntry, type MutationReport, type ReportMutant, type Review, type Undetected } from "./mutation-report.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const EQUIVALENTS = join(root, "docs", "equivalent-mutants.md");
/** the lowest score over the scope that passes */
const REQUIRED_SCORE = 85;

interface Area {
  readonly name: string;
  readonly what: string;
  readonly files: readonly string[];
}

const USAGE = `Usage: npm run mutate [-- [area | file ...] [--report] [--fresh]]

Mutation testing (StrykerJS) of the areas named, or of every area:
%AREAS%
A file of an area (core/args/arg-type.ts) runs that file only.
  --report   only summarize the results kept from earlier runs
  --fresh    forget the results kept from earlier runs first

Passes when the score over the areas is at least ${REQUIRED_SCORE}% and every mutant no test noticed
is explained in docs/equivalent-mutants.md.`;

function fail(message: string, code = 2): never {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

async function loadConfig(): Promise<{ areas: readonly Area[]; incrementalFile: string }> {
  const mod = (await import(pathToFileURL(join(root, "stryker.config.mjs")).href)) as { areas: readonly Area[]; default: { incrementalFile: string } };
  return { areas: mod.areas, incrementalFile: join(root, mod.default.incrementalFile) };
}

function stryker(args: readonly string[]): void {
  const r = spawnSync(process.execPath, [join(root, "node_modules", "@stryker-mutator", "core", "bin", "stryker.js"), "run", ...args], { cwd: root, stdio: "inherit" });
  if (r.status !== 0) fail(`stryker ${args.join(" ")} failed (exit ${r.status ?? r.signal})`, 1);
}

const readEquivalents = (): EquivalentEntry[] => parseEquivalents(readFileSync(EQUIVALENTS, "utf8"));

const readReport = (file: string): MutationReport | undefined => (existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as MutationReport) : undefined);

/**
 * The mutants the area runs left for the static run: those skipped as static (they run only while
 * a module loads), and the survivors that also run while a module loads. With `--ignoreStatic` a
 * mutant is switched on only once the test file has loaded, so a change to module-level code (a
 * table, a codec, a fixture a test file builds when it loads) was never really tested. Marking
 * such a survivor "Ignored" in Stryker's incremental file makes the next run test it again, now
 * switched on before anything loads. Returns how many mutants the static run will test.
 */
function markStaticSurvivors(file: string, scope: readonly string[], entries: readonly EquivalentEntry[]): number {
  const report = readReport(file);
  if (report === undefined) return 0;
  // a survivor the list explains is not tested again: each static run of a mutant that survives
  // costs every related test
  const listed = new Set(reviewReport(report, entries, scope).equivalent.map((u) => u.mutant));
  const patterns = scope.map(globToRegExp);
  let marked = 0;
  for (const [name, f] of Object.entries(report.files)) {
    if (!patterns.some((p) => p.test(name))) continue;
    for (const m of f.mutants as ReportMutant[]) {
      if (m.status === "Survived" && m.static === true && !listed.has(m)) Object.assign(m, { status: "Ignored", statusReason: "static survivor: tested again, switched on before modules load" });
      if (m.status === "Ignored") marked++;
    }
  }
  // in the layout Stryker writes it (2-space indent): the file is kept in the repository, and a
  // layout that flips between runs would make every commit of it rewrite the whole file
  writeFileSync(file, JSON.stringify(report, null, 2));
  return marked;
}

const pct = (n: number | undefined): string => (n === undefined ? "-" : `${n.toFixed(1)}%`);

function row(name: string, c: Counts): string {
  const cells = [c.killed, c.timeout, c.survived, c.noCoverage, c.compileError, c.ignored + c.pending].map((n) => String(n).padStart(7));
  return `${name.padEnd(40)}${pct(scoreOf(c)).padStart(7)}${cells.join("")}`;
}

const where = (u: Undetected): string => `${u.file}:${u.mutant.location.start.line}:${u.mutant.location.start.column}`;
const oneLine = (s: string): string => s.replace(/\s+/g, " ").trim();

function printReview(review: Review, areas: readonly Area[]): void {
  const out: string[] = [];
  out.push(`${"file".padEnd(40)}${"score".padStart(7)}${["killed", "timeout", "survive", "no cov", "no comp", "not run"].map((h) => h.padStart(7)).join("")}`);
  for (const [file, c] of review.perFile) out.push(row(file, c));
  out.push(row(`all ${review.perFile.size} files of ${areas.map((a) => a.name).join(", ")}`, review.total));
  const t = review.total;
  const valid = t.killed + t.timeout + t.survived + t.noCoverage;
  out.push("");
  out.push(`Mutation score: ${pct(scoreOf(t))} (${t.killed + t.timeout} of ${valid} detected; ${t.compileError} did not compile and do not count).`);
  out.push(`Not detected: ${t.survived + t.noCoverage}, of which ${review.equivalent.length} are listed as equivalent in docs/equivalent-mutants.md.`);
  if (valid > 0) out.push(`Without the listed equivalents: ${pct((100 * (t.killed + t.timeout)) / (valid - review.equivalent.length))}.`);
  if (review.timedOut.length > 0) {
    out.push(`${review.timedOut.length} of the listed equivalents timed out (the machine was busy, no test told them apart); they count as not detected:`);
    for (const u of review.timedOut) out.push(`  ${where(u)} ${u.mutant.mutatorName}: \`${oneLine(u.original)}\` → \`${oneLine(u.mutant.replacement ?? "")}\``);
  }
  if (t.ignored + t.pending > 0) out.push(`${t.ignored + t.pending} mutants were not run yet (run \`npm run mutate\` to test them).`);
  if (review.unlisted.length > 0) {
    out.push("", `${review.unlisted.length} mutants no test noticed and the list does not explain (kill each with a test, or list it):`);
    for (const u of review.unlisted)
      out.push(`  ${where(u)} ${u.mutant.mutatorName}${u.mutant.status === "NoCoverage" ? " (no coverage)" : ""}: \`${oneLine(u.original)}\` → \`${oneLine(u.mutant.replacement ?? "")}\``);
  }
  if (review.stale.length > 0) {
    out.push("", `${review.stale.length} entries of docs/equivalent-mutants.md match no surviving mutant (killed now, or the code changed):`);
    for (const e of review.stale) out.push(`  line ${e.docLine}: ${e.file}:${e.line} ${e.mutator} \`${e.original}\` → \`${e.replacement}\``);
  }
  process.stdout.write(`${out.join("\n")}\n`);
}

async function main(argv: readonly string[]): Promise<void> {
  const { areas, incrementalFile } = await loadConfig();
  const usage = USAGE.replace("%AREAS%", areas.map((a) => `  ${a.name.padEnd(10)} ${a.what}`).join("\n"));
  const flags = new Set(argv.filter((a) => a.startsWith("-")));
  for (const f of flags) {
    if (f === "-h" || f === "--help") {
      process.stdout.write(`${usage}\n`);
      return;
    }
    if (f !== "--report" && f !== "--fresh") fail(`Unknown option ${f}; the options are --report and --fresh (npm run mutate -- --help).`);
  }
  const names = argv.filter((a) => !a.startsWith("-"));
  // a name that is no area may be one file of an area: a long area can run a file at a time,
  // and each run keeps its results when it ends
  const files = names.filter((n) => !areas.some((a) => a.name === n));
  for (const f of files) {
    const inArea = areas.some((a) => a.files.some((g) => globToRegExp(g).test(f)));
    if (!inArea || !existsSync(join(root, f))) fail(`"${f}" is neither an area nor a file of one; the areas are ${areas.map((a) => a.name).join(", ")} (npm run mutate -- --help).`);
  }
  const whole = names.length === 0 ? areas : areas.filter((a) => names.includes(a.name));
  // each file named on its own is reported as a part of its own
  const chosen: readonly Area[] = [...whole, ...files.map((f) => ({ name: f, what: "one file", files: [f] }))];
  const scope = chosen.flatMap((a) => a.files);

  if (flags.has("--fresh")) rmSync(incrementalFile, { force: true });
  if (!flags.has("--report")) {
    process.stdout.write(`\n== ${chosen.map((a) => `${a.name} (${a.what})`).join(", ")} ==\n`);
    stryker(["--mutate", scope.join(","), "--ignoreStatic"]);
    const statics = markStaticSurvivors(incrementalFile, scope, readEquivalents());
    if (statics > 0) {
      process.stdout.write(`\n== ${statics} static mutants (they run while a module loads), switched on before anything loads, with every related test ==\n`);
      stryker(["--mutate", scope.join(",")]);
    }
  }

  const report = readReport(incrementalFile);
  if (report === undefined) fail(`No results yet (${incrementalFile} is missing): run \`npm run mutate\` first.`, 1);
  const review = reviewReport(report, readEquivalents(), scope);
  printReview(review, chosen);
  const missing = unmeasured(Object.keys(report.files), chosen);
  if (missing.length > 0) {
    const lines = missing.map((m) => `  ${m.area}: ${m.patterns.join(", ")}`);
    process.stdout.write(`\nNo results for these areas (run \`npm run mutate -- ${missing.map((m) => m.area).join(" ")}\`):\n${lines.join("\n")}\n`);
  }
  const score = scoreOf(review.total);
  if (score === undefined || score < REQUIRED_SCORE || review.unlisted.length > 0 || review.total.ignored + review.total.pending > 0 || missing.length > 0) process.exitCode = 1;
}

try {
  await main(process.argv.slice(2));
} catch (e) {
  if (!(e instanceof EquivalentsFormatError)) throw e;
  fail(`docs/equivalent-mutants.md: ${e.message}`);
}
