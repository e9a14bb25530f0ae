// The diagnostic line for a recipe that could not be loaded.
import type { RecipeProblem } from "../model.js";

export function problemDiagnostic(path: string, problem: RecipeProblem): string {
  if (problem.kind === "failed") return `Failed to load recipe ${path}: ${problem.message ?? "unknown error"}`;
  return problem.message === undefined || problem.message === ""
    ? `Invalid recipe: ${path}`
    : `Invalid recipe: ${path}: ${problem.message}`;
}
