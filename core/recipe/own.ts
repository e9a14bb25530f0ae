// Building JSON objects from keys written by users: `__proto__` must stay an ordinary own key.
import type { Json, JsonObject } from "../model.js";

/** Sets an own data property; plain assignment of `__proto__` would replace the prototype instead. */
export function setOwn<V>(target: Record<string, V>, key: string, value: V): void {
  if (key === "__proto__") Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/** Later layers win key by key; absent layers are skipped. */
export function overlay(...layers: readonly (JsonObject | undefined)[]): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const layer of layers) {
    if (layer === undefined) continue;
    for (const key of Object.keys(layer)) setOwn(out, key, layer[key] as Json);
  }
  return out;
}

export const isEmpty = (o: JsonObject): boolean => Object.keys(o).length === 0;
