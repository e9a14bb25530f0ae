// What the reviewer sees: counts, risk labels, bounded usage and the shape of the command graph.
// No recipe bodies, values, prose, names or paths; ids and content groups are opaque and local
// to the batch, and the reviewer returns them verbatim.
import type { Json, JsonObject } from "../model.js";
import type { Batch, BatchDraft } from "./batch.js";
import { FIELD } from "../recipe/fields.js";
import { compileTemplate } from "../compile/compile-template.js";

export interface TemplateShape {
  readonly kind: "command" | "sequence" | "parallel" | "object" | "invalid";
  readonly nodes: number;
  readonly branches?: number;
  readonly conditional?: boolean;
  readonly repeat?: boolean;
  readonly retry?: boolean;
}

export function templateShape(t: Json | undefined): TemplateShape {
  if (typeof t === "string") return { kind: "command", nodes: 1 };
  if (Array.isArray(t)) {
    const kids = (t as readonly Json[]).map(templateShape);
    return { kind: "sequence", branches: kids.length, nodes: 1 + kids.reduce((n, k) => n + k.nodes, 0) };
  }
  if (typeof t === "object" && t !== null) {
    const o = t as JsonObject;
    const inner = o["template"];
    const kids = inner === undefined ? [] : Array.isArray(inner) ? (inner as readonly Json[]).map(templateShape) : [templateShape(inner)];
    return {
      kind: o[FIELD.parallel] === true ? "parallel" : "object",
      branches: kids.length,
      conditional: FIELD.when in o,
      repeat: FIELD.repeat in o,
      retry: FIELD.retry in o,
      nodes: 1 + kids.reduce((n, k) => n + k.nodes, 0),
    };
  }
  return { kind: "invalid", nodes: 0 };
}

/** How many arguments the tool takes: the declared ones and every other name its template's
 *  placeholders read (a captured draft declares none: `echo {x=1}` takes x). */
function argumentCount(recipe: JsonObject): number {
  const args = recipe["args"];
  const declared = Array.isArray(args) && args.every((a: Json) => typeof a === "string") ? (args as readonly string[]) : undefined;
  const template = recipe["template"];
  if (template === undefined) return length(args);
  return compileTemplate(template, declared === undefined ? { template } : { args: declared, template }).surface.names.length;
}

const keyCount = (v: Json | undefined): number => (typeof v === "object" && v !== null && !Array.isArray(v) ? Object.keys(v).length : 0);
const length = (v: Json | undefined): number => (Array.isArray(v) ? v.length : 0);

/** A recipe's value-free contract: counts and the template's shape, never a value. */
export function contract(recipe: JsonObject): JsonObject {
  const mailbox = recipe[FIELD.mailbox];
  const box = typeof mailbox === "object" && mailbox !== null && !Array.isArray(mailbox) ? (mailbox as JsonObject) : {};
  return {
    argument_count: argumentCount(recipe),
    artifact_count: keyCount(recipe[FIELD.artifacts]),
    async: recipe["async"] === true,
    default_count: keyCount(recipe["defaults"]),
    import_count: keyCount(recipe["imports"]),
    mailbox_accepts_count: length(box["accepts"]),
    mailbox_emits_count: length(box["emits"]),
    template_shape: templateShape(recipe["template"]) as unknown as JsonObject,
  };
}

/** Batch-local content group names, `content_group_01` …, one per distinct key in first-seen
 *  order: equal keys share a group, and the name reveals nothing else about the content. */
export function contentGroupNames(keys: Iterable<string>): Map<string, string> {
  const out = new Map<string, string>();
  for (const k of keys) if (!out.has(k)) out.set(k, `content_group_${String(out.size + 1).padStart(2, "0")}`);
  return out;
}

/** content group per raw sha: equal bytes share a group */
const groups = (batch: Batch): Map<string, string> => contentGroupNames(batch.drafts.map((d) => d.sha256));

export const contentGroupOf = (batch: Batch, draft: BatchDraft): string => groups(batch).get(draft.sha256) ?? "";

export function project(batch: Batch): JsonObject {
  const g = groups(batch);
  return {
    batchId: batch.batchId,
    createdAt: batch.createdAt,
    active_tool_count: batch.activeTools.length,
    drafts: batch.drafts.map((d) => ({
      draft: d.occurrence,
      // every draft of the batch has its group: the groups are made from the batch's drafts
      sha256: g.get(d.sha256)!,
      valid: d.valid,
      promotable: d.promotable,
      riskLabels: [...d.riskLabels],
      usage: { ...d.usage },
      ...(d.recipe === undefined ? {} : { contract: contract(d.recipe) }),
    })),
  };
}

/** Instructions that travel with the projection to any reviewer. */
export const REVIEW_INSTRUCTIONS = [
  "You review captured draft recipes (command templates an agent ran once) and decide which become persistent tools.",
  "The JSON below describes each draft by structure only. Treat draft ids and sha256 content groups as opaque and return them verbatim.",
  "Make exactly one decision per draft: action \"promote\" or \"discard\". There is no quota.",
  "Only drafts with promotable=true may be promoted. Never return recipe content. Do not run or change anything.",
  "Each decision: {\"draft\", \"sha256\", \"action\", \"rationale\" (non-empty), \"assessment\": {\"launches\": <usage.lifetime_calls>}} and,",
  "for a promotion, optionally \"target\": a tool name matching ^[A-Za-z0-9_-]{1,64}$ (omit it to keep the draft's own name).",
  "End your output with the line DRAFT_REVIEW_RESULT followed by one JSON object: {\"batchId\", \"decisions\": [...]}.",
].join("\n");
