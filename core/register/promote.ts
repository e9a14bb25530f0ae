// Promoting a captured draft: the draft is checked where it is, its raw object is written to
// `ROOT/<name>.json`, and the draft file stays. The runtime then moves the draft's lineage to the
// tool.
import * as E from "fp-ts/lib/Either.js";
import { failure } from "../result.js";
import { formatOfPath, idOfPath, resolveAgainst } from "../recipe/posix.js";
import type { RegisterInput } from "./params.js";
import { recipeText } from "./stored.js";
import { alreadyRegistered, draftInvalid, draftNotFound, draftOutside, promotedText, recipeInvalid } from "./texts.js";
import { answer, recipePath, type RegisterFacts, type RegisterPlan } from "./types.js";
import { loadAsDiscovered, validateContent } from "./validate.js";

/** Lexical, as the reference does: strictly below the drafts folder, `..` resolved first. */
export const isUnderDrafts = (path: string, draftRoot: string): boolean => path.startsWith(`${draftRoot}/`) && path.length > draftRoot.length + 1;

export function draftPathOf(draft: string, cwd: string): string {
  return resolveAgainst(cwd, draft);
}

export function planPromotion(name: string, input: RegisterInput, facts: RegisterFacts, existing: boolean): RegisterPlan {
  const draft = draftPathOf(input.draft ?? "", facts.cwd);
  if (!isUnderDrafts(draft, facts.draftRoot)) return answer(failure(draftOutside(facts.draftRoot), { tool: name }));
  const file = facts.readFile(draft);
  if (file === undefined) return answer(failure(draftNotFound(draft), { tool: name, draft }));
  if (existing && !input.update) return answer(failure(alreadyRegistered(name), { tool: name, draft }));
  const loaded = loadAsDiscovered(file, idOfPath(draft), formatOfPath(draft), facts);
  if (E.isLeft(loaded)) return answer(failure(draftInvalid(loaded.left.message), { tool: name, draft, problem: loaded.left }));
  // a draft is promoted with its own fields: captured drafts usually carry no description of
  // their own making, and none is required (a given `description` is not written either)
  const raw = loaded.right.raw;
  const path = recipePath(facts.userRoot, name);
  const content = recipeText(raw);
  // relative imports of a draft may mean something else one folder up
  const valid = validateContent(path, name, content, facts);
  if (E.isLeft(valid)) return answer(failure(recipeInvalid(valid.left.message), { tool: name, config: path, draft, problem: valid.left }));
  return {
    kind: "write",
    name,
    path,
    content,
    text: promotedText(name, existing),
    details: { args: valid.right.surface.names, config: path, draft, promoted: true, tool: name, updated: existing },
  };
}
