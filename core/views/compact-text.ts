// Shared pieces of the compact inspect texts.

export const VIEW_LIMITS = {
  doctorLines: 8,
  actionPreview: 72,
  topRisks: 4,
  labels: 4,
  nextActions: 4,
  draftPreview: 120,
} as const;

/** One token of a space-separated line: whitespace runs become `_`, long values end in `…`. */
export function preview(value: string, max: number = VIEW_LIMITS.actionPreview): string {
  const token = value.replace(/\s+/g, "_");
  return token.length > max ? `${token.slice(0, Math.max(0, max - 1))}…` : token;
}

/** ` next=a|b` (each action as one token), or nothing. */
export const nextToken = (actions: readonly string[]): string =>
  actions.length === 0 ? "" : ` next=${actions.map((a) => a.replace(/\s+/g, "_")).join("|")}`;

/** A draft's template as a short string: the string itself or its JSON, capped at 120 chars. */
export function templatePreview(template: unknown): string | undefined {
  if (template === undefined) return undefined;
  const text = typeof template === "string" ? template : JSON.stringify(template);
  if (text === undefined) return undefined;
  const max = VIEW_LIMITS.draftPreview;
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}

/** Locale-independent ordering, so views never depend on the host's ICU settings. */
export { compareText } from "../text-order.js";

/** Collapses a possibly multi-line message onto one line of a compact view. */
export const oneLine = (text: string): string => text.replace(/\s*\n\s*/g, " ");
