// Promoting a captured draft: the draft is checked where it is, its raw object is written to
// `ROOT/<name>.json`, and the draft file stays. The runtime then moves the draft's lineage to the
// tool.
import * as E from "fp-ts/lib/Either.js";
import { failure } from "../result.js";
import { dirname, formatOfPath, idOfPath, join, resolveAgainst } from "../recipe/posix.js";
import type { RegisterInput } from "./params.js";
import { recipeText } from "./stored.js";
import { alreadyRegistered, draftInvalid, draftNotFound, draftOutside, draftWithFields, promotedText, recipeInvalid } from "./texts.js";
import { answer, recipePath, type RegisterFacts, type RegisterPlan } from "./register-plan.js";
import { unconfinedRefusal, validateContent } from "./validate-content.js";
import { compileRecipe } from "../compile/compile-recipe.js";

/** Lexical (no file is read): strictly below the drafts folder, `..` resolved first. */
export const isUnderDrafts = (path: string, draftRoot: string): boolean => path.startsWith(`${draftRoot}/`) && path.length > draftRoot.length + 1;

/**
 * Where `draft=` points, the same from any working directory: an absolute path as it is; a bare
 * file name in the drafts folder; a relative path against the agent dir (`recipes/drafts/x.json`),
 * else against the recipe root (`drafts/x.json`), else against the working directory, whichever
 * first lands in the drafts folder (the working directory's reading when none does, for the
 * error).
 */
export function draftPathOf(draft: string, roots: { readonly userRoot: string; readonly cwd: string }): string {
  if (draft.startsWith("/")) return resolveAgainst("/", draft);
  const draftRoot = join(roots.userRoot, "drafts");
  if (!draft.includes("/")) return resolveAgainst(draftRoot, draft);
  const readings = [dirname(roots.userRoot), roots.userRoot].map((base) => resolveAgainst(base, draft));
  return readings.find((p) => isUnderDrafts(p, draftRoot)) ?? resolveAgainst(roots.cwd, draft);
}

/** The fields given beside `draft=` that a promotion would not use (it writes the draft's own
 *  fields; only `description` may replace the draft's). */
function ignoredWithDraft(input: RegisterInput): string[] {
  return [
    ...(input.template.given ? ["template"] : []),
    ...(input.args === undefined ? [] : ["args"]),
    ...(input.values === undefined ? [] : ["values"]),
    ...(input.async === undefined ? [] : ["async"]),
    ...input.fields.keys(),
  ];
}

export function planPromotion(name: string, input: RegisterInput, facts: RegisterFacts, existing: boolean): RegisterPlan {
  // a field the promotion would drop unseen is refused: the tool written would not be the one asked for
  const ignored = ignoredWithDraft(input);
  if (ignored.length > 0) return answer(failure(draftWithFields(ignored), { tool: name, fields: ignored }));
  const draft = draftPathOf(input.draft ?? "", facts);
  if (!isUnderDrafts(draft, facts.draftRoot)) return answer(failure(draftOutside(facts.draftRoot), { tool: name }));
  const file = facts.readFile(draft);
  if (file === undefined) return answer(failure(draftNotFound(draft), { tool: name, draft }));
  if (existing && !input.update) return answer(failure(alreadyRegistered(name), { tool: name, draft }));
  const compiled = compileRecipe({ file, id: idOfPath(draft), format: formatOfPath(draft) }, facts);
  if (compiled.kind === "problem") return answer(failure(draftInvalid(compiled.problem.message), { tool: name, draft, problem: compiled.problem }));
  // a draft is promoted with its own fields, except a `description` given with the promotion,
  // which wins over the draft's own (captured drafts carry a generic one)
  const description = input.description?.trim();
  const raw = description === undefined || description === "" ? compiled.config.raw : { ...compiled.config.raw, description };
  const path = recipePath(facts.userRoot, name);
  const content = recipeText(raw);
  // relative imports of a draft may mean something else one folder up
  const valid = validateContent(path, name, content, facts);
  if (E.isLeft(valid)) return answer(failure(recipeInvalid(valid.left.message), { tool: name, config: path, draft, problem: valid.left }));
  const unconfined = unconfinedRefusal(valid.right.config, facts.sandboxMode, facts.home);
  if (unconfined !== undefined) return answer(failure(unconfined, { tool: name, config: path, draft, sandbox: "refused" }));
  return {
    kind: "write",
    name,
    path,
    content,
    text: promotedText(name, existing),
    details: { args: valid.right.surface.names, config: path, draft, promoted: true, tool: name, updated: existing },
  };
}
