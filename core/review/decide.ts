// Validation of a reviewer's decisions against the captured batch, and the execution plan they
// become. Every error is collected (in evaluation order), so one reply shows all its faults. A
// reply that passes has exactly one decision per captured draft, content groups that match,
// launch counts that match the lineage, and promotion targets that are valid, free and distinct.
import * as E from "fp-ts/lib/Either.js";
import type { Json, JsonObject } from "../model.js";
import { sha256Hex } from "../ledger/sha256.js";
import type { Batch, BatchDraft } from "./batch.js";
import { isToolName } from "./names.js";
import { contentGroupOf } from "./projection.js";

export interface Decision {
  readonly draft: BatchDraft;
  readonly action: "promote" | "discard";
  readonly rationale: string;
  /** the tool name, for a promotion */
  readonly target?: string;
}

const DECISION_KEYS = new Set(["action", "assessment", "draft", "rationale", "sha256", "target", "targetSha256", "recipe"]);
const ASSESSMENT_KEYS = new Set(["flexibility", "futureUsefulness", "launches", "safety", "universality"]);

const isObject = (v: unknown): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);
const score = (v: unknown): boolean => v === undefined || (typeof v === "number" && Number.isFinite(v) && v >= 0 && v <= 1);

function assessmentErrors(raw: unknown, d: BatchDraft): string[] {
  if (!isObject(raw) || Object.keys(raw).some((k) => !ASSESSMENT_KEYS.has(k))) return [`invalid assessment shape: ${d.occurrence}`];
  const launches = raw["launches"];
  const safety = raw["safety"];
  const okValues =
    typeof launches === "number" && Number.isInteger(launches) && launches >= 0 &&
    score(raw["flexibility"]) && score(raw["futureUsefulness"]) && score(raw["universality"]) &&
    (safety === undefined || (typeof safety === "string" && safety.trim() !== ""));
  if (!okValues) return [`invalid assessment values: ${d.occurrence}`];
  return launches === d.usage.lifetime_calls ? [] : [`assessment launch count differs from lineage: ${d.occurrence}`];
}

