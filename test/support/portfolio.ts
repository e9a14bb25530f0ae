// A recipe root holding 36 tools and an approved portfolio review waiting for activation: tool_00
// evolves to renamed_tool, tool_01 is demoted, tool_02 and tool_03 (twins) merge into tool_03, the
// rest are kept. Built in-process with the runtime the hosts use.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { agentPaths } from "../../runtime/agent-paths.js";
import { discoverThroughFs } from "../../runtime/fs-discovery.js";
import { seedLineages } from "../../runtime/ledger/index.js";
import { withReviews } from "../../runtime/review/host.js";
import { makeNodeFileSystem } from "../../adapters/fs/node.js";
import { makeFileLock } from "../../adapters/lock/file-lock.js";
import { lockRootOf } from "../../runtime/agent-paths.js";
import { runPortfolioCycle } from "../../runtime/review/portfolio-cycle.js";
import type { Reviewer } from "../../runtime/review/reviewer.js";

export const toolName = (i: number): string => `tool_${String(i).padStart(2, "0")}`;
const recipe = (i: number): string => JSON.stringify({ description: `Tool ${i === 3 ? 2 : i}`, template: `printf t${i === 3 ? 2 : i}` });

/** tool_00 → renamed_tool, tool_01 demoted, tool_02 + tool_03 merged into tool_03, the rest kept */
export const scriptedPortfolioReviewer: Reviewer = {
  describe: "scripted",
  review: async (input) => {
    const p = JSON.parse(input.slice(input.indexOf("\n{\n") + 1)) as { reviewId: string; tools: { tool: string; sha256: string }[] };
    const special: Record<number, object> = { 0: { action: "evolve", target: "renamed_tool" }, 1: { action: "demote" }, 2: { action: "merge", target: "tool_04" }, 3: { action: "merge", target: "tool_04" } };
    return `TOOL_REVIEW_RESULT\n${JSON.stringify({ reviewId: p.reviewId, decisions: p.tools.map((t, i) => ({ source: t.tool, sha256: t.sha256, action: "keep", rationale: "r", ...special[i] })) })}`;
  },
};

/** Writes the 36 tools into `<agentDir>/recipes` and approves the review; returns its phase. */
export async function approvedPortfolio(agentDir: string): Promise<string> {
  const root = join(agentDir, "recipes");
  mkdirSync(root, { recursive: true });
  for (let i = 0; i < 36; i++) writeFileSync(join(root, `${toolName(i)}.json`), recipe(i));
  const paths = agentPaths({ PI_CODING_AGENT_DIR: agentDir }, agentDir);
  const fs = makeNodeFileSystem();
  return withReviews({ paths, fs, lock: makeFileLock({ fs, lockRoot: lockRootOf(paths.recipeRoot) }) }, async (ctx) => {
    // every lineage seeded at once: the portfolio follows the names (occurrence tool_01 is tool_00 …)
    await seedLineages(ctx.ledger, await discoverThroughFs(ctx.fs, paths));
    return (await runPortfolioCycle(ctx, { reviewer: scriptedPortfolioReviewer })).phase;
  });
}

/** Writes a reviewer command (a node script standing in for a model) into `dir` and returns the
 *  PI_RECIPES_REVIEWER value that runs it: it evolves the first tool of the portfolio to
 *  renamed_tool (or keeps it, with `first` "keep") and keeps the rest. */
export function portfolioReviewerCommand(dir: string, first: "evolve" | "keep" = "evolve"): string {
  const script = join(dir, "tool-reviewer.mjs");
  writeFileSync(
    script,
    `let s="";process.stdin.on("data",d=>s+=d);process.stdin.on("end",()=>{const p=JSON.parse(s.slice(s.indexOf("\\n{\\n")+1));` +
      `const decisions=p.tools.map((t,i)=>({source:t.tool,sha256:t.sha256,rationale:"model says so",...(i===0&&${JSON.stringify(first === "evolve")}?{action:"evolve",target:"renamed_tool"}:{action:"keep"})}));` +
      `console.log("TOOL_REVIEW_RESULT");console.log(JSON.stringify({reviewId:p.reviewId,decisions}));});`,
  );
  return `${JSON.stringify(process.execPath)} ${JSON.stringify(script)}`;
}

/** Writes the 36 tools into `<agentDir>/recipes` (nothing reviewed yet). */
export function thirtySixTools(agentDir: string): void {
  const root = join(agentDir, "recipes");
  mkdirSync(root, { recursive: true });
  for (let i = 0; i < 36; i++) writeFileSync(join(root, `${toolName(i)}.json`), recipe(i));
}
