// Memoizing pure functions of a string. Registries repeat the same placeholder contents and
// declarations (`file:path`, `lang=ru`) across thousands of recipes; parsing each once keeps
// discovery near the cost of reading the files. Bounded: the cache starts over when full.
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
