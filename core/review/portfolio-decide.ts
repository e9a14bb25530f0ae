// The portfolio reviewer's reply and what it may decide. The reply is free text, then the line
// TOOL_REVIEW_RESULT, then one JSON object `{"reviewId", "decisions": [...]}`. Only four actions
// exist: keep, evolve (a rename; the content stays), demote (back to a draft; the content stays)
// and merge (canonically identical tools become one survivor). Anything else, and any recipe
// content in a decision, is an error; every error is listed, in evaluation order. A reply that
// passes becomes an approval plan: immutable (its digest is kept beside it), bounded, naming for
// every captured tool the file it is and, for each target, the file it becomes. Approving never
// touches a recipe: activation carries the plan out later.
import * as E from "fp-ts/lib/Either.js";
import type { Json, JsonObject } from "../model.js";
import { canonicalJson } from "../ledger/canonical-json.js";
import { sha256Hex } from "../ledger/sha256.js";
import { isToolName } from "./names.js";
import { objectAfterMarker, type ReplyError } from "./reply.js";
import { contentGroups, recipeDigest, TOOL_REVIEW_MARKER, type Portfolio, type PortfolioTool } from "./portfolio.js";

/** A reviewer's stdout above this is refused before parsing; so is a plan above it. */
export const APPROVAL_LIMIT = 16 * 1024 * 1024;

export type ToolAction = "keep" | "evolve" | "demote" | "merge";

export const parsePortfolioReply = (stdout: string): E.Either<ReplyError, JsonObject> =>
  stdout.length > APPROVAL_LIMIT ? E.left({ _tag: "TooLarge" }) : objectAfterMarker(stdout, TOOL_REVIEW_MARKER);

export interface ToolDecision {
  readonly tool: PortfolioTool;
  readonly action: ToolAction;
  readonly rationale: string;
  /** the real name the tool gets (evolve, merge) */
  readonly target?: string;
}

const DECISION_KEYS = new Set(["action", "assessment", "rationale", "sha256", "source", "target"]);
/** keys that would carry recipe content: a reviewer never authors what runs */
const CONTENT_KEYS = new Set(["recipe", "recipes", "outputs", "output", "template", "content", "args", "defaults", "imports"]);
const ASSESSMENT_KEYS = new Set(["adaptability", "futureUsefulness", "lifetimeCalls", "redundancy", "revisionCalls", "safety"]);

const isObject = (v: unknown): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);
const score = (v: unknown): boolean => v === undefined || (typeof v === "number" && Number.isFinite(v) && v >= 0 && v <= 1);
const calls = (v: unknown): boolean => typeof v === "number" && Number.isInteger(v) && v >= 0;

/** What an assessment holds, said after every refusal of one: the reviewer sees the usage as
 *  `lifetime_calls` and `revision_calls` in the projection, but writes them in camelCase here. */
export const ASSESSMENT_SHAPE =
  'an assessment is {"lifetimeCalls", "revisionCalls"} (whole numbers, the projection\'s lifetime_calls and revision_calls) with optional "adaptability", "futureUsefulness", "redundancy" (0 to 1) and "safety" (text)';

const camel = (k: string): string => k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

function assessmentErrors(raw: unknown, t: PortfolioTool): string[] {
  if (raw === undefined) return [];
  const invalid = (why: string): string[] => [`invalid tool assessment: ${t.occurrence} (${why})`];
  if (!isObject(raw)) return invalid("not an object");
  const unknown = Object.keys(raw).filter((k) => !ASSESSMENT_KEYS.has(k));
  if (unknown.length > 0)
    return invalid(unknown.map((k) => (ASSESSMENT_KEYS.has(camel(k)) ? `"${k}" is written "${camel(k)}"` : `unknown key "${k}"`)).join(", "));
  const bad = [
    ...(["lifetimeCalls", "revisionCalls"] as const).filter((k) => !calls(raw[k])).map((k) => (raw[k] === undefined ? `"${k}" is missing` : `"${k}" is no whole number`)),
    ...(["adaptability", "futureUsefulness", "redundancy"] as const).filter((k) => !score(raw[k])).map((k) => `"${k}" is not from 0 to 1`),
    ...(raw["safety"] === undefined || (typeof raw["safety"] === "string" && raw["safety"].trim() !== "") ? [] : ['"safety" is no text']),
  ];
  if (bad.length > 0) return invalid(bad.join(", "));
  return [
    ...(raw["lifetimeCalls"] === t.usage.lifetime_calls ? [] : [`tool lifetime calls differ from lineage: ${t.occurrence}`]),
    ...(raw["revisionCalls"] === t.usage.revision_calls ? [] : [`tool revision calls differ from lineage: ${t.occurrence}`]),
  ];
}

