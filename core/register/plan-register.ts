// register_tool as a pure decision: the parameters and the files as they
// are now → what to answer and which file operation to run. The runtime takes the locks named by
// `planLocks`, reads the files, applies the plan and refreshes the registry.
import * as E from "fp-ts/lib/Either.js";
import { pipe } from "fp-ts/lib/function.js";
import type { Json, JsonObject, SnapshotFile } from "../model.js";
import { RESERVED_TOOL_NAMES } from "../model.js";
import { failure, type CommandResult } from "../result.js";
import { buildRecipe } from "./build.js";
import { chooseName, mangledNameProblem, nameCandidates, toolNameProblem, unsafeNameProblem } from "./name.js";
import { decodeParams, type RegisterInput } from "./params.js";
import { draftPathOf, planPromotion } from "./promote.js";
import { recipeText, storedRaw, storedReadErrorText } from "./stored.js";
import { checkTemplateInput } from "./template-input.js";
import {
  INVALID_NAME, TEMPLATE_REQUIRED_NEW, aBrokenRecipe, nothingToUpdate, alreadyAFile, alreadyRegistered, deletedTool, draftControl, nameRequired, notAToolFile, notFound, recipeInputErrorText, recipeInvalid, registeredText, markdownShadowedText,
  reservedName, storedUnreadable,
} from "./texts.js";
import { answer, recipePath, type RegisterFacts, type RegisterPlan } from "./register-plan.js";
import { unconfinedRefusal, validateContent } from "./validate-content.js";
import { compileRecipe } from "../compile/compile-recipe.js";

type Params = Readonly<Record<string, unknown>>;

interface Stored {
  readonly json?: SnapshotFile;
  readonly md?: SnapshotFile;
}

function storedOf(facts: RegisterFacts, name: string): Stored {
  const json = facts.readFile(recipePath(facts.userRoot, name));
  const md = facts.readFile(recipePath(facts.userRoot, name, "md"));
  return { ...(json === undefined ? {} : { json }), ...(md === undefined ? {} : { md }) };
}

const hasStored = (s: Stored): boolean => s.json !== undefined || s.md !== undefined;

export type LockPlan =
  | { readonly kind: "list" }
  | { readonly kind: "answer"; readonly result: CommandResult }
  | { readonly kind: "lock"; readonly paths: readonly string[] };

/** Every file the call could target, to be locked before anything is read; nothing for a
 * listing or a call refused on its parameters alone. */
export function planLocks(params: Params, roots: { readonly userRoot: string; readonly cwd: string }): LockPlan {
  const decoded = decodeParams(params);
  if (E.isLeft(decoded)) return answer(failure(decoded.left.text, decoded.left.details));
  const { name, draft } = decoded.right;
  if (name === undefined || name === "") {
    // a field without a name is a change that names no tool: never answered with the list, which
    // would read as success while nothing was written
    const given = Object.keys(params).filter((k) => k !== "name" && params[k] !== undefined && params[k] !== null && params[k] !== "");
    return given.length === 0 ? { kind: "list" } : answer(failure(nameRequired(given), { fields: given }));
  }
  const candidates = nameCandidates(name);
  if (candidates === undefined) return answer(failure(unsafeNameProblem(name) ?? INVALID_NAME));
  const paths = [candidates.normalized, candidates.exact].flatMap((n) => (n === undefined ? [] : [recipePath(roots.userRoot, n)]));
  if (draft !== undefined && /[\u0000-\u001f\u007f]/.test(draft)) return answer(failure(draftControl(draft), { draft }));
  if (draft !== undefined && draft.trim() !== "") paths.push(draftPathOf(draft, roots));
  return { kind: "lock", paths };
}

function planDelete(name: string, facts: RegisterFacts, stored: Stored): RegisterPlan {
  // nothing was deleted, so the answer must not read like a deletion
  if (!hasStored(stored)) return answer(failure(notFound(name), { tool: name }));
  const paths = [stored.md?.path, stored.json?.path].filter((p): p is string => p !== undefined);
  return { kind: "delete", name, paths, text: deletedTool(name), details: { config: recipePath(facts.userRoot, name), tool: name, removed: paths } };
}

/** The raw object an update merges into: the JSON file, else the Markdown one. */
function baseOf(stored: Stored): E.Either<{ readonly path: string; readonly reason: string }, JsonObject | undefined> {
  const file = stored.json ?? stored.md;
  if (file === undefined) return E.right(undefined);
  return pipe(
    storedRaw(file, stored.json !== undefined ? "json" : "md"),
    E.bimap((e) => ({ path: file.path, reason: storedReadErrorText(e) }), (raw): JsonObject | undefined => raw),
  );
}

/** Why a new tool cannot be written over the name's stored file: "already registered" only when
 * that file is a recipe; one that does not read or does not compile (no template, a bad field)
 * is no tool, and the answer says so, with the loader's reason. Compiled only on this refusal. */
function existingRefusal(name: string, stored: Stored, base: ReturnType<typeof baseOf>, facts: RegisterFacts): string {
  if (E.isLeft(base)) return alreadyAFile(name, base.left.path, base.left.reason);
  const file = stored.json ?? stored.md;
  if (file === undefined) return alreadyRegistered(name);
  const compiled = compileRecipe({ file, id: name, format: stored.json !== undefined ? "json" : "md" }, facts);
  if (compiled.kind !== "problem") return alreadyRegistered(name);
  return aBrokenRecipe(name, file.path, compiled.problem.message ?? "it does not load");
}

