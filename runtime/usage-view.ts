// Ledger usage for the recipe views of one-shot hosts. Reading usage folds pending launch logs
// (a write under the ledger lock), so it is done only for the views that show usage or count
// what depends on it: status, summary and doctor (their recommendations include "no recorded
// launches", and every view must give the same count), and any verbose view.
import type { Discovery, RecipeEntry } from "../core/discovery/discovery-result.js";
import type { JsonObject } from "../core/model.js";
import type { AgentPaths } from "./agent-paths.js";
import type { CommandResult } from "../core/result.js";
import { inspect } from "./verbs/inspect.js";
import { factsOf } from "../core/views/registry-summary.js";
import { isRuntimeActor } from "../core/views/tool-status.js";
import type { ReviewsDetails } from "../core/views/render.js";
import type { RuntimeContext } from "./verbs/status.js";
import type { FileSystem } from "../adapters/fs/FileSystem.js";
import { carriedUsage } from "../core/ledger/seed.js";
import { foldPending, loadUsage, seedLineages, type LedgerContext } from "./ledger/index.js";
import { registerJournalDir } from "./register-journal.js";
import { batchesRoot, journalDirOf } from "./review/review-context.js";
import { join } from "node:path";
import { isQuarantinedJournal, SET_ASIDE } from "../core/journal/journal-suffix.js";

const ZERO: JsonObject = { lifetime_calls: 0, calls: 0, revision_calls: 0, last_launch_at: null };

const verbose = (params: Readonly<Record<string, unknown>>): boolean => params["verbose"] === true || params["verbose"] === "true";

export const showsUsage = (params: Readonly<Record<string, unknown>>): boolean =>
  (params["target"] === "recipes" || params["target"] === "recipe-registry") &&
  (params["view"] === undefined || params["view"] === "status" || params["view"] === "summary" || params["view"] === "doctor" || verbose(params));

const showsReviews = (params: Readonly<Record<string, unknown>>): boolean =>
  ((params["target"] === "recipes" || params["target"] === "recipe-registry") && params["view"] === "reviews") ||
  // triage names the reviews that wait for an operator
  (typeof params["target"] === "string" && params["target"].startsWith("tool:") && isRuntimeActor(params["target"].slice(5)) && params["view"] === "triage");

/** Whether there are ledgers to read: false without a usage folder; a reason when there is
 *  something else in its place (the store is broken, not empty). */
const hasLedgers = (fs: FileSystem, ledger: LedgerContext): Promise<boolean | string> =>
  fs.stat(ledger.paths.usageRoot).then(
    (s) => s.kind === "dir" || `Usage ledgers could not be read: ${ledger.paths.usageRoot} is not a folder`,
    () => false,
  );

/** What a view says when the ledgers could not be read (a lock held past its wait, a broken
 *  store): usage shown as zeros would read as "never launched" and advise deleting busy tools. */
export const usageUnreadable = (why: string): string =>
  `${why}; usage is not shown and no tool is called unused until the ledgers can be read (try again)`;

export interface UsageLookup {
  readonly lookup: (entry: RecipeEntry) => JsonObject | undefined;
  /** set when the ledgers exist but could not be read: the lookup then knows no usage */
  readonly unreadable?: string;
  /** what seeding and reading the ledgers found on the way (an index rebuilt, a lineage not
   *  followed), for the view to say */
  readonly notes?: readonly string[];
}

/** Notes the view says: a journal set aside is listed by its file, for as long as it is there. */
const noted = (diagnostics: readonly string[]): string[] => diagnostics.filter((d) => !d.includes(SET_ASIDE));

/** Usage per entry: the session's ledger's when one exists, zeros for user recipes without
 *  launches yet. The ledger is the host session's (its file system, its lock, its usage folder);
 *  `present` is what hasLedgers found of its folder. */
export async function usageLookup(ledger: LedgerContext, discovery: Discovery, present: boolean | string): Promise<UsageLookup> {
  const zero = (entry: RecipeEntry): JsonObject | undefined => (entry.mutableUsage ? ZERO : undefined);
  // a recipe that still carries pi-actors' own `usage` object and has no ledger yet shows those
  // launches (seeding starts its lineage from them), not "never launched"
  const carriedOrZero = (entry: RecipeEntry): JsonObject | undefined => {
    const carried = entry.mutableUsage ? carriedUsage(factsOf(entry)?.usage) : undefined;
    if (carried === undefined) return zero(entry);
    return { lifetime_calls: carried.calls, calls: carried.calls, revision_calls: carried.calls, last_launch_at: carried.last_called ?? null };
  };
  if (typeof present === "string") return { lookup: () => undefined, unreadable: present };
  if (!present) return { lookup: carriedOrZero };
  // the lineages first follow the recipes as they are now: a tool renamed or edited by hand
  // since its last launch shows its own usage, not zeros or its former revision's calls (a
  // seeding that cannot run now leaves the ledgers as they are; the read below then says why)
  const seeded = await seedLineages(ledger, discovery);
  // a store busy past the wait is busy for the read too: said once, without a second wait
  const busy = seeded.diagnostics.find((d) => /^Usage lineage seeding failed: Timed out /.test(d));
  if (busy !== undefined) return { lookup: () => undefined, unreadable: busy.replace(/^Usage lineage seeding failed: /, "Usage ledgers could not be read: ") };
  const { usageFor, ledgerFor, unreadable, diagnostics } = await loadUsage(ledger, discovery.entries);
  if (unreadable !== undefined) return { lookup: () => undefined, unreadable };
  const notes = noted([...seeded.diagnostics, ...diagnostics]);
  return { lookup: (entry) => (ledgerFor(entry) === undefined ? carriedOrZero(entry) : usageFor(entry)) ?? zero(entry), ...(notes.length === 0 ? {} : { notes }) };
}

