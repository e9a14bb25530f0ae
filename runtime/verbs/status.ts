// `inspect target=tool:pi-actors view=status|triage`: which registry code is live and what needs
// attention. Gathers the facts core's views render: the package manifest, the entrypoint the
// host loaded, the git commit of the package root, the automatic-review policy, the runs.
import type { RecipeEntry } from "../../core/discovery/discovery-result.js";
import type { JsonObject } from "../../core/model.js";
import { execFileSync } from "node:child_process";
import { childEnvironment } from "../../adapters/process/child-env.js";
import { fileURLToPath } from "node:url";
import type { Discovery } from "../../core/discovery/discovery-result.js";
import { failure, success, type CommandResult } from "../../core/result.js";
import { buildRecipesSummary } from "../../core/views/registry-summary.js";
import {
  automaticReviewEnabled, runtimeStatus, runtimeStatusText, UNKNOWN_RUNTIME_VIEW, type RuntimeFacts,
} from "../../core/views/tool-status.js";
import { buildTriage, noRuns, triageText, type RunFacts } from "../../core/views/triage.js";
import { agentPlace, packageInfo, type AgentPaths } from "../agent-paths.js";
import type { ReviewsDetails } from "../../core/views/render.js";
import { sandboxInUse, sandboxMode } from "../call-sandbox.js";

export const AUTOMATIC_REVIEW_ENV = "PI_ACTORS_AUTOMATIC_REVIEW";

/** What a host tells the status view about itself; everything has a default. */
export interface RuntimeContext {
  readonly paths?: AgentPaths;
  readonly env?: NodeJS.ProcessEnv;
  /** the module the host loaded; default: the script node was started with */
  readonly entrypoint?: string;
  readonly host?: string;
  /** null: do not ask git */
  readonly gitCommit?: string | null;
  readonly packagedRoot?: string | null;
  /** the runs visible to this session (none until the run store exists) */
  readonly runs?: () => RunFacts;
  /** the draft reviewer the host uses (Pi: its child `pi -p`); default: PI_RECIPES_REVIEWER */
  readonly reviewer?: string;
  /** the automatic review evidence, for `view=reviews` */
  readonly reviews?: ReviewsDetails;
  /** ledger usage of a recipe entry, for the recipe views */
  readonly usage?: (entry: RecipeEntry) => JsonObject | undefined;
}

export const REVIEWER_ENV = "PI_RECIPES_REVIEWER";

/** The reviewer command of the CLI and MCP hosts, as status shows it. */
function reviewerOf(env: NodeJS.ProcessEnv): string {
  const line = env[REVIEWER_ENV]?.trim();
  return line === undefined || line === "" ? "none" : `command:${line}`;
}

const commits = new Map<string, string | undefined>();

/** `git -C <root> rev-parse --short HEAD`, once per root; undefined when it is not a checkout. */
export function gitCommitOf(root: string): string | undefined {
  if (commits.has(root)) return commits.get(root);
  let commit: string | undefined;
  try {
    const out = execFileSync("git", ["-C", root, "rev-parse", "--short", "HEAD"], {
      encoding: "utf8",
      env: childEnvironment(),
      stdio: ["ignore", "pipe", "ignore"],
      timeout: 3000,
    }).trim();
    commit = /^[0-9a-f]{4,40}$/.test(out) ? out : undefined;
  } catch {
    commit = undefined;
  }
  commits.set(root, commit);
  return commit;
}

const defaultEntrypoint = (): string => process.argv[1] ?? fileURLToPath(import.meta.url);

/** The policy as it is now: read on every call, so status always shows the effective value. */
export const automaticReviewPolicy = (env: NodeJS.ProcessEnv = process.env): boolean => automaticReviewEnabled(env[AUTOMATIC_REVIEW_ENV]);

export function runtimeFacts(ctx: RuntimeContext = {}): RuntimeFacts {
  const env = ctx.env ?? process.env;
  const { paths, packagedRoot: packaged } = agentPlace({ ...ctx, env });
  const pkg = packageInfo();
  const git = ctx.gitCommit === null ? undefined : ctx.gitCommit ?? gitCommitOf(pkg.root);
  return {
    packageName: pkg.name,
    version: pkg.version,
    packageRoot: pkg.root,
    entrypoint: ctx.entrypoint ?? defaultEntrypoint(),
    recipeRoot: paths.recipeRoot,
    draftRoot: paths.draftRoot,
    ...(packaged === undefined ? {} : { packagedRecipeRoot: packaged }),
    automaticReview: automaticReviewPolicy(env),
    reviewer: ctx.reviewer ?? reviewerOf(env),
    ...(git === undefined ? {} : { gitCommit: git }),
    ...(ctx.host === undefined ? {} : { host: ctx.host }),
    sandbox: sandboxInUse(env),
    sandboxAll: sandboxMode(env) === "on",
  };
}

const verboseText = (details: unknown): string => JSON.stringify(details, null, 2);

/** `inspect target=tool:pi-actors [view=status|triage] [verbose=true]` */
export function inspectRuntime(
  discovery: Discovery,
  options: { readonly view: string | undefined; readonly verbose: boolean },
  ctx: RuntimeContext = {},
): CommandResult {
  const view = options.view ?? "status";
  if (view !== "status" && view !== "triage") return failure(UNKNOWN_RUNTIME_VIEW, { view });
  const status = runtimeStatus(runtimeFacts(ctx));
  if (view === "status") return success(options.verbose ? verboseText(status) : runtimeStatusText(status), status);
  const summary = buildRecipesSummary(discovery, { view: "summary" });
  const triage = buildTriage(status, summary, ctx.runs?.() ?? noRuns(), ctx.reviews);
  return success(options.verbose ? verboseText(triage) : triageText(triage), triage);
}