const lower = (s: string): string => s.toLowerCase();

export function validatePortfolioDecisions(p: Portfolio, reply: JsonObject): E.Either<readonly string[], readonly ToolDecision[]> {
  const errors: string[] = [];
  if (reply["reviewId"] !== p.reviewId) errors.push("tool review identity mismatch");
  const raw = reply["decisions"];
  if (!Array.isArray(raw)) return E.left([...errors, "tool review decisions must be an array"]);
  const byId = new Map(p.tools.map((t) => [t.occurrence, t]));
  const groups = contentGroups(p);
  // every name a target must avoid: the captured tools' and every other active tool's
  const active = new Set([...p.tools.map((t) => t.name), ...p.activeTools].map(lower));
  const seen = new Set<string>();
  const accepted = new Map<string, ToolDecision>();
  const evolveTargets = new Set<string>();
  // merge groups by the real target name; `given` is the target as the reviewer wrote it
  const merges = new Map<string, { given: string; members: PortfolioTool[] }>();
  for (const item of raw as readonly Json[]) {
    if (!isObject(item)) {
      errors.push("invalid tool decision shape");
      continue;
    }
    // every value a reply holds is checked for its type before it is used: a reply is untrusted
    // text, and an object with its own `toString` must be a refusal, never a crash
    if (typeof item["source"] !== "string") {
      errors.push("invalid tool decision shape: source must be a string");
      continue;
    }
    const id = item["source"];
    const t = byId.get(id);
    if (t === undefined) {
      errors.push(`unknown reviewed tool: ${id}`);
      continue;
    }
    if (seen.has(id)) {
      errors.push(`duplicate tool decision: ${id}`);
      continue;
    }
    seen.add(id);
    const before = errors.length;
    const keys = Object.keys(item);
    if (keys.some((k) => CONTENT_KEYS.has(k))) errors.push(`tool review must not supply executable recipe content: ${id}`);
    if (keys.some((k) => !DECISION_KEYS.has(k) && !CONTENT_KEYS.has(k))) errors.push(`invalid tool decision shape: ${id}`);
    if (item["sha256"] !== groups.get(id)) errors.push(`reviewed tool changed: ${id}`);
    const rationale = item["rationale"];
    if (typeof rationale !== "string" || rationale.trim() === "") errors.push(`missing tool rationale: ${id}`);
    errors.push(...assessmentErrors(item["assessment"], t));
    const action = item["action"];
    const rawTarget = item["target"];
    // a target that is an occurrence id names that tool: the reviewer never sees real names
    const target = typeof rawTarget === "string" ? (byId.get(rawTarget)?.name ?? rawTarget) : undefined;
    if (action === "keep" || action === "demote") {
      if (rawTarget !== undefined) errors.push(`${action} declares a target: ${id}`);
    } else if (action === "evolve") {
      if (target === undefined || !isToolName(target)) errors.push(`evolve requires a valid tool name target: ${id}`);
      else if (lower(target) === lower(t.name)) errors.push(`evolve must rename: ${id}`);
      else if (active.has(lower(target))) errors.push(`evolve target collides with active tool: ${String(rawTarget)}`);
      else if (evolveTargets.has(lower(target)) || merges.has(lower(target))) errors.push(`duplicate tool review target: ${String(rawTarget)}`);
      else evolveTargets.add(lower(target));
    } else if (action === "merge") {
      if (target === undefined || !isToolName(target)) errors.push(`merge requires a valid tool name target: ${id}`);
      else if (evolveTargets.has(lower(target))) errors.push(`duplicate tool review target: ${String(rawTarget)}`);
    } else if (action === "replace" || action === "split") errors.push(`${action} requires explicit operator-authored recipe mutation: ${id}`);
    else errors.push(`invalid tool review action: ${id}`);
    if (errors.length === before) {
      const decision: ToolDecision = { tool: t, action: action as ToolAction, rationale: typeof rationale === "string" ? rationale : "", ...(target === undefined ? {} : { target }) };
      accepted.set(id, decision);
      if (action === "merge" && target !== undefined) {
        const g = merges.get(lower(target)) ?? { given: String(rawTarget), members: [] };
        g.members.push(t);
        merges.set(lower(target), g);
      }
    }
  }
  for (const t of p.tools) if (!seen.has(t.occurrence)) errors.push(`missing tool decision: ${t.occurrence}`);
  for (const [key, g] of merges) {
    if (g.members.length < 2) errors.push(`merge target requires at least two sources: ${g.given}`);
    const member = g.members.some((m) => lower(m.name) === key);
    if (!member && active.has(key)) errors.push(`merge target collides with unrelated active tool: ${g.given}`);
    if (new Set(g.members.map((m) => recipeDigest(m.recipe))).size > 1) errors.push(`merge target recipes differ: ${g.given}`);
  }
  // the shape an assessment needs, said once after the refusals of any
  if (errors.some((e) => e.startsWith("invalid tool assessment: "))) errors.push(`(${ASSESSMENT_SHAPE})`);
  if (errors.length > 0) return E.left(errors);
  return E.right(p.tools.map((t) => accepted.get(t.occurrence)!));
}

