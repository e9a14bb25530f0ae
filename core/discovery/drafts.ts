// Draft listing entries: captured recipes that are not tools yet, each with what a reviewer needs
// to decide on it (validity, diagnostics, risk labels, a preview of its template).
import type { SnapshotFile } from "../model.js";
import type { CompiledRecipe } from "../compile/compile-recipe.js";
import type { DraftEntry } from "./discovery-result.js";

const PREVIEW_LIMIT = 120;

export function templatePreview(template: unknown): string {
  const text = typeof template === "string" ? template : JSON.stringify(template) ?? "";
  return text.length > PREVIEW_LIMIT ? text.slice(0, PREVIEW_LIMIT - 3) + "..." : text;
}

const iso = (ms: number): string => (Number.isFinite(ms) && ms > 0 ? new Date(ms).toISOString() : "");

// a captured run's description names it as `spawn run <id>`
const SOURCE_RUN = /spawn run ([A-Za-z0-9_.:-]*[A-Za-z0-9_])/;

/** The listing entry of a draft compiled from `file`; `sha256`: its bytes' digest, when known. */
export function draftEntry(compiled: CompiledRecipe, file: SnapshotFile, sha256: string | undefined): DraftEntry {
  const base = {
    id: compiled.id,
    path: file.path,
    format: compiled.format,
    size: file.size,
    created_at: iso(file.birthtimeMs || file.mtimeMs),
    modified_at: iso(file.mtimeMs),
  };
  if (compiled.kind === "problem") return { ...base, ...(sha256 === undefined ? {} : { sha256 }), valid: false, diagnostics: compiled.diagnostics, risk_labels: [] };
  const config = compiled.config;
  const sourceRun = config.description === undefined ? undefined : SOURCE_RUN.exec(config.description)?.[1];
  return {
    ...base,
    ...(sha256 === undefined ? {} : { sha256 }),
    valid: true,
    diagnostics: [],
    risk_labels: [...compiled.riskLabels],
    ...(config.description === undefined ? {} : { description: config.description }),
    ...(sourceRun === undefined ? {} : { source_run: sourceRun }),
    ...(config.async === undefined ? {} : { async: config.async }),
    template_preview: templatePreview(config.raw["template"]),
  };
}
