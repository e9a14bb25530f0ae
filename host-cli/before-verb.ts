// What the command line says and prints around a verb, the same whether the front door
// (host-cli/front-door.ts) or the full command (host-cli/main.ts) answers it.
import { existsSync } from "node:fs";
import type { AgentPaths } from "../runtime/agent-paths.js";
import { packageInfo } from "../runtime/agent-paths.js";
import { writeJson } from "./print.js";

/** The verbs that read the registry. */
export const READS_REGISTRY: ReadonlySet<string> = new Set(["inspect", "schema", "list", "call", "spawn", "message", "register_tool"]);

/** A verb that reads the registry says where it looked when the agent dir does not exist, so an
 *  empty answer is not mistaken for an empty registry. */
export function noteMissingAgentDir(verb: string, paths: AgentPaths, env: NodeJS.ProcessEnv): void {
  if (!READS_REGISTRY.has(verb)) return;
  if (existsSync(paths.agentDir)) return;
  const from = env["PI_CODING_AGENT_DIR"] ? "PI_CODING_AGENT_DIR" : "the default, ~/.pi/agent";
  process.stderr.write(`pi-recipes: note: no agent directory at ${paths.agentDir} (from ${from}); recipes are read from ${paths.recipeRoot}\n`);
}

/** `pi-recipes --version` */
export function printVersion(json: boolean): void {
  const version = packageInfo().version;
  if (json) writeJson(true, `pi-recipes ${version}`, { version });
  else process.stdout.write(`pi-recipes ${version}\n`);
}

/** `pi-recipes list | head -1`: the reader has gone, which is no error of ours (no stack trace). */
export function quietBrokenPipes(): void {
  for (const out of [process.stdout, process.stderr]) {
    out.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "EPIPE" && error.code !== "ERR_STREAM_DESTROYED") throw error;
    });
  }
}