/** The drafts and reviews of `view=reviews`; their code loads only for that view. Launches still
 *  in launch logs are folded first, so a lineage a launch created is counted (as the usage views
 *  fold before they read). A store that is no folder, or a fold that cannot run (a lock held too
 *  long, a usage folder this user may not write), is `unreadable`: the ledgers as they are then
 *  miss launches, and the view must not show them as the whole count. */
async function gatherReviews(fs: FileSystem, paths: AgentPaths, ledger: LedgerContext, present: boolean | string) {
  const reviews = await import("./review/gather-reviews.js");
  let unreadable = typeof present === "string" ? present : undefined;
  if (present === true) {
    await foldPending(ledger).catch((e: unknown) => {
      unreadable = `Usage ledgers could not be read: ${e instanceof Error ? e.message : String(e)}`;
    });
  }
  // a fold that could not run makes the counts unknown, as a ledger that could not be read does
  const gathered: ReviewsDetails = await reviews.gatherReviews(fs, paths, unreadable);
  return gathered;
}

/** What a journal that recovery set aside (`<id>.journal.json.quarantined[-n]`) is said as: the
 *  plan it held was neither finished nor undone, and the one process that recovered it said so
 *  only once, on its own stderr. */
export const quarantinedJournal = (path: string): string =>
  `Journal ${path} was set aside by recovery: the plan it held was not carried out, and the files it names are as recovery found them`;

/** The journal folder of every draft-review batch (its folder under the batches folder). */
async function batchJournalDirs(fs: FileSystem, paths: AgentPaths): Promise<string[]> {
  const batches = batchesRoot(paths);
  const entries = await fs.readdir(batches).catch(() => [] as const);
  return entries.filter((e) => e.kind === "dir").map((e) => journalDirOf(join(batches, e.name)));
}

/** The journals recovery set aside, in the usage store's and register_tool's journal folders and
 *  in each draft-review batch's (docs/journal.md). */
async function quarantinedJournals(fs: FileSystem, ledger: LedgerContext, paths: AgentPaths): Promise<string[]> {
  const out: string[] = [];
  for (const dir of [ledger.paths.journals, registerJournalDir(paths), ...(await batchJournalDirs(fs, paths))]) {
    const entries = await fs.readdir(dir).catch(() => [] as const);
    for (const e of entries) if (e.kind === "file" && isQuarantinedJournal(e.name)) out.push(quarantinedJournal(join(dir, e.name)));
  }
  return out.sort();
}

/** The warning of each review state file that does not read (loaded only for the views that read
 *  usage, as the reviews view's own code is). */
async function unreadableStateLines(fs: FileSystem, paths: AgentPaths): Promise<string[]> {
  const [{ unreadableReviewStates }, { unreadableStateLine }] = await Promise.all([import("./review/gather-reviews.js"), import("./review/files.js")]);
  return (await unreadableReviewStates(fs, paths)).map(unreadableStateLine);
}

/** `inspect` for every host: ledger usage is loaded for the views that show it. */
export async function inspectWithUsage(
  discovery: Discovery,
  params: Readonly<Record<string, unknown>>,
  runtime: RuntimeContext & { readonly paths: AgentPaths; readonly fs: FileSystem; readonly ledger: LedgerContext },
): Promise<CommandResult> {
  const usage = showsUsage(params);
  const withReviews = showsReviews(params);
  // the usage folder, looked at once for both
  const present = usage || withReviews ? await hasLedgers(runtime.fs, runtime.ledger) : false;
  const found = usage ? await usageLookup(runtime.ledger, discovery, present) : undefined;
  const reviews = withReviews ? await gatherReviews(runtime.fs, runtime.paths, runtime.ledger, present) : undefined;
  // ledgers that could not be read, and journals set aside, are said as registry diagnostics
  const extra = [
    ...(found?.unreadable === undefined ? [] : [usageUnreadable(found.unreadable)]),
    ...(found?.notes ?? []),
    ...(usage ? await quarantinedJournals(runtime.fs, runtime.ledger, runtime.paths) : []),
    ...(usage ? await unreadableStateLines(runtime.fs, runtime.paths) : []),
  ];
  const seen = extra.length === 0 ? discovery : { ...discovery, diagnostics: [...discovery.diagnostics, ...extra] };
  const answer = await inspect(seen, params, { ...runtime, ...(found === undefined ? {} : { usage: found.lookup }), ...(reviews === undefined ? {} : { reviews }) });
  // the reviews view reads the usage store too (lineages, snapshots): a store that is no folder,
  // or launches that could not be folded, would read as empty there, so it says so (the views
  // above say it as a diagnostic)
  const reviewsUnreadable = reviews?.usage_unreadable;
  if (answer.ok && reviewsUnreadable !== undefined && found === undefined)
    return { ...answer, text: verbose(params) ? answer.text : `${answer.text}\nwarning: ${usageUnreadable(reviewsUnreadable)}`, details: { ...answer.details, usage_unreadable: reviewsUnreadable } };
  return found?.unreadable === undefined ? answer : { ...answer, details: { ...answer.details, usage_unreadable: found.unreadable } };
}
