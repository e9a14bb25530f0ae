import { makeNodeFileSystem } from "../../adapters/fs/node.js";
import { makeFileLock } from "../../adapters/lock/file-lock.js";
import { agentPaths, packageInfo } from "../../runtime/agent-paths.js";
import { registerTool } from "../../runtime/register.js";
import { cleanStrayRecipeTemps } from "../../runtime/startup.js";
import type { CliValue } from "../argv.js";
import { expectPositional, result, type CliVerb } from "./types.js";

// The command line turns `name=123` into a number; these parameters are texts whatever they look like.
const TEXT_PARAMS = ["name", "description", "draft", "args", "label", "output"];

function asParams(params: Readonly<Record<string, CliValue>>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...params };
  for (const key of TEXT_PARAMS) {
    const v = out[key];
    if (typeof v === "number" || typeof v === "boolean") out[key] = String(v);
  }
  return out;
}

export const registerToolVerb: CliVerb = {
  name: "register_tool",
  run: async (cmd) => {
    const bad = expectPositional(cmd, 0, "");
    if (bad !== undefined) return bad;
    const paths = agentPaths(process.env, process.cwd());
    const fs = makeNodeFileSystem();
    const lock = makeFileLock();
    await cleanStrayRecipeTemps({ paths, fs, lock });
    return result(await registerTool(asParams(cmd.params), { paths, fs, lock, packagedRoot: packageInfo().packagedRecipeRoot }));
  },
};
