// Launch accounting: every launch of a recipe under the recipe root is checked against the fence
// and counted in this process's launch log; the fold brings the counts into the ledgers later.
import { hasCode } from "../../adapters/fs/FileSystem.js";
import { LockTimeoutError } from "../../adapters/lock/Lock.js";
import { executableFingerprint } from "../../core/ledger/recipe-fingerprint.js";
import { otherFormat, pathKey } from "../../core/ledger/keys.js";
import type { RecipeConfig } from "../../core/model.js";
import { isoAt, sha256Bytes, type LedgerContext } from "./ledger-context.js";
import { awaitFenceWriter, fenceClosed } from "./fence.js";
import { foldPending } from "./fold-logs.js";
import { carriedField } from "./launch-log.js";
import type { CarriedUsage } from "../../core/ledger/seed.js";

/** The loaded recipe a call was resolved against. Give its `config` (the fingerprint is then
 *  computed here, the same way seeding does) or its `fingerprint` from executableFingerprint. */
export type LaunchInput = {
  /** absolute path of the recipe file the call was resolved from */
  readonly path: string;
  /** the tool name */
  readonly name: string;
  /** sha256 (hex) of the recipe file's bytes as they were loaded */
  readonly sourceSha256: string;
  /** the launches the recipe carries in its own pi-actors `usage` object, if any */
  readonly carried?: CarriedUsage;
} & ({ readonly fingerprint: string } | { readonly config: RecipeConfig });

const fingerprintOf = (input: LaunchInput): string => ("fingerprint" in input ? input.fingerprint : executableFingerprint(input.config));

/** `ok` with a `diagnostic`: the call may run, but its launch could not be counted (I/O). */
export type LaunchOutcome =
  | { readonly ok: true; readonly recorded: boolean; readonly diagnostic?: string }
  | { readonly ok: false; readonly rejected: string };

export const sourceChangedText = (path: string): string =>
  `Recipe launch rejected because its source changed during activation: ${path}. Reload recipe tools and retry.`;

const accountingFailed = (path: string, e: unknown): string =>
  `Usage accounting failed for ${path}: ${e instanceof Error ? e.message : String(e)}. The launch was not counted.`;

type Check = "current" | "changed" | "fenced";

const readSource = async (ctx: LedgerContext, path: string): Promise<Uint8Array | undefined> => {
  try {
    return await ctx.fs.readFile(path);
  } catch (e) {
    if (hasCode(e, "ENOENT", "ENOTDIR", "EISDIR")) return undefined;
    throw e;
  }
};

// The read may run alongside the marker check: both follow the begin line, so a writer that
// closes the fence after the check waits for this launch's outcome before it changes a source,
// and a read that raced a marker already there is thrown away.
async function checkSource(ctx: LedgerContext, input: LaunchInput): Promise<Check> {
  const [fenced, bytes, shadowed] = await Promise.all([fenceClosed(ctx), readSource(ctx, input.path), shadowedNow(ctx, input.path)]);
  if (fenced) return "fenced";
  return bytes !== undefined && !shadowed && sha256Bytes(bytes) === input.sourceSha256 ? "current" : "changed";
}

/** Whether a Markdown recipe's JSON twin is there now: a file written beside it (or anything but
 *  a folder or a symlink, which discovery does not load in its place) makes the tool the twin's,
 *  so a call resolved against the Markdown file would run what the tool no longer is. */
async function shadowedNow(ctx: LedgerContext, path: string): Promise<boolean> {
  if (!path.endsWith(".md")) return false;
  try {
    const kind = (await ctx.fs.lstat(otherFormat(path))).kind;
    return kind !== "dir" && kind !== "symlink";
  } catch (e) {
    if (hasCode(e, "ENOENT", "ENOTDIR")) return false;
    throw e;
  }
}

/**
 * Records one launch, or rejects it when the recipe file no longer holds the content the call was
 * resolved against (the reload-and-retry error). Recipes outside the recipe root (packaged
 * components, ad hoc files) have no ledger: ok, not recorded.
 */
export async function recordLaunch(ctx: LedgerContext, input: LaunchInput): Promise<LaunchOutcome> {
  const key = pathKey(ctx.paths.recipeRoot, input.path);
  if (key === undefined) return { ok: true, recorded: false };
  const log = ctx.log;
  const deadline = ctx.now() + ctx.lockTimeoutMs;
  for (;;) {
    let begin: number;
    try {
      begin = await log.append({ b: 1, t: ctx.now() });
    } catch (e) {
      return { ok: true, recorded: false, diagnostic: accountingFailed(input.path, e) };
    }
    log.inflight++;
    let check: Check;
    try {
      check = await checkSource(ctx, input);
      if (check === "current") await log.append({ l: begin, path: key, name: input.name, fp: fingerprintOf(input), at: isoAt(ctx.now()), ...carriedField(input.carried) });
      else await log.append({ x: begin });
    } catch (e) {
      await log.append({ x: begin }).catch(() => undefined);
      return { ok: true, recorded: false, diagnostic: accountingFailed(input.path, e) };
    } finally {
      log.inflight--;
    }
    if (check === "changed") return { ok: false, rejected: sourceChangedText(input.path) };
    if (check === "current") return afterCount(ctx, input);
    try {
      if (ctx.now() >= deadline) throw new LockTimeoutError(ctx.paths.recipeRoot, ctx.paths.recipeRoot, ctx.lockTimeoutMs, undefined, ctx.probe.pid);
      await awaitFenceWriter(ctx);
    } catch (e) {
      if (e instanceof LockTimeoutError) return { ok: false, rejected: e.message };
      return { ok: true, recorded: false, diagnostic: accountingFailed(input.path, e) };
    }
  }
}

async function afterCount(ctx: LedgerContext, input: LaunchInput): Promise<LaunchOutcome> {
  const log = ctx.log;
  log.sinceFold++;
  if (log.lines >= ctx.rotateLines) await log.rotate();
  if (log.sinceFold < ctx.foldThreshold) return { ok: true, recorded: true };
  try {
    await foldPending(ctx);
    return { ok: true, recorded: true };
  } catch (e) {
    // counted in the log all the same; the next fold picks it up
    log.sinceFold = 0;
    return { ok: true, recorded: true, diagnostic: `Usage ledger fold failed after launching ${input.path}: ${e instanceof Error ? e.message : String(e)}` };
  }
}
