// Where a recipe path or name written inside a recipe points, and which
// template strings are recipe references at all.
import { dirname, hasRecipeExtension, join, normalize, resolveAgainst } from "./posix.js";

export interface PathContext {
  readonly agentDir: string;
  readonly home: string;
  /** the process working directory: relative paths with `/` resolve here, not in the recipe dir */
  readonly cwd: string;
  /** the user recipe root (ROOT) */
  readonly userRoot: string;
  readonly packagedRoot?: string;
  readonly exists: (path: string) => boolean;
}

/** A bare name is looked up in recipe directories instead of being treated as a path. */
export const isBareName = (ref: string): boolean =>
  ref !== "" && !ref.includes("/") && !ref.startsWith("~") && !ref.includes("{");

/** Every file a bare name may denote, in lookup order: ROOT, the recipe's directory, the packaged root. */
export function bareCandidates(name: string, dir: string, ctx: PathContext): string[] {
  const files = hasRecipeExtension(name) ? [name] : [`${name}.json`, `${name}.md`];
  const roots = ctx.packagedRoot === undefined ? [ctx.userRoot, dir] : [ctx.userRoot, dir, ctx.packagedRoot];
  const out: string[] = [];
  for (const root of roots) {
    for (const file of files) {
      const path = join(root, file);
      if (!out.includes(path)) out.push(path);
    }
  }
  return out;
}

/**
 * The absolute path `ref` names, seen from a recipe in `dir`. A bare name takes the first existing
 * candidate, or the first candidate when none exists (so that the caller reports it missing).
 */
export function resolveRecipePath(ref: string, dir: string, ctx: PathContext): string {
  if (isBareName(ref)) {
    const candidates = bareCandidates(ref, dir, ctx);
    return candidates.find(ctx.exists) ?? candidates[0] ?? join(dir, ref);
  }
  const expanded = ref.replaceAll("{repo}", dirname(dir)).replaceAll("{agent}", ctx.agentDir);
  if (expanded === "~") return normalize(ctx.home);
  if (expanded.startsWith("~/")) return join(ctx.home, expanded.slice(2));
  if (expanded.includes("/")) return resolveAgainst(ctx.cwd, expanded);
  return join(dir, hasRecipeExtension(expanded) ? expanded : `${expanded}.json`);
}

/**
 * The recipe a template string delegates to, if it is a recipe reference: a single whitespace-free
 * word that is a `.json`/`.md` path (whether or not the file exists), or a bare name with an existing
 * `<name>.json`/`<name>.md`. Any other word, `/bin/ls` and `./run.sh` included, is a command.
 */
export function recipeReference(text: string, dir: string, ctx: PathContext): string | undefined {
  const word = text.trim();
  if (word === "" || /\s/.test(word)) return undefined;
  if (hasRecipeExtension(word)) return resolveRecipePath(word, dir, ctx);
  if (!isBareName(word)) return undefined;
  return bareCandidates(word, dir, ctx).find(ctx.exists);
}