export interface PlanSource {
  readonly name: string;
  readonly path: string;
  readonly sha256: string;
  readonly action: ToolAction;
  readonly rationale: string;
  /** the lineage this source's usage goes to: its own name (keep), or the target's */
  readonly lineage: string;
  /** what activation does with the file: nothing, a rename to `to`, or quarantine */
  readonly move: "none" | "rename" | "quarantine";
  readonly to?: string;
}

export interface ApprovalPlan {
  readonly reviewId: string;
  readonly createdAt: string;
  /** the digest of the captured portfolio the plan was approved against */
  readonly portfolioSha256: string;
  /** the 36 captured tools, in portfolio order */
  readonly sources: readonly PlanSource[];
}

export interface ApprovalRoots {
  readonly recipeRoot: string;
  readonly draftRoot: string;
}

/** What the runtime observed just before approving: each path's current bytes digest, if any. */
export type Observed = (path: string) => string | undefined;

/** The recipe files of the user root whose resolution read `path` (an import or a delegation by
 *  name reads the named recipe's file), the file itself left out. */
export type Readers = (path: string) => readonly string[];

/** Readers from a discovery's entries and the paths each recipe's resolution read (`reads`, by
 *  recipe path): only recipes of the user root count (a tool review moves nothing else). */
export function readersOf(entries: readonly { readonly path: string; readonly toolSource: boolean }[], reads: ReadonlyMap<string, readonly string[]>): Readers {
  const by = new Map<string, string[]>();
  for (const e of entries) {
    if (!e.toolSource) continue;
    for (const p of new Set(reads.get(e.path) ?? [])) {
      if (p === e.path) continue;
      const readers = by.get(p);
      if (readers === undefined) by.set(p, [e.path]);
      else readers.push(e.path);
    }
  }
  return (path) => by.get(path) ?? [];
}

const fileName = (path: string): string => path.slice(path.lastIndexOf("/") + 1);

/** What the plan would break: every recipe that reads a tool the plan moves away (renames,
 *  demotes, merges away) and stays a recipe of the root itself (it is not merged away or demoted:
 *  a recipe renamed keeps its content, so it breaks too). A tool's name is the contract of the
 *  recipes that import it; a review never breaks one. */
export function planBreaks(sources: readonly PlanSource[], readers: Readers): string[] {
  const leaving = new Set(sources.filter((s) => s.move === "quarantine" || s.action === "demote").map((s) => s.path));
  const errors: string[] = [];
  for (const s of sources) {
    if (s.move === "none") continue;
    const what = s.action === "demote" ? "demotes to a draft" : s.move === "quarantine" ? "merges away" : `renames to ${fileName(s.to!)}`;
    for (const reader of readers(s.path)) {
      if (reader === s.path || leaving.has(reader)) continue;
      errors.push(`Tool review would break ${reader}: it imports or delegates to ${s.name} (${s.path}), which the plan ${what}; nothing was changed`);
    }
  }
  return errors;
}

// every path this reads is a tool's file or a target made from one, so it ends in `.json` or `.md`
const extension = (path: string): string => path.slice(path.lastIndexOf("."));

