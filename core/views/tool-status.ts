// `inspect target=tool:pi-actors view=status`: which registry code is
// live. The runtime gathers the facts (package manifest, entrypoint, git, environment); this
// module only shapes and renders them.

/** The reserved runtime-status/control actor, and the name of our own package as an alias. */
export const RUNTIME_ACTOR = "pi-actors";
export const RUNTIME_ACTOR_ALIASES: readonly string[] = [RUNTIME_ACTOR, "pi-recipes"];

export const isRuntimeActor = (name: string): boolean => RUNTIME_ACTOR_ALIASES.includes(name);

export const UNKNOWN_RUNTIME_VIEW = "inspect tool:pi-actors supports view=status or view=triage.";

/** `PI_ACTORS_AUTOMATIC_REVIEW`: `0`, `false`, `off` (trimmed, any case) disable; anything else,
 * unset included, enables. */
export function automaticReviewEnabled(raw: string | undefined): boolean {
  if (raw === undefined) return true;
  return !["0", "false", "off"].includes(raw.trim().toLowerCase());
}

export interface RuntimeFacts {
  readonly packageName: string;
  readonly version: string;
  readonly packageRoot: string;
  /** the module the host loaded (the Pi extension's index, the CLI's main, …) */
  readonly entrypoint: string;
  readonly recipeRoot: string;
  readonly draftRoot: string;
  readonly packagedRecipeRoot?: string;
  readonly automaticReview: boolean;
  /** the draft reviewer this host would use, or why there is none */
  readonly reviewer?: string;
  readonly gitCommit?: string;
  /** which host answers (pi, cli, mcp) */
  readonly host?: string;
  /** the confinement sandboxed recipes get (`bubblewrap 0.8.0`), or `none (why)` */
  readonly sandbox?: string;
  /** PI_RECIPES_SANDBOX: whether every tool without `sandbox: false` is confined */
  readonly sandboxAll?: boolean;
}

export type RuntimeMode = "source" | "dist";

export type RuntimeStatus = {
  readonly automatic_recipe_review: boolean;
  readonly reviewer?: string;
  readonly entrypoint: string;
  readonly git_commit?: string;
  readonly host?: string;
  readonly mode: RuntimeMode;
  readonly package_name: string;
  readonly package_root: string;
  readonly packaged_recipe_root?: string;
  readonly recipe_root: string;
  readonly draft_root: string;
  /** every root discovery reads, highest priority first */
  readonly recipe_roots: readonly string[];
  readonly version: string;
  readonly sandbox?: string;
  readonly sandbox_all?: boolean;
};

/** A built package runs from `dist/`; anything else runs from source. */
export const runtimeMode = (entrypoint: string): RuntimeMode => (entrypoint.replace(/\\/g, "/").includes("/dist/") ? "dist" : "source");

export function runtimeStatus(facts: RuntimeFacts): RuntimeStatus {
  return {
    automatic_recipe_review: facts.automaticReview,
    ...(facts.reviewer === undefined ? {} : { reviewer: facts.reviewer }),
    entrypoint: facts.entrypoint,
    ...(facts.gitCommit === undefined ? {} : { git_commit: facts.gitCommit }),
    ...(facts.host === undefined ? {} : { host: facts.host }),
    mode: runtimeMode(facts.entrypoint),
    package_name: facts.packageName,
    package_root: facts.packageRoot,
    ...(facts.packagedRecipeRoot === undefined ? {} : { packaged_recipe_root: facts.packagedRecipeRoot }),
    recipe_root: facts.recipeRoot,
    draft_root: facts.draftRoot,
    recipe_roots: facts.packagedRecipeRoot === undefined ? [facts.recipeRoot] : [facts.recipeRoot, facts.packagedRecipeRoot],
    version: facts.version,
    ...(facts.sandbox === undefined ? {} : { sandbox: facts.sandbox }),
    ...(facts.sandboxAll === undefined ? {} : { sandbox_all: facts.sandboxAll }),
  };
}

/** One line (the form existing agents parse), with the recipe roots appended so status shows where tools come from. */
export function runtimeStatusText(status: RuntimeStatus): string {
  const git = status.git_commit === undefined ? "" : ` git=${status.git_commit}`;
  const packaged = status.packaged_recipe_root === undefined ? "" : ` packaged_recipes=${status.packaged_recipe_root}`;
  const reviewer = status.reviewer === undefined ? "" : ` reviewer=${status.reviewer.replace(/\s+/g, "_")}`;
  // last, because the reason why there is no sandbox is free text
  const sandboxAll = status.sandbox_all === undefined ? "" : ` sandbox_all=${status.sandbox_all ? "on" : "off"}`;
  const sandbox = status.sandbox === undefined ? "" : ` sandbox=${status.sandbox}`;
  return (
    `${status.package_name} version=${status.version} mode=${status.mode} automatic_review=${status.automatic_recipe_review}${reviewer}` +
    ` path=${status.package_root} entrypoint=${status.entrypoint}${git} recipes=${status.recipe_root}${packaged}${sandboxAll}${sandbox}`
  );
}
