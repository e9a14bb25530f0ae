// `spawn`: run an inline template (`template=`), a recipe file (`file=`) or a recipe by name
// (`recipe=`) in the foreground. A bare name blocked by an invalid or disabled winner says so
// with the shadowed-launch tokens (see "Shadowing and diagnostics" in docs/recipes.md).
import * as E from "fp-ts/lib/Either.js";
import { basename, dirname, resolve } from "node:path";
import { leaves } from "../../core/template/graph.js";
import { splitWords } from "../../core/template/split.js";
import { normalizeArgs } from "../../core/args/normalize.js";
import { argMismatchText } from "../../core/args/arg-type.js";
import { objectValueProblem, typedArrayValueProblem, wordUses } from "../../core/args/call-check.js";
import { discover } from "../../core/discovery/discover.js";
import { recipeFileName } from "../../core/discovery/paths.js";
import { compileTemplate } from "../../core/compile/compile-template.js";
import { toolOf } from "../../core/compile/tool.js";
import type { Discovery, RecipeEntry } from "../../core/discovery/discovery-result.js";
import type { Json } from "../../core/model.js";
import { failure, type CommandResult } from "../../core/result.js";
import { unaccounted } from "../accounting.js";
import { confinedContext, executeOptions, launch } from "../launch.js";
import { errorText, reportExecution } from "../execute/execution-report.js";
import type { Registry } from "../registry.js";
import { sha256Of } from "../crypto-sha256.js";
import { readSnapshot } from "../recipe-snapshot.js";
import { runTool, type CallContext } from "./call.js";
import { scopeOf, type Values } from "../../core/template/substitute.js";
import type { Execution } from "../execute/execute.js";
import { makeProcessRunner, type ProcessRunner } from "../../adapters/process/ProcessRunner.js";
import { nodeProcessRunner } from "../../adapters/process/node-runner.js";
import { unknownKeys, type Params } from "./verb-params.js";
import type { DraftCaptured, InlineDraft } from "../review/capture-draft.js";
import { programOf } from "../../core/tool/program.js";
import { findOnPath, isExecutableFile } from "../../adapters/process/find-on-path.js";
import { declaredPolicy } from "../../core/sandbox/policy.js";
import { callSandboxMode, sandboxOf } from "../call-sandbox.js";

/** A spawn's context: a call's, plus where an inline template is captured as a draft. */
export interface SpawnContext extends CallContext {
  /** saves an inline template as a draft before it runs; absent: nothing is captured */
  readonly captureDraft?: (draft: InlineDraft) => Promise<DraftCaptured>;
}

export const SPAWN_USAGE = "spawn requires exactly one of template=<command template>, file=<recipe path> or recipe=<recipe name>";

export interface ShadowedLaunch {
  readonly reason: "shadowed_invalid" | "shadowed_disabled";
  readonly active_path: string;
  readonly blocked_fallback: string;
  readonly hint: "inspect_recipes_doctor";
}

/** Only an invalid or disabled winner that hides a lower-priority file of the same name is worth a
 * diagnostic: the caller may have meant the file it blocks. */
export function shadowedLaunch(discovery: Discovery, name: string): ShadowedLaunch | undefined {
  const entry = discovery.active.get(name.trim());
  const fallback = entry?.shadows[0];
  if (entry === undefined || fallback === undefined || !(entry.invalid || entry.disabled)) return undefined;
  return { reason: entry.invalid ? "shadowed_invalid" : "shadowed_disabled", active_path: entry.path, blocked_fallback: fallback, hint: "inspect_recipes_doctor" };
}

function parseValues(raw: unknown): E.Either<string, Readonly<Record<string, unknown>>> {
  if (raw === undefined || raw === null) return E.right({});
  let value: unknown = raw;
  if (typeof raw === "string") {
    try {
      value = JSON.parse(raw) as unknown;
    } catch {
      return E.left("spawn values must be a JSON object");
    }
  }
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? E.right(value as Record<string, unknown>)
    : E.left("spawn values must be a JSON object");
}

