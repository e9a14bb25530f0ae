#!/usr/bin/env node
// The `pi-recipes` command: the registry's verbs for people and scripts. Installed, it is reached
// through the front door (host-cli/front-door.ts), which answers some command lines itself and
// hands this module every other; run directly it answers every command line.
// Exit 0 on success, 1 when the registry answers with an error, 2 on a malformed command line.
import * as E from "fp-ts/lib/Either.js";
import { existsSync } from "node:fs";
import { noteMissingAgentDir, printHelp, printVersion, READS_REGISTRY, reportFailure } from "./around-verb.js";
import { enableCompileCache } from "./node-compile-cache.js";
import { makeNodeFileSystem } from "../adapters/fs/node.js";
import { makeNodeScanPort } from "../adapters/fs/scan.js";
import type { HostPorts } from "../runtime/session.js";
import type { CliHost } from "./verbs/cli-verb.js";
import { jsonAsked, parseArgv, type ParsedCommandLine } from "./argv.js";
import { printResult, terminalSafe, writeJson } from "./print.js";
import { guardStdStreams, writeThroughStreams } from "./std-out.js";
import { reportInternalErrors } from "./internal-error.js";
import { helpAnswer, unknownVerb } from "./help.js";
import { runVerb, type VerbOutcome } from "./verbs.js";

// `--json` anywhere among the options promises one JSON object on stdout, even when the command
// line itself is wrong (a script piping into a JSON parser must not get an empty stdout). After a
// `--` it is a word like any other (argv.ts), so it asks for nothing there.
const wantsJson = jsonAsked(process.argv.slice(2));

/** A usage error is one short paragraph: what is wrong and where help is, never the whole help. */
function usageError(error: string, verb?: string): number {
  const help = verb === undefined ? "pi-recipes --help" : `pi-recipes ${verb} --help`;
  // (the error echoes what was typed: escaped as the registry's words are)
  process.stderr.write(`pi-recipes: ${terminalSafe(error)}\nSee '${help}'.\n`);
  if (wantsJson) writeJson(false, error, { usage_error: true, help });
  return 2;
}

// A plan a killed command left pending is settled before the verb reads anything, read-only verbs
// included (runtime/settle.ts); the folder check keeps a fresh agent dir untouched.
async function settlePending(verb: string, ports: HostPorts): Promise<void> {
  if (!READS_REGISTRY.has(verb) && verb !== "review") return;
  if (!existsSync(ports.paths.usageRoot)) return;
  const { settlePendingPlans } = await import("../runtime/settle.js");
  const { paths, fs, lock, packagedRoot } = ports;
  for (const note of await settlePendingPlans({ paths, fs, lock, ...(packagedRoot === undefined ? {} : { packagedRoot }) }))
    process.stderr.write(`pi-recipes: note: ${note}\n`);
}

// The command's adapters (the node file system and scan port), its agent-dir paths, packaged root
// and lock: built once here, for the steps before the verb and for the verb's runtime session.
async function cliHost(): Promise<CliHost> {
  const { hostPorts, openSession, overPorts } = await import("../runtime/session.js");
  const ports = hostPorts({ env: process.env, cwd: process.cwd(), fs: makeNodeFileSystem(), scan: makeNodeScanPort() });
  return { ports, openSession: () => Promise.resolve(openSession(overPorts(ports))) };
}

async function main(argv: readonly string[]): Promise<number> {
  // `mcp` has --options of its own (mcp --http --port 0), which the key=value command line lacks
  if (argv[0] === "mcp") {
    const mcp: ParsedCommandLine = { verb: "mcp", positional: [], params: {}, json: false };
    return finish(mcp, await (await import("./verbs/mcp-command.js")).runMcp(argv.slice(1)));
  }
  const parsed = parseArgv(argv);
  if (E.isLeft(parsed)) return usageError(parsed.left);
  const cmd = parsed.right;
  if (cmd.verb === "--version") {
    printVersion(cmd.json);
    return 0;
  }
  const help = await helpAnswer(cmd);
  if (help !== undefined) {
    if ("unknown" in help) return usageError(unknownVerb(help.unknown));
    printHelp(help.text, help.about, cmd.json);
    return 0;
  }
  let host: Promise<CliHost> | undefined;
  const hostOnce = (): Promise<CliHost> => (host ??= cliHost());
  if (READS_REGISTRY.has(cmd.verb) || cmd.verb === "review") {
    const { ports } = await hostOnce();
    noteMissingAgentDir(cmd.verb, ports.paths, process.env);
    await settlePending(cmd.verb, ports);
  }
  return finish(cmd, await runVerb(cmd, hostOnce));
}

async function finish(cmd: ParsedCommandLine, outcome: VerbOutcome): Promise<number> {
  if (outcome.kind === "usage") return usageError(outcome.error, outcome.unknownVerb === true ? undefined : cmd.verb);
  if (outcome.kind === "exit") return outcome.code;
  const { result } = outcome;
  // a key the verb does not take is a malformed command line, not an answer of the registry
  if (!result.ok && Array.isArray(result.details["unknown_arguments"])) return usageError(result.text, cmd.verb);
  printResult(cmd, result);
  return outcome.code ?? (result.ok ? 0 : 1);
}

guardStdStreams();
writeThroughStreams();
reportInternalErrors();
enableCompileCache();
main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => reportFailure(error, wantsJson),
);
