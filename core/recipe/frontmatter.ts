// The YAML-like frontmatter of Markdown recipes. Deliberately a
// small fixed subset, not YAML: recipe fields are flat, and a subset cannot surprise anyone with
// YAML's implicit typing beyond the few scalar rules below.
import type { Json, JsonObject } from "../model.js";

const KEY = "[A-Za-z_][A-Za-z0-9_.-]*";
/** a top-level key starts at column 0; indented "keys" at top level are not keys */
const TOP_KEY_LINE = new RegExp(`^(${KEY}):(.*)$`);
const NESTED_KEY_LINE = new RegExp(`^ {2}(${KEY}):(.*)$`);
const LIST_ITEM = /^\s*-(?:\s(.*))?$/;
const NUMBER = /^-?\d+(\.\d+)?$/;

/** One frontmatter scalar: JSON-looking text, quoted text, booleans, null, plain numbers, else the text. */
export function parseScalar(text: string): Json {
  const s = text.trim();
  if (s === "") return "";
  if ((s.startsWith("{") && s.endsWith("}")) || (s.startsWith("[") && s.endsWith("]"))) {
    try {
      return JSON.parse(s) as Json;
    } catch {
      return s;
    }
  }
  const q = s[0];
  if (s.length >= 2 && (q === '"' || q === "'") && s.endsWith(q)) return s.slice(1, -1);
  if (s === "true") return true;
  if (s === "false") return false;
  if (s === "null") return null;
  if (NUMBER.test(s)) {
    const n = Number(s);
    // a digit string too long for a double stays text rather than becoming Infinity
    if (Number.isFinite(n)) return n;
  }
  return s;
}

/** A nested block: a list when every line is a list item, else an object of 2-space-indented keys. */
function parseBlock(lines: readonly string[]): Json {
  // a key with nothing under it is an empty scalar, not an (accidentally vacuous) empty list
  if (lines.length === 0) return "";
  const items: string[] = [];
  for (const line of lines) {
    const m = LIST_ITEM.exec(line);
    if (m === null) break;
    items.push(m[1] ?? "");
  }
  if (items.length === lines.length) return items.map(parseScalar);
  const entries: [string, Json][] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = NESTED_KEY_LINE.exec(lines[i] ?? "");
    if (m === null) continue;
    const key = m[1] ?? "";
    const rest = (m[2] ?? "").trim();
    if (rest !== "") {
      entries.push([key, parseScalar(rest)]);
      continue;
    }
    const child: string[] = [];
    while (i + 1 < lines.length && (lines[i + 1] ?? "").startsWith("    ")) child.push((lines[++i] ?? "").slice(2));
    entries.push([key, parseBlock(child)]);
  }
  // fromEntries defines own properties, so a key like `__proto__` stays plain data
  return Object.fromEntries(entries) as JsonObject;
}

/** `args: a, b` is a comma list; `defaults:` may be written as a list of `key: value` items. */
function normalizeField(key: string, value: Json): Json {
  if (key === "args" && typeof value === "string") {
    return value.split(",").map((s) => s.trim()).filter((s) => s !== "");
  }
  if (key === "defaults" && Array.isArray(value)) {
    const entries: [string, Json][] = [];
    for (const item of value as readonly Json[]) {
      if (typeof item !== "string") continue;
      const colon = item.indexOf(":");
      const name = (colon < 0 ? item : item.slice(0, colon)).trim();
      if (name !== "") entries.push([name, colon < 0 ? "" : parseScalar(item.slice(colon + 1))]);
    }
    return Object.fromEntries(entries) as JsonObject;
  }
  return value;
}

/** The lines strictly between the frontmatter delimiters, as an object. Never fails. */
export function parseFrontmatter(lines: readonly string[]): JsonObject {
  const kept = lines.filter((line) => {
    const trimmed = line.trim();
    return trimmed !== "" && !trimmed.startsWith("#");
  });
  const entries: [string, Json][] = [];
  for (let i = 0; i < kept.length; i++) {
    const m = TOP_KEY_LINE.exec(kept[i] ?? "");
    if (m === null) continue;
    const key = m[1] ?? "";
    const rest = (m[2] ?? "").trim();
    let value: Json;
    if (rest !== "") value = parseScalar(rest);
    else {
      const block: string[] = [];
      while (i + 1 < kept.length && /^\s/.test(kept[i + 1] ?? "")) block.push(kept[++i] ?? "");
      value = parseBlock(block);
    }
    entries.push([key, normalizeField(key, value)]);
  }
  return Object.fromEntries(entries) as JsonObject;
}