/** A command word of the template, written literally, that names no program: not on PATH (a
 *  bare name), or no executable file (a path). Words holding a placeholder are not judged. */
function missingCommand(template: Json, cwd: string, env: NodeJS.ProcessEnv): string | undefined {
  for (const leaf of leaves(template)) {
    const command = splitWords(leaf.text)[0];
    if (command === undefined || command.includes("{") || command.startsWith("~")) continue;
    const found = command.includes("/") ? isExecutableFile(resolve(cwd, command)) : findOnPath(command, env) !== undefined;
    if (!found) return command;
  }
  return undefined;
}

/** The draft an inline spawn left behind, as result tokens and details. */
/** The capture as a promise that never rejects: it runs beside the command, and a rejection
 *  nobody awaited yet (a drafts folder that cannot be written, a full disk) would end the process
 *  while the command still runs. Started inside, so a capture that throws at once is caught too. */
function settledCapture(start: () => Promise<DraftCaptured> | undefined): Promise<DraftCaptured> | undefined {
  const why = (e: unknown): DraftCaptured => ({ captured: false, reason: e instanceof Error ? e.message : String(e) });
  try {
    return start()?.catch(why);
  } catch (e) {
    return Promise.resolve(why(e));
  }
}

async function withDraft(result: CommandResult, capture: Promise<DraftCaptured> | undefined): Promise<CommandResult> {
  if (capture === undefined) return result;
  const draft = await capture;
  // a draft saved whose usage lineage could not be written (the ledger busy past its wait) is
  // saved all the same, and says so
  const notes = draft.captured && draft.diagnostics.length > 0 ? ` draft_note=${JSON.stringify(draft.diagnostics.join("; "))}` : "";
  const token = draft.captured ? `draft_recipe=${draft.path}${notes}` : `draft_recipe=none draft_reason=${JSON.stringify(draft.reason)}`;
  const details = draft.captured
    ? { draft_recipe: draft.path, ...(draft.diagnostics.length > 0 ? { draft_diagnostics: draft.diagnostics } : {}) }
    : { draft_recipe: null, draft_reason: draft.reason };
  return { ...result, text: `${result.text}${result.text.endsWith("\n") || result.text === "" ? "" : "\n"}${token}`, details: { ...result.details, ...details } };
}

async function spawnInline(template: Json, values: Readonly<Record<string, unknown>>, ctx: SpawnContext): Promise<CommandResult> {
  const compiled = compileTemplate(template);
  if (compiled.error !== undefined) {
    const step = compiled.errorStep;
    return failure(errorText(compiled.error, step, template), { tool: "spawn", template, error: compiled.error, ...(step === undefined ? {} : { step }) });
  }
  // an object has no text for a command word: checked as given (a string type would make it
  // `[object Object]`) and once normalized (an array argument parses JSON text)
  const uses = wordUses(leaves(template).map((leaf) => leaf.text));
  const given = objectValueProblem(uses, values, Object.keys(values));
  if (given !== undefined) return failure(given, { tool: "spawn", template, error: given });
  // an array given for a placeholder typed to take one value (`{f:path}`, `{m:enum(a,b)}`) is
  // refused as a call refuses it: joined with commas it would run as a value nobody gave
  const array = typedArrayValueProblem(values, compiled.surface);
  if (array !== undefined) return failure(array, { tool: "spawn", template, error: array });
  const normalized = normalizeArgs(compiled.surface, values);
  if (E.isLeft(normalized)) {
    const error = argMismatchText(normalized.left);
    return failure(error, { tool: "spawn", template, error });
  }
  const parsed = objectValueProblem(uses, normalized.right, Object.keys(values));
  if (parsed !== undefined) return failure(parsed, { tool: "spawn", template, error: parsed });
  // with PI_RECIPES_SANDBOX=on an inline template runs confined as a tool without a `sandbox`
  // field does (docs/sandbox.md), or not at all (and, not launched, is not captured either)
  const confinement = sandboxOf("spawn", declaredPolicy(undefined, callSandboxMode(ctx)), scopeOf(normalized.right), ctx.paths, ctx.env ?? process.env, ctx);
  if (confinement.kind === "refused") return failure(confinement.message, { tool: "spawn", template, sandbox: "refused" });
  // captured when its first command starts, not on success: a failing first attempt is still
  // worth a review; but a command that cannot start at all (a typo: `ecoh hi`) is no tool to
  // make, and is not saved
  const missing = ctx.captureDraft === undefined ? undefined : missingCommand(template, ctx.paths.cwd, ctx.env ?? process.env);
  if (missing !== undefined) {
    const notFound = Promise.resolve<DraftCaptured>({ captured: false, reason: `command not found: ${missing} (a template that cannot start is not saved as a draft)` });
    return withDraft(await runInline(template, normalized.right, ctx, confinement), notFound);
  }
  let capture: Promise<DraftCaptured> | undefined;
  const start = (): void => {
    capture ??= settledCapture(() => ctx.captureDraft?.({ template, values }));
  };
  const watched = ctx.captureDraft === undefined ? ctx : { ...ctx, runner: onFirstRun(ctx.runner ?? nodeProcessRunner, start) };
  const execution = await launchInline(template, normalized.right, watched, confinement);
  // a template refused before any command ran (a missing value, a control out of range) is no
  // tool to make either; one that ran no command and ended well is saved as it was
  if (capture === undefined && ctx.captureDraft !== undefined) {
    if (execution.kind === "error") capture = Promise.resolve<DraftCaptured>({ captured: false, reason: NOT_STARTED });
    else start();
  }
  return withDraft(await reportInline(template, execution, ctx), capture);
}

