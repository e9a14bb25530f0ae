// The steps the core's Either pipelines compose with `pipe`: `chain`, `bindTo` and `bind`, with
// fp-ts's types and meaning. fp-ts defines its own through a dispatcher that accepts both argument
// orders and copies its arguments into fresh arrays on every call; the compile step runs a few of
// these per recipe, and over 10,000 recipes that dispatch was some 7 % of a cold discovery's CPU
// (docs/performance.md). These are plain closures.
import * as E from "fp-ts/lib/Either.js";

/** `E.chain`: the next step on a Right, the Left as it is. */
export const chain =
  <E, A, B>(f: (a: A) => E.Either<E, B>) =>
  (ma: E.Either<E, A>): E.Either<E, B> =>
    E.isLeft(ma) ? ma : f(ma.right);

/** `E.bindTo`: a Right's value as the one field `name` of a record. */
export const bindTo =
  <N extends string>(name: N) =>
  <E, A>(ma: E.Either<E, A>): E.Either<E, { readonly [K in N]: A }> =>
    E.isLeft(ma) ? ma : E.right({ [name]: ma.right } as { readonly [K in N]: A });

/** `E.bind`: the record with one more field, `name`, from a step over the record so far. */
export const bind =
  <N extends string, A, E, B>(name: Exclude<N, keyof A>, f: (a: A) => E.Either<E, B>) =>
  (ma: E.Either<E, A>): E.Either<E, { readonly [K in keyof A | N]: K extends keyof A ? A[K] : B }> => {
    if (E.isLeft(ma)) return ma;
    const next = f(ma.right);
    return E.isLeft(next) ? next : E.right(Object.assign({}, ma.right, { [name]: next.right }) as { readonly [K in keyof A | N]: K extends keyof A ? A[K] : B });
  };
