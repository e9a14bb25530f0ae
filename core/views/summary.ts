// `inspect target=recipes view=...`: one entry point that
// builds the registry summary and renders the requested view, compact or verbose.
import type { JsonObject } from "../model.js";
import type { Discovery, RecipeEntry } from "../discovery/discovery-result.js";
import { failure, success, type CommandResult } from "../result.js";
import { doctorText } from "./doctor.js";
import { buildRecipesSummary, type RecipesView } from "./registry-summary.js";
import type { SandboxMode } from "../sandbox/policy.js";
import { idleReviews, importsText, reviewsText, statusText, summaryText, type ReviewsDetails } from "./render.js";

export { buildRecipesSummary, type RecipesSummary, type RecipesView } from "./registry-summary.js";

export const UNKNOWN_RECIPES_VIEW =
  "inspect recipes supports view=status, view=summary, view=doctor, view=imports, or view=reviews.";

export interface InspectRecipesOptions {
  readonly view: string;
  readonly verbose: boolean;
  /** sha256 (hex) of a file's bytes; without it manifests and drafts carry no fingerprint */
  readonly digest?: (path: string) => string | undefined;
  /** ledger usage of an entry, once the ledger exists */
  readonly usage?: (entry: RecipeEntry) => JsonObject | undefined;
  /** the review evidence the runtime read; idle without it */
  readonly reviews?: ReviewsDetails;
  /** PI_RECIPES_SANDBOX as the runtime read it (default off) */
  readonly sandboxMode?: SandboxMode;
}

const VIEWS: readonly string[] = ["status", "summary", "doctor", "imports", "reviews"];
const isView = (v: string): v is RecipesView => VIEWS.includes(v);

const verboseText = (details: unknown): string => JSON.stringify(details, null, 2);

export function inspectRecipes(discovery: Discovery, options: InspectRecipesOptions): CommandResult {
  const view = options.view;
  if (!isView(view)) return failure(UNKNOWN_RECIPES_VIEW, { view });
  if (view === "reviews") {
    const reviews = options.reviews ?? idleReviews();
    return success(options.verbose ? verboseText(reviews) : reviewsText(reviews), reviews);
  }
  const summary = buildRecipesSummary(discovery, {
    view,
    ...(options.digest === undefined ? {} : { digest: options.digest }),
    ...(options.usage === undefined ? {} : { usage: options.usage }),
    ...(options.sandboxMode === undefined ? {} : { sandboxMode: options.sandboxMode }),
  });
  const render = { status: statusText, summary: summaryText, doctor: doctorText, imports: importsText }[view];
  return success(options.verbose ? verboseText(summary) : render(summary), summary);
}
