// A recipe that runs another recipe's commands (an imported component placed in its template, or
// a recipe it delegates to) runs them under its own sandbox, so the other recipe's confinement
// would be lost if that sandbox were weaker: a recipe that asks for confinement never runs
// unconfined, also as a step of another. The resolved recipe therefore takes the sandbox of the
// recipes it places when it has none of its own, and is refused when its own is less strict than
// one of theirs, or when they ask for different ones (docs/sandbox.md).
import * as E from "fp-ts/lib/Either.js";
import { declaredPolicy, type SandboxField, type SandboxPolicy } from "../sandbox/policy.js";
import type { RecipeError } from "./recipe-error.js";

/** the sandbox of one recipe placed in another, and the file it comes from */
export interface Confining {
  readonly from: string;
  readonly field: SandboxField;
}

/** what a field asks for whatever the operator's PI_RECIPES_SANDBOX says; undefined: nothing */
const asked = (field: SandboxField | undefined): SandboxPolicy | undefined => declaredPolicy(field, "off");

/** `mine` confines at least as much as `theirs`: no network where they have none, no write path
 * they do not have, every path they hide hidden */
export function atLeastAsStrict(mine: SandboxPolicy, theirs: SandboxPolicy): boolean {
  return (!mine.network || theirs.network) && mine.write.every((w) => theirs.write.includes(w)) && theirs.readDeny.every((r) => mine.readDeny.includes(r));
}

/** The sandbox field of a recipe whose own is `own` and that places recipes with `placed`. */
export function confinementOf(own: SandboxField | undefined, placed: readonly Confining[]): E.Either<RecipeError, SandboxField | undefined> {
  const asking = placed.flatMap((c) => {
    const policy = asked(c.field);
    return policy === undefined ? [] : [{ ...c, policy }];
  });
  if (asking.length === 0) return E.right(own);
  if (own === undefined) {
    const first = asking[0]!;
    const other = asking.find((c) => !atLeastAsStrict(c.policy, first.policy) || !atLeastAsStrict(first.policy, c.policy));
    return other === undefined ? E.right(first.field) : E.left({ _tag: "PlacedSandboxesDiffer", first: first.from, other: other.from });
  }
  const mine = asked(own);
  const weaker = asking.find((c) => mine === undefined || !atLeastAsStrict(mine, c.policy));
  return weaker === undefined ? E.right(own) : E.left({ _tag: "SandboxWeakerThanPlaced", placed: weaker.from });
}