/**
 * The approval plan, or every reason there is none: a captured tool changed since the capture, a
 * target file that appeared meanwhile, a recipe that reads a tool the plan moves away
 * (planBreaks), a plan over the limit. `observed` is what the files hold
 * now; the plan itself never touches them.
 */
export function approve(
  p: Portfolio, digest: string, decisions: readonly ToolDecision[], roots: ApprovalRoots, observed: Observed, createdAt: string, readers: Readers = () => [],
): E.Either<readonly string[], ApprovalPlan> {
  const errors: string[] = [];
  for (const t of p.tools) if (observed(t.path) !== t.sha256) errors.push(`Reviewed tool changed after capture: ${t.name}`);
  const sourcePaths = new Set(p.tools.map((t) => t.path));
  const targetPaths = new Set<string>();
  const claim = (path: string): void => {
    if (targetPaths.has(path)) errors.push(`Duplicate tool review target: ${path}`);
    targetPaths.add(path);
    // a .md and a .json of one name would shadow each other: either one blocks the target
    const stem = path.slice(0, path.length - extension(path).length);
    // (it may have been there before the capture: a demotion's draft of the same name)
    if ([path, `${stem}.json`, `${stem}.md`].some((p) => !sourcePaths.has(p) && observed(p) !== undefined)) errors.push(`Tool review target is taken: ${path} (a file of that name is there; a review never replaces one)`);
  };
  // a tool that moves away (demoted, renamed, merged away) must not leave its name to a shadowed
  // recipe of the other format: a demotion would then bring back an older recipe under the name
  const twinUncovered = (d: ToolDecision): void => {
    const stem = d.tool.path.slice(0, d.tool.path.length - extension(d.tool.path).length);
    const twin = extension(d.tool.path) === ".md" ? `${stem}.json` : `${stem}.md`;
    if (!sourcePaths.has(twin) && observed(twin) !== undefined)
      errors.push(`Tool review would bring back a shadowed recipe: ${twin} takes the name ${d.tool.name} once ${d.tool.path} moves; remove or rename it first`);
  };
  for (const d of decisions) if (d.action === "demote" || d.action === "evolve" || (d.action === "merge" && lower(d.tool.name) !== lower(d.target!))) twinUncovered(d);
  const sources = decisions.map((d): PlanSource => {
    const base = { name: d.tool.name, path: d.tool.path, sha256: d.tool.sha256, action: d.action, rationale: d.rationale };
    if (d.action === "keep") return { ...base, lineage: d.tool.name, move: "none" };
    if (d.action === "demote") {
      const to = `${roots.draftRoot}/${d.tool.name}${extension(d.tool.path)}`;
      claim(to);
      return { ...base, lineage: d.tool.name, move: "rename", to };
    }
    if (d.action === "evolve") {
      const to = `${roots.recipeRoot}/${d.target!}${extension(d.tool.path)}`;
      claim(to);
      return { ...base, lineage: d.target!, move: "rename", to };
    }
    // merge: the member named like the target survives in place; with a new name, the first
    // member (portfolio order) is renamed to it, spelled as that member's decision wrote it;
    // every other member is quarantined. Every member names the survivor's lineage, whatever
    // the case its own decision wrote the target in: the lineage plan groups members by it.
    const members = decisions.filter((m) => m.action === "merge" && lower(m.target!) === lower(d.target!));
    const survivor = members.find((m) => lower(m.tool.name) === lower(d.target!));
    if (survivor !== undefined) return survivor === d ? { ...base, lineage: survivor.tool.name, move: "none" } : { ...base, lineage: survivor.tool.name, move: "quarantine" };
    const first = members[0]!;
    if (first !== d) return { ...base, lineage: first.target!, move: "quarantine" };
    const to = `${roots.recipeRoot}/${d.target!}${extension(d.tool.path)}`;
    claim(to);
    return { ...base, lineage: d.target!, move: "rename", to };
  });
  errors.push(...planBreaks(sources, readers));
  const plan: ApprovalPlan = { reviewId: p.reviewId, createdAt, portfolioSha256: digest, sources };
  if (JSON.stringify(plan).length > APPROVAL_LIMIT) errors.push("Tool review approved plan exceeds the persistence limit.");
  return errors.length > 0 ? E.left(errors) : E.right(plan);
}

/** The approval plan's identity: activation runs a plan only when its digest matches the state. */
export const approvalSha256 = (plan: ApprovalPlan): string => sha256Hex(canonicalJson(plan as unknown as Json));
