// Memoizing pure functions of a string: registries repeat the same placeholder contents and
// declarations (`file:path`, `lang=ru`) across recipes, and each is parsed once
// (docs/performance.md). Bounded: the cache starts over when full.
export function memoizeString<A>(fn: (key: string) => A, limit = 8192): (key: string) => A {
  let cache = new Map<string, A>();
  return (key: string): A => {
    const hit = cache.get(key);
    if (hit !== undefined || cache.has(key)) return hit as A;
    const value = fn(key);
    if (cache.size >= limit) cache = new Map();
    cache.set(key, value);
    return value;
  };
}