function planWrite(name: string, input: RegisterInput, template: Json | undefined, facts: RegisterFacts, stored: Stored): RegisterPlan {
  const existing = hasStored(stored);
  const base = baseOf(stored);
  if (existing && !input.update) return answer(failure(existingRefusal(name, stored, base, facts), { tool: name }));
  if (input.update && !existing) {
    // update=true on a name with no recipe: creating needs what any new tool needs, and the answer
    // says that there is nothing to update rather than only which field is missing
    const missing = [...((input.description ?? "").trim() === "" ? ["description"] : []), ...(template === undefined ? ["template"] : [])];
    if (missing.length > 0) return answer(failure(nothingToUpdate(name, missing), { tool: name }));
  }
  if (template === undefined && !existing) return answer(failure(TEMPLATE_REQUIRED_NEW, { tool: name }));
  // a stored file that cannot be read is replaced only by a call that gives the whole template
  if (E.isLeft(base) && template === undefined) return answer(failure(storedUnreadable(base.left.path, base.left.reason), { tool: name }));
  const built = buildRecipe(input, template, E.isRight(base) ? base.right : undefined);
  if (E.isLeft(built)) return answer(failure(recipeInputErrorText(built.left), { tool: name }));
  const path = recipePath(facts.userRoot, name);
  // an update keeps the order of the JSON file it rewrites (a Markdown source is rewritten as JSON)
  const storedKeys = stored.json !== undefined && E.isRight(base) && base.right !== undefined ? Object.keys(base.right) : undefined;
  const content = recipeText(built.right, storedKeys);
  const valid = validateContent(path, name, content, facts);
  if (E.isLeft(valid)) return answer(failure(recipeInvalid(valid.left.message), { tool: name, config: path, problem: valid.left }));
  const unconfined = unconfinedRefusal(valid.right.config, facts.sandboxMode, facts.home);
  if (unconfined !== undefined) return answer(failure(unconfined, { tool: name, config: path, sandbox: "refused" }));
  const { surface, warnings } = valid.right;
  const written = built.right;
  const async = written["async"];
  const details: Record<string, unknown> = {
    args: surface.names,
    config: path,
    defaults: written["defaults"] ?? {},
    ...(typeof async === "boolean" ? { async, recipeName: name } : {}),
    template: written["template"],
    ...(warnings.length === 0 ? {} : { templateWarnings: warnings }),
    tool: name,
    updated: existing,
  };
  // a Markdown tool updated: its JSON twin now shadows the .md, which stays (with its prose)
  const shadowedMd = stored.json === undefined ? stored.md?.path : undefined;
  if (shadowedMd !== undefined) details["shadows"] = shadowedMd;
  const text = registeredText(name, surface.names, existing, warnings);
  return { kind: "write", name, path, content, text: shadowedMd === undefined ? text : `${text}\n${markdownShadowedText(path, shadowedMd)}`, details };
}

/** Tells the caller the tool written or deleted has another name than the one given (`My Tool`
 * → `my_tool`); answers that change nothing already name the tool they mean. */
function noteNormalized(plan: RegisterPlan, given: string, name: string): RegisterPlan {
  if (given === name) return plan;
  const note = `Name ${JSON.stringify(given)} was normalized to "${name}".`;
  if (plan.kind === "write" || plan.kind === "delete") {
    return { ...plan, text: `${plan.text}\n${note}`, details: { ...plan.details, normalized_from: given } };
  }
  return plan;
}

/** The whole decision, its checks in a fixed order. */
export function planRegister(params: Params, facts: RegisterFacts): RegisterPlan {
  const decoded = decodeParams(params);
  if (E.isLeft(decoded)) return answer(failure(decoded.left.text, decoded.left.details));
  const input = decoded.right;
  if (input.name === undefined || input.name === "") return { kind: "list" };
  const candidates = nameCandidates(input.name);
  const name = candidates === undefined ? undefined : chooseName(candidates, (n) => hasStored(storedOf(facts, n)));
  if (name === undefined) return answer(failure(unsafeNameProblem(input.name) ?? mangledNameProblem(input.name, "") ?? INVALID_NAME));
  // a name that normalization would strip letters from is refused, not silently renamed
  const mangled = name === input.name ? undefined : mangledNameProblem(input.name, name);
  if (mangled !== undefined) return answer(failure(mangled));
  return noteNormalized(planNamed(name, input, facts), input.name, name);
}

/** A write to a stored file reached by its exact name (`my tool.json`), when that name is no
 * valid tool name: discovery would never offer the file as a tool, so the write is refused with
 * the rename to make. Deleting the file by that name stays possible. */
function invalidNameRefusal(name: string, stored: Stored): RegisterPlan | undefined {
  const file = stored.json ?? stored.md;
  if (file === undefined) return undefined;
  const problem = toolNameProblem(name, stored.json !== undefined ? "json" : "md");
  return problem === undefined ? undefined : answer(failure(notAToolFile(file.path, problem), { tool: name, config: file.path }));
}

function planNamed(name: string, input: RegisterInput, facts: RegisterFacts): RegisterPlan {
  if (RESERVED_TOOL_NAMES.includes(name)) return answer(failure(reservedName(name), { tool: name }));
  const stored = storedOf(facts, name);
  if (input.draft !== undefined && input.draft.trim() !== "") return invalidNameRefusal(name, stored) ?? planPromotion(name, input, facts, hasStored(stored));
  let template: Json | undefined;
  if (input.template.given) {
    const intent = checkTemplateInput(input.template.value);
    if (E.isLeft(intent)) return answer(failure(recipeInputErrorText(intent.left), { tool: name }));
    if (intent.right.kind === "delete") return planDelete(name, facts, stored);
    template = intent.right.template;
  }
  return invalidNameRefusal(name, stored) ?? planWrite(name, input, template, facts, stored);
}
