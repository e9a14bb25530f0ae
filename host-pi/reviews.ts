// Drafts and automatic draft review in the Pi host: recovery of an interrupted batch before the
// tool set is read, and one review cycle at the idle boundary (the foreground turn has ended and
// no run is active). The reviewer is a child `pi -p` with no tools and no extensions, unless the
// operator configured a reviewer command (PI_RECIPES_REVIEWER).
import { chmod, lstat, rm, writeFile, mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { BoundaryContext, BoundaryStep } from "./boundaries.js";
import { idleCycle, reviewPolicy, withReviews, type ReviewPolicy, type ReviewPorts } from "../runtime/review/host.js";
import { runCycle } from "../runtime/review/cycle.js";
import { activateAtBoundary, idlePortfolioCycle } from "../runtime/review/boundary.js";
import { piReviewerArgv, runReviewerProcess, type Reviewer } from "../runtime/review/reviewer.js";
import { runFacts } from "../runtime/runs/facts.js";
import { runsRootOf } from "../runtime/runs/store.js";
import type { AgentPaths } from "../runtime/agent-paths.js";
import { PRIVATE_FILE, PRIVATE_FOLDER } from "../runtime/execute/execution-report.js";

/** The command that starts Pi again: this process's node and Pi script, else `pi` on the PATH. */
export function piCommand(): readonly string[] {
  const script = process.argv[1];
  return script !== undefined && /pi|cli/i.test(script) ? [process.execPath, script] : ["pi"];
}

export function piReviewer(paths: AgentPaths, model: () => string | undefined): Reviewer {
  return {
    describe: "pi -p --no-tools (child Pi process)",
    async review(input) {
      // the input tells what this user's drafts are (their shape, risk labels and usage): like a
      // saved output, it is this user's alone (a file 0600 in a folder 0700 of its own,
      // `review-inputs/`), whatever the umask, and a folder left wider by an earlier version is
      // narrowed
      const inputs = join(paths.tmpRoot, "review-inputs");
      await mkdir(inputs, { recursive: true });
      // never through a symbolic link in its place (runtime/execute/private-folder.ts)
      if ((await lstat(inputs)).isDirectory()) await chmod(inputs, PRIVATE_FOLDER);
      const file = join(inputs, `draft-review-input-${process.pid}-${Date.now()}.md`);
      await writeFile(file, input, { flag: "wx", mode: PRIVATE_FILE });
      try {
        // the argv after its `pi`, which piCommand gives (this very pi when the host runs in one)
        const [, ...rest] = piReviewerArgv(file, model());
        return await runReviewerProcess([...piCommand(), ...rest], "");
      } finally {
        await rm(file, { force: true });
      }
    },
  };
}

export const piReviewPolicy = (env: NodeJS.ProcessEnv, paths: AgentPaths, model: () => string | undefined): ReviewPolicy =>
  reviewPolicy(env, piReviewer(paths, model));

/** The review ports of a boundary: the host's own, as its session holds them. */
const portsOf = (b: BoundaryContext, packagedRoot: string | undefined): ReviewPorts => ({ paths: b.paths, fs: b.fs, lock: b.lock, packagedRoot });

/** Before discovery: finish or clean up a batch a crash interrupted (whatever the policy says:
 *  this is consistency, not scheduling). */
export const recoverReviews =
  (packagedRoot: string | undefined): BoundaryStep =>
  async (b: BoundaryContext) => {
    const report = await withReviews(portsOf(b, packagedRoot), (ctx) => runCycle(ctx));
    if (report.phase === "processing_failed" && report.error !== undefined) throw new Error(`draft review recovery: ${report.error}`);
  };

/** Before discovery: carry out an approved tool portfolio review (renames, demotions, merges and
 *  their lineages), so the session reads the tool set it leaves. */
export const activateReviews =
  (packagedRoot: string | undefined): BoundaryStep =>
  async (b: BoundaryContext) => {
    const report = await activateAtBoundary(portsOf(b, packagedRoot));
    if ("error" in report && report.error !== undefined) throw new Error(`tool review activation: ${report.error}`);
  };

/** At the idle boundary: one review cycle when the policy allows it. The review is silent:
 *  its outcome, failures included, is evidence in `inspect target=recipes view=reviews`. */
export const reviewWhenIdle =
  (policy: () => ReviewPolicy, packagedRoot: string | undefined): BoundaryStep =>
  async (b: BoundaryContext) => {
    const active = async (): Promise<number> => (await runFacts(b.fs, runsRootOf(b.paths.tmpRoot))).active_runs.length;
    await idleCycle(portsOf(b, packagedRoot), policy(), active);
    // then the tool portfolio, when 36 tools are eligible (a draft promoted just now counts)
    await idlePortfolioCycle(portsOf(b, packagedRoot), policy(), active);
  };
