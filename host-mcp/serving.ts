// What an MCP server tells its operator on start (stderr): which agent dir it serves and where its
// recipes come from. A client that starts the server without passing the environment it meant
// (no PI_CODING_AGENT_DIR) otherwise gets an empty registry with no hint why.
import { existsSync } from "node:fs";
import { rootNotAFolder } from "../core/discovery/diagnostic-texts.js";
import type { AgentPaths } from "../runtime/agent-paths.js";

export interface Serving {
  readonly paths: AgentPaths;
  /** whether the agent dir existed before the session opened (opening creates its state folders) */
  readonly agentDirExisted: boolean;
  /** what stands at the recipe root when it is there and is no folder (notAFolderAt of
   *  runtime/root-lock.ts, as the lock explains it) */
  readonly rootNotAFolder?: "file" | "other" | undefined;
  /** how many recipe tools the session serves now */
  readonly tools: number;
  readonly env: NodeJS.ProcessEnv;
  readonly packagedRoot: string | undefined;
}

/** The start-up lines: the agent dir and its origin, the recipe roots, and a warning when the
 *  agent dir does not exist. */
export function servingLines({ paths, env, packagedRoot, agentDirExisted, rootNotAFolder: notAFolder, tools }: Serving): string[] {
  const configured = env["PI_CODING_AGENT_DIR"];
  const from = configured !== undefined && configured.trim() !== "" ? "PI_CODING_AGENT_DIR" : "the default, ~/.pi/agent";
  const roots = [`${paths.recipeRoot} (your recipes)`, ...(packagedRoot === undefined ? [] : [`${packagedRoot} (packaged components)`])];
  const lines = [`agent dir ${paths.agentDir} (from ${from}); recipe roots: ${roots.join(", ")}; calls run in ${paths.cwd} unless the client offers MCP roots`];
  if (!agentDirExisted)
    lines.push(
      `warning: the agent dir ${paths.agentDir} does not exist, so no recipe tools are served;` +
        " set PI_CODING_AGENT_DIR in the environment the MCP client starts this server with",
    );
  // opening a session creates the agent dir's state folders, so a later start finds the folder:
  // an empty registry is said on every start
  // a root that is no folder serves no tool, and register_tool answers why; the server still
  // serves (the packaged components, and that answer), as it does for a root it may not list
  else if (notAFolder !== undefined) lines.push(`warning: ${rootNotAFolder(paths.recipeRoot, notAFolder)}`);
  else if (tools === 0) lines.push(`note: no recipe tools in ${paths.recipeRoot} yet (register_tool adds one)`);
  return lines;
}

/** Whether the agent dir the session will serve exists now: ask before opening the session. */
export const agentDirExists = (paths: AgentPaths): boolean => existsSync(paths.agentDir);
