#!/usr/bin/env node
// The `pi-recipes` command: the registry's verbs for people and scripts.
// Exit 0 on success, 1 when the registry answers with an error, 2 on a malformed command line.
import { existsSync } from "node:fs";
import { enableCompileCache } from "./compile-cache.js";
import { agentPaths, packageInfo } from "../runtime/agent-paths.js";
import { parseArgv, type ParsedCommandLine } from "./argv.js";
import { printResult, writeJson } from "./print.js";
import { runVerb, unknownVerb, usageText, verbHelp, type VerbOutcome } from "./verbs.js";

// `--json` anywhere on the command line promises one JSON object on stdout, even when the command
// line itself is wrong (a script piping into a JSON parser must not get an empty stdout).
const wantsJson = process.argv.slice(2).includes("--json");

/** A usage error is one short paragraph: what is wrong and where help is, never the whole help. */
function usageError(error: string, verb?: string): number {
  const help = verb === undefined ? "pi-recipes --help" : `pi-recipes ${verb} --help`;
  process.stderr.write(`pi-recipes: ${error}\nSee '${help}'.\n`);
  if (wantsJson) writeJson(false, error, { usage_error: true, help });
  return 2;
}


// Verbs that read the registry say where they looked when the agent dir does not exist, so an
// empty answer is not mistaken for an empty registry.
const READS_REGISTRY = new Set(["inspect", "schema", "list", "call", "spawn", "message", "register_tool"]);

function noteMissingAgentDir(verb: string): void {
  if (!READS_REGISTRY.has(verb)) return;
  const paths = agentPaths(process.env, process.cwd());
  if (existsSync(paths.agentDir)) return;
  const from = process.env["PI_CODING_AGENT_DIR"] ? "PI_CODING_AGENT_DIR" : "the default, ~/.pi/agent";
  process.stderr.write(`pi-recipes: note: no agent directory at ${paths.agentDir} (from ${from}); recipes are read from ${paths.recipeRoot}\n`);
}

async function main(argv: readonly string[]): Promise<number> {
  // `mcp` has --options of its own (mcp --http --port 0), which the key=value command line lacks
  if (argv[0] === "mcp") {
    const mcp: ParsedCommandLine = { verb: "mcp", positional: [], params: {}, json: false };
    return finish(mcp, await (await import("./verbs/mcp.js")).runMcp(argv.slice(1)));
  }
  const parsed = parseArgv(argv);
  if (!parsed.ok) return usageError(parsed.error);
  const cmd = parsed.value;
  if (cmd.verb === "--version") {
    const version = packageInfo().version;
    if (cmd.json) writeJson(true, `pi-recipes ${version}`, { version });
    else process.stdout.write(`pi-recipes ${version}\n`);
    return 0;
  }
  if (cmd.verb === "help" || cmd.help === true) {
    const about = cmd.verb === "help" ? cmd.positional[0] : cmd.verb;
    const text = about === undefined ? await usageText() : await verbHelp(about);
    if (text === undefined) return usageError(unknownVerb(about ?? ""));
    process.stdout.write(text);
    return 0;
  }
  noteMissingAgentDir(cmd.verb);
  return finish(cmd, await runVerb(cmd));
}

async function finish(cmd: ParsedCommandLine, outcome: VerbOutcome): Promise<number> {
  if (outcome.kind === "usage") return usageError(outcome.error, outcome.unknownVerb === true ? undefined : cmd.verb);
  if (outcome.kind === "exit") return outcome.code;
  const { result } = outcome;
  // a key the verb does not take is a malformed command line, not an answer of the registry
  if (!result.ok && Array.isArray(result.details["unknown_arguments"])) return usageError(result.text, cmd.verb);
  printResult(cmd, result);
  return result.ok ? 0 : 1;
}

// `pi-recipes list | head -1`: the reader has gone, which is no error of ours (no stack trace)
for (const out of [process.stdout, process.stderr]) {
  out.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE" && error.code !== "ERR_STREAM_DESTROYED") throw error;
  });
}

enableCompileCache();
main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`pi-recipes: internal error: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
    if (wantsJson) writeJson(false, `internal error: ${error instanceof Error ? error.message : String(error)}`, { internal_error: true });
    process.exitCode = 1;
  },
);