const NOT_STARTED = "no command started (a template that cannot start is not saved as a draft)";

/** `base`, calling `first` once, just before the first command it is asked to run starts. */
function onFirstRun(base: ProcessRunner, first: () => void): ProcessRunner {
  return makeProcessRunner(base.name, (invocation) => {
    first();
    return base.run(invocation);
  });
}

type Confinement = ReturnType<typeof sandboxOf>;

// an inline template is no recipe file: there is nothing to count (it is captured as a draft)
const launchInline = (template: Json, values: Values, ctx: SpawnContext, confinement: Confinement): Promise<Execution> =>
  launch(unaccounted("an inline template"), programOf(template), values, executeOptions(confinedContext(ctx, confinement.kind === "confined" ? confinement.sandbox : undefined)));

const reportInline = (template: Json, execution: Execution, ctx: SpawnContext): Promise<CommandResult> =>
  reportExecution(execution, { tool: "spawn", template, graph: template, tmpRoot: ctx.paths.tmpRoot, fs: ctx.fs });

const runInline = async (template: Json, values: Values, ctx: SpawnContext, confinement: Confinement): Promise<CommandResult> =>
  reportInline(template, await launchInline(template, values, ctx, confinement), ctx);

function blocked(entry: RecipeEntry): string {
  if (entry.disabled) return `Template recipe is disabled: ${entry.path}`;
  return entry.diagnostics[0] ?? `Invalid recipe: ${entry.path}`;
}

async function spawnEntry(entry: RecipeEntry, values: Readonly<Record<string, unknown>>, ctx: CallContext): Promise<CommandResult> {
  const compiled = entry.compiled;
  if (compiled.kind === "problem" || compiled.disabled) return failure(blocked(entry), { path: entry.path });
  const tool = toolOf(compiled);
  if (E.isLeft(tool)) return failure(`Recipe ${entry.id} could not be run: ${tool.left.message}`, { path: entry.path });
  // the digest discovery took of the bytes it compiled: launch accounting checks the file against it
  return runTool(entry.sourceSha256 === undefined ? tool.right : { ...tool.right, sourceSha256: entry.sourceSha256 }, values, ctx);
}

const expandHome = (path: string, home: string): string => (path === "~" ? home : path.startsWith("~/") ? home + path.slice(1) : path);

