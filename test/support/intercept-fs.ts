// A file system port whose every call goes through one function first: for tests that log the
// calls a helper makes, fail one of them, or change the disk at the moment of a given call.
/** `fs` with each of its methods passed through `around(name, args, call)`, where `call()` runs
 *  the real method with those arguments; its other properties are read through unchanged. */
export function interceptFs<F extends object>(fs: F, around: (name: string, args: unknown[], call: () => Promise<unknown>) => Promise<unknown>): F {
  return new Proxy(fs, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (typeof value !== "function" || typeof key !== "string") return value;
      return (...args: unknown[]) => around(key, args, async () => (value as (...a: unknown[]) => Promise<unknown>).apply(target, args));
    },
  });
}
