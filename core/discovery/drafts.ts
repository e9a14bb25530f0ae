// Draft listing entries (lifecycle-reference §15.3 `drafts`): captured recipes that are not tools.
import * as E from "fp-ts/lib/Either.js";
import type { RecipeConfig, SnapshotFile } from "../model.js";
import { loadRecipe } from "../recipe/load.js";
import { resolveRecipe, type ResolveContext } from "../recipe/imports.js";
import { checkRecipe } from "../recipe/check.js";
import { riskLabels } from "../risk/risk-labels.js";
import { basename, recipeFileName } from "./paths.js";
import { problemDiagnostic } from "./problem.js";
import type { DraftEntry } from "./types.js";

const PREVIEW_LIMIT = 120;

export function templatePreview(template: unknown): string {
  const text = typeof template === "string" ? template : JSON.stringify(template) ?? "";
  return text.length > PREVIEW_LIMIT ? text.slice(0, PREVIEW_LIMIT - 3) + "..." : text;
}

const iso = (ms: number): string => (Number.isFinite(ms) && ms > 0 ? new Date(ms).toISOString() : "");

export function draftEntry(file: SnapshotFile, sha256: string | undefined, ctx: ResolveContext): DraftEntry {
  const parsed = recipeFileName(basename(file.path)) ?? { id: basename(file.path), format: "json" as const };
  const loaded = E.chain(checkRecipe)(E.chain((c: RecipeConfig) => resolveRecipe(c, file.path, ctx))(loadRecipe(file, parsed.id, parsed.format)));
  const base = {
    id: parsed.id,
    path: file.path,
    format: parsed.format,
    size: file.size,
    created_at: iso(file.birthtimeMs || file.mtimeMs),
    modified_at: iso(file.mtimeMs),
    ...(sha256 === undefined ? {} : { sha256 }),
  };
  if (E.isLeft(loaded)) {
    return { ...base, valid: false, diagnostics: [problemDiagnostic(file.path, loaded.left)], risk_labels: [] };
  }
  const config = loaded.right;
  const sourceRun = config.description === undefined ? undefined : /spawn run ([A-Za-z0-9_.:-]*[A-Za-z0-9_])/.exec(config.description)?.[1];
  return {
    ...base,
    valid: true,
    diagnostics: [],
    risk_labels: riskLabels(config),
    ...(config.description === undefined ? {} : { description: config.description }),
    ...(sourceRun === undefined ? {} : { source_run: sourceRun }),
    ...(config.async === undefined ? {} : { async: config.async }),
    template_preview: templatePreview(config.raw["template"]),
  };
}