/** Free names for promotions without an explicit target: the suggestion, else `<name>_2`, `_3`… */
function freeName(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base.toLowerCase())) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base.slice(0, 64 - String(n).length - 1)}_${n}`;
    if (!taken.has(candidate.toLowerCase())) return candidate;
  }
}

export function validateDecisions(batch: Batch, reply: JsonObject): E.Either<readonly string[], readonly Decision[]> {
  const errors: string[] = [];
  if (reply["batchId"] !== batch.batchId) errors.push("review result batch identity mismatch");
  const raw = reply["decisions"];
  if (!Array.isArray(raw)) return E.left([...errors, "review decisions must be an array"]);
  const byId = new Map(batch.drafts.map((d) => [d.occurrence, d]));
  const seen = new Set<string>();
  // names compared case-insensitively: two files differing in case collide on some file systems
  const taken = new Set(batch.activeTools.map((n) => n.toLowerCase()));
  const former = new Set((batch.formerNames ?? []).map((n) => n.toLowerCase()));
  for (const name of former) taken.add(name);
  const accepted: Array<{ draft: BatchDraft; action: "promote" | "discard"; rationale: string; target?: string }> = [];
  for (const item of raw as readonly Json[]) {
    if (!isObject(item) || Object.keys(item).some((k) => !DECISION_KEYS.has(k))) {
      errors.push("invalid review decision shape");
      continue;
    }
    // every value a reply holds is checked for its type before it is used: a reply is untrusted
    // text, and an object with its own `toString` must be a refusal, never a crash
    if (typeof item["draft"] !== "string") {
      errors.push("invalid review decision shape: draft must be a string");
      continue;
    }
    const id = item["draft"];
    const d = byId.get(id);
    if (d === undefined) {
      errors.push(`unknown review draft: ${id}`);
      continue;
    }
    if (seen.has(id)) {
      errors.push(`duplicate review decision: ${id}`);
      continue;
    }
    seen.add(id);
    if (item["sha256"] !== contentGroupOf(batch, d)) errors.push(`review draft changed: ${id}`);
    const rationale = item["rationale"];
    if (typeof rationale !== "string" || rationale.trim() === "") errors.push(`missing review rationale: ${id}`);
    if (item["assessment"] !== undefined) errors.push(...assessmentErrors(item["assessment"], d));
    const action = item["action"];
    if (action === "discard") {
      if (item["target"] !== undefined || item["targetSha256"] !== undefined || item["recipe"] !== undefined)
        errors.push(`discard decision declares promotion fields: ${id}`);
    } else if (action === "promote") {
      if (!d.valid) errors.push(`invalid draft may only be discarded: ${id}`);
      else if (!d.promotable) errors.push(`unsafe promotion source (${d.unsafe ?? "incomplete recipe"}): ${id}`);
      if (item["recipe"] !== undefined) errors.push(`promotion must not supply executable recipe content: ${id}`);
      if (item["targetSha256"] !== undefined && item["targetSha256"] !== null) errors.push(`promotion must bind an absent target: ${id}`);
      const target = item["target"];
      if (target !== undefined && (typeof target !== "string" || !isToolName(target))) errors.push(`promotion target is not a valid tool name: ${id}`);
      else if (typeof target === "string") {
        if (former.has(target.toLowerCase())) errors.push(`promotion target keeps the usage history of a former tool of that name (the draft's launches would not come along): ${target}`);
        else if (taken.has(target.toLowerCase())) errors.push(`promotion target is not uniquely absent: ${target}`);
        else taken.add(target.toLowerCase());
      }
    } else errors.push(`invalid review action: ${id}`);
    // kept whatever its faults: any fault makes the whole reply an error, so only a reply without
    // faults ever reads this list
    accepted.push({
      draft: d,
      action: action as "promote" | "discard",
      rationale: typeof rationale === "string" ? rationale : "",
      ...(typeof item["target"] === "string" ? { target: item["target"] } : {}),
    });
  }
  for (const d of batch.drafts) if (!seen.has(d.occurrence)) errors.push(`missing review decision: ${d.occurrence}`);
  if (errors.length > 0) return E.left(errors);
  // name the promotions the reviewer left unnamed, in batch order, avoiding every taken name
  const decisions = batch.drafts.map((d): Decision => {
    const a = accepted.find((x) => x.draft === d)!;
    if (a.action === "discard" || a.target !== undefined) return a as Decision;
    const name = freeName(d.suggestedName, taken);
    taken.add(name.toLowerCase());
    return { ...a, target: name };
  });
  return E.right(decisions);
}

export interface PlanItem {
  /** 1-based position in the batch */
  readonly position: number;
  readonly action: "promote" | "discard";
  readonly source: string;
  readonly sha256: string;
  /** where the source goes: `<batch dir>/quarantine/<quarantine>` */
  readonly quarantine: string;
  readonly rationale: string;
  readonly target?: { readonly name: string; readonly path: string; readonly content: string; readonly sha256: string };
}

export interface ExecutionPlan {
  readonly batchId: string;
  readonly items: readonly PlanItem[];
}

export const recipeText = (recipe: JsonObject): string => `${JSON.stringify(recipe, null, 2)}\n`;

export function planOf(batch: Batch, decisions: readonly Decision[], recipeRoot: string): ExecutionPlan {
  return {
    batchId: batch.batchId,
    items: decisions.map((d, i) => {
      const base = d.draft.path.slice(d.draft.path.lastIndexOf("/") + 1);
      const item = {
        position: i + 1,
        action: d.action,
        source: d.draft.path,
        sha256: d.draft.sha256,
        quarantine: `${String(i + 1).padStart(4, "0")}-${base}`,
        rationale: d.rationale,
      };
      if (d.action === "discard" || d.target === undefined || d.draft.recipe === undefined) return item;
      const content = recipeText(d.draft.recipe);
      return { ...item, target: { name: d.target, path: `${recipeRoot}/${d.target}.json`, content, sha256: sha256Hex(content) } };
    }),
  };
}
