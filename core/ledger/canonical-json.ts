// Canonical JSON: arrays in order, object keys sorted by code unit, no whitespace, primitives as
// JSON.stringify writes them. Two values that mean the same thing give the same text, whatever
// key order or formatting the file used.
import type { Json } from "../model.js";

export function canonicalJson(value: Json): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${(value as readonly Json[]).map(canonicalJson).join(",")}]`;
  const obj = value as { readonly [k: string]: Json };
  const keys = Object.keys(obj).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k]!)}`).join(",")}}`;
}
