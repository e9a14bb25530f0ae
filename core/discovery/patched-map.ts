// A read-only map that is an earlier map with some values replaced, without copying it: a refresh
// after one edit must not rebuild a 10,000-entry map. Patches accumulate, and past a bound the
// map is materialized again, so a lookup costs at most two hash lookups.
const MATERIALIZE_AT = 256;

export class PatchedMap<K, V> implements ReadonlyMap<K, V> {
  private constructor(
    private readonly base: ReadonlyMap<K, V>,
    private readonly patch: ReadonlyMap<K, V>,
  ) {}

  /** `map` with the values of these keys replaced; keys it does not have are ignored (no insertion) */
  static replace<K, V>(map: ReadonlyMap<K, V>, changes: Iterable<readonly [K, V]>): ReadonlyMap<K, V> {
    const base = map instanceof PatchedMap ? (map as PatchedMap<K, V>).base : map;
    const patch = new Map<K, V>(map instanceof PatchedMap ? (map as PatchedMap<K, V>).patch : []);
    for (const [k, v] of changes) if (base.has(k)) patch.set(k, v);
    if (patch.size === 0) return base;
    const patched = new PatchedMap(base, patch);
    return patch.size < MATERIALIZE_AT ? patched : new Map(patched);
  }

  get size(): number {
    return this.base.size;
  }

  get(key: K): V | undefined {
    const v = this.patch.get(key);
    return v !== undefined || this.patch.has(key) ? v : this.base.get(key);
  }

  has(key: K): boolean {
    return this.base.has(key);
  }

  *entries(): MapIterator<[K, V]> {
    for (const [k, v] of this.base) yield [k, this.patch.has(k) ? (this.patch.get(k) as V) : v];
  }

  *keys(): MapIterator<K> {
    yield* this.base.keys();
  }

  *values(): MapIterator<V> {
    for (const [, v] of this.entries()) yield v;
  }

  [Symbol.iterator](): MapIterator<[K, V]> {
    return this.entries();
  }

  forEach(fn: (value: V, key: K, map: ReadonlyMap<K, V>) => void, thisArg?: unknown): void {
    for (const [k, v] of this.entries()) fn.call(thisArg, v, k, this);
  }

  get [Symbol.toStringTag](): string {
    return "Map";
  }
}
