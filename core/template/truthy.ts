// Truthiness of template values, shared by `{a??b}`, `{c?x:y}` and `when`.

/** `String(value)` without its traps: a null-prototype object would make String() throw, and a
 * value must never crash resolution. Arrays join like Array.prototype.join (null items → ""). */
export function textOf(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return value.map((v: unknown) => (v === null || v === undefined ? "" : textOf(v))).join(",");
  if (typeof value === "object") return "[object Object]";
  return String(value);
}

/** Falsy: undefined, null, false, and anything whose text, trimmed and lower-cased, is ``, `0`,
 * `false` or `no` (so `[]` is falsy and `"off"` is truthy, as existing recipes expect). */
export function isTruthy(value: unknown): boolean {
  if (value === undefined || value === null || value === false) return false;
  const t = textOf(value).trim().toLowerCase();
  return !(t === "" || t === "0" || t === "false" || t === "no");
}