async function spawnFile(registry: Registry, path: string, values: Readonly<Record<string, unknown>>, ctx: CallContext): Promise<CommandResult> {
  const file = resolve(ctx.paths.cwd, expandHome(path, ctx.paths.home));
  // a file of another name is no recipe, there or not: "not found" would send the caller looking
  if (recipeFileName(basename(file)) === undefined) return failure(`Not a recipe file: ${file} (a recipe file is named <name>.json or <name>.md)`, { path: file });
  const snapshot = readSnapshot(registry.scan, {
    paths: registry.paths,
    adhocFiles: [file],
    ...(registry.packagedRoot === undefined ? {} : { packagedRoot: registry.packagedRoot }),
  });
  const entry = discover(snapshot, { digest: sha256Of }).entries.find((e) => e.path === file);
  if (entry === undefined) return failure(`Recipe file not found: ${file}`, { path: file });
  const unconfined = unconfinedAdhoc(registry, entry, ctx);
  if (unconfined !== undefined) return failure(unconfined, { path: file, sandbox: "refused" });
  return spawnEntry(entry, values, ctx);
}

/** With `PI_RECIPES_SANDBOX=on`, a recipe that runs unconfined is one a person put in a recipe
 *  root; a file anywhere else (a draft, a file an agent just wrote) that says `sandbox: false`
 *  does not opt out by being spawned. The refusal, or undefined. */
function unconfinedAdhoc(registry: Registry, entry: RecipeEntry, ctx: CallContext): string | undefined {
  if (entry.compiled.kind === "problem" || entry.compiled.config.sandbox !== false) return undefined;
  if (callSandboxMode(ctx) !== "on") return undefined;
  const folder = dirname(entry.path);
  if (folder === registry.paths.recipeRoot || folder === registry.packagedRoot) return undefined;
  return `PI_RECIPES_SANDBOX=on: spawn file= does not run ${entry.path} unconfined ("sandbox": false): only a recipe in a recipe root may opt out. Leave the field out (it then runs confined).`;
}

async function spawnByName(registry: Registry, name: string, values: Readonly<Record<string, unknown>>, ctx: CallContext): Promise<CommandResult> {
  const discovery = registry.discover();
  const entry = discovery.active.get(name.trim());
  if (entry === undefined) return failure(`Unknown recipe: ${name}`, { recipe: name });
  const result = await spawnEntry(entry, values, ctx);
  const shadow = result.ok || (entry.config !== undefined && !entry.invalid && !entry.disabled) ? undefined : shadowedLaunch(discovery, name);
  if (shadow === undefined) return result;
  const tokens = ` reason=${shadow.reason} active_path=${shadow.active_path} blocked_fallback=${shadow.blocked_fallback} hint=${shadow.hint}`;
  return failure(result.text + tokens, { ...result.details, ...shadow, original_error: result.text });
}

/** `spawn template=... | file=... | recipe=...  [values={...}]`. */
export async function spawn(registry: Registry, params: Params, ctx: SpawnContext): Promise<CommandResult> {
  const bad = unknownKeys("spawn", params, ["template", "file", "recipe", "values"]);
  if (bad !== undefined) return bad;
  const given = (["template", "file", "recipe"] as const).filter((k) => params[k] !== undefined && params[k] !== null);
  if (given.length !== 1) return failure(SPAWN_USAGE);
  const values = parseValues(params["values"]);
  if (E.isLeft(values)) return failure(values.left);
  const key = given[0] as "template" | "file" | "recipe";
  const target = params[key];
  // `template=true` on a command line is JSON's true: a number or a boolean is the command written
  // as it is (`true`, `false`, `42`), not an empty template
  if (key === "template") return spawnInline(typeof target === "number" || typeof target === "boolean" ? String(target) : (target as Json), values.right, ctx);
  if (typeof target !== "string" || target.trim() === "") return failure(`argument "${key}" must be a non-empty string`);
  // a bare name is a recipe name, whichever key carried it; anything with a path in it is a file
  const bare = !target.includes("/") && !target.startsWith("~") && !(key === "file" && /\.(json|md)$/.test(target));
  if (!bare) return spawnFile(registry, target, values.right, ctx);
  return spawnByName(registry, target, values.right, ctx);
}
