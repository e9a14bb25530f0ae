// The recipe root an activation or a rollback writes into must be the folder that was reviewed.
// Two things could send the writes elsewhere without any recipe's digest changing:
// - the root (or a folder above it) swapped for a symlink, or for another folder, between the
//   capture of a portfolio and its activation, or while a rollback runs: the recipe root is then
//   another folder under the same name. The root is known by its real path (every symlink of it
//   and above it followed), recorded when the portfolio is captured and compared again, inside
//   the recipe-root fence, right before anything is written. A recipe root that is a symlink is
//   fine (a root shared by two agent dirs is one): only a change of what it resolves to refuses.
//   Inode numbers are not compared: a folder restored or re-created at the same real path is the
//   same root to its user, and each file the plan moves is checked by its digest anyway.
// - a symlinked folder below the root (`drafts/`, `.usage/`, a revision ring): a rename or a
//   write into it lands outside the root. Every folder between the root and each path a plan
//   touches must be a real folder, and so must the path itself when it exists as anything but a
//   file the plan reads by digest. The plans are confined to the root (runtime/journal/confine.ts),
//   so the journal engine checks this again right before it applies them and before a recovery
//   replays one that a crash interrupted.
// See docs/lifecycle.md, "The recipe root".
import { hasCode, type FileSystem } from "../../adapters/fs/FileSystem.js";
import { plainBelow, type StepInput } from "../../core/journal/plan.js";
export { symlinkBelowRoot } from "../journal/confine.js";

/** The real path of the recipe root; undefined when it does not exist. */
export async function realRoot(fs: FileSystem, root: string): Promise<string | undefined> {
  try {
    return await fs.realpath(root);
  } catch (e) {
    if (hasCode(e, "ENOENT", "ENOTDIR", "ELOOP")) return undefined;
    throw e;
  }
}

/** What the error is about: the portfolio's activation (and approval), a rollback, or a draft
 *  review's promotions. */
export type RootUse = "activation" | "rollback" | "draft review";

const PREFIX: Readonly<Record<RootUse, string>> = {
  activation: "Invalid tool review transaction root",
  rollback: "Invalid recipe revision rollback root",
  "draft review": "Invalid draft review transaction root",
};

const SINCE: Readonly<Record<RootUse, string>> = {
  activation: "the portfolio was captured in",
  rollback: "the rollback began in",
  "draft review": "the batch was captured in",
};

/** Why the root is not the folder recorded as `expected`, or undefined when it is. */
export async function rootChanged(fs: FileSystem, root: string, expected: string, use: RootUse): Promise<string | undefined> {
  const now = await realRoot(fs, root);
  if (now === expected) return undefined;
  const resolves = now === undefined ? "it is missing now" : `it resolves to ${now} now`;
  return `${PREFIX[use]}: ${root} (${resolves}; ${SINCE[use]} ${expected})`;
}

/** The paths a plan step reads or writes. */
export const stepPaths = (steps: readonly StepInput[]): readonly string[] => steps.flatMap((s) => (s.op === "rename" || s.op === "link" ? [s.from, s.to] : [s.path]));

/** The error for a symlinked folder (or a path outside the root) on a plan's way. */
export const symlinkOnPlan = (root: string, at: string, use: RootUse): string =>
  plainBelow(root, at)
    ? `${PREFIX[use]}: ${at} is a symlink below the recipe root ${root}; only the root's own folders are written`
    : `${PREFIX[use]}: ${at} is outside the recipe root ${root}`;
