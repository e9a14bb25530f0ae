#!/usr/bin/env node
// The `pi-recipes` command as installed (the package's bin). The build makes this file one
// CommonJS file (dist/host-cli/pi-recipes.cjs) holding only what it imports. It answers the
// command lines whose answer is provable without the registry:
//
// - `--version`, and help (`--help`, `-h`, `help <verb>`);
// - when nothing is pending to settle (runtime/pending.ts): `list`, when the list index of the
//   recipe root is current or there is no recipe root and the packaged root is as the build
//   prepared it (runtime/list-index.ts listWithoutDiscovery), and `inspect target=recipes`, when
//   the answer the view cache kept still holds (host-cli/kept-answer.ts).
//
// Every other command line goes to the full command (host-cli/main.ts), loaded only then.
//
// Why a file of its own: node loads an ES module graph file by file (resolve, read, compile,
// link), and the full command's `list` reads some forty files before it answers, more time than
// the rest of its work on a small registry; one CommonJS file does the same work in a fraction of
// that (docs/performance.md, "start-up"). The answers are the full command's: the same functions
// compute and print them, and the front door decides before it writes anything, so a command it
// hands on has printed nothing.
import * as E from "fp-ts/lib/Either.js";
import { existsSync } from "node:fs";
import { makeNodeFileSystem } from "../adapters/fs/node.js";
import { makeNodeScanPort, type ScanPort } from "../adapters/fs/scan.js";
import { agentPlace, type AgentPaths } from "../runtime/agent-paths.js";
import { codeVersion } from "../runtime/compile-cache.js";
import { listPlace, listWithoutDiscovery } from "../runtime/list-index.js";
import { installedPackagedCompiles } from "../runtime/packaged-compiles.js";
import { anythingPending } from "../runtime/pending.js";
import { listTools } from "../runtime/verbs/list.js";
import { parseArgv, type ParsedCommandLine } from "./argv.js";
import { noteMissingAgentDir, printHelp, printVersion, reportFailure } from "./around-verb.js";
import { helpAnswer } from "./help.js";
import { keptAnswerPlace, keptViewKey, printKept } from "./kept-answer.js";
import { builtFullCommand, requireWithCodeCache } from "./code-cache.js";
import { enableCompileCache } from "./node-compile-cache.js";
import { printResult } from "./print.js";
import { stdout } from "./std-out.js";
import { reportInternalErrors } from "./internal-error.js";

/** The command's place, when nothing is pending there; undefined: a plan a killed command left
 *  pending is settled by the full command before anything is read (runtime/settle.ts). */
async function settledPlace(): Promise<{ readonly paths: AgentPaths; readonly packagedRoot: string | undefined; readonly scan: ScanPort } | undefined> {
  const { paths, packagedRoot } = agentPlace({ env: process.env, cwd: process.cwd() });
  if (existsSync(paths.usageRoot) && (await anythingPending(makeNodeFileSystem(), paths))) return undefined;
  return { paths, packagedRoot, scan: makeNodeScanPort() };
}

/** `list` without a discovery, when that is provable; false: the full command answers. */
async function answerList(cmd: ParsedCommandLine): Promise<boolean> {
  const place = await settledPlace();
  if (place === undefined) return false;
  const { paths, packagedRoot, scan } = place;
  const list = listWithoutDiscovery(scan, listPlace(paths, packagedRoot, codeVersion(scan), installedPackagedCompiles()));
  if (list === undefined) return false;
  noteMissingAgentDir("list", paths, process.env);
  printResult(cmd, listTools(list));
  return true;
}

/** `inspect target=recipes` from the answer the view cache kept, when it still holds
 *  (host-cli/kept-answer.ts); false: the full command answers. */
async function answerInspect(cmd: ParsedCommandLine): Promise<boolean> {
  if (cmd.positional.length > 0 || cmd.stream === true) return false;
  const key = keptViewKey(cmd, process.env);
  if (key === undefined) return false;
  const place = await settledPlace();
  // (no answer is kept without a recipe root, so the full command's note of a missing agent dir
  // never goes with a kept answer)
  if (place === undefined || !existsSync(place.paths.agentDir)) return false;
  const { path, expect } = keptAnswerPlace(place, cmd.params, key);
  let printing = false;
  const out = {
    write: (chunk: string | Uint8Array): boolean => ((printing = true), stdout.write(chunk)),
    get writableLength(): number {
      return stdout.writableLength;
    },
  };
  try {
    return printKept(place.scan, path, expect, out);
  } catch (e) {
    // nothing printed yet: the full command answers; else this command failed (the answer cut short)
    if (!printing) return false;
    reportFailure(e, cmd.json);
    return true;
  }
}

/** Answers the command line when it is one answered here; false: the full command answers it. */
async function answer(argv: readonly string[]): Promise<boolean> {
  // `mcp` reads options of its own (and prints its own help) before any parsing
  if (argv[0] === "mcp") return false;
  // the full command's own parsing: a malformed command line is its to word
  const parsed = parseArgv(argv);
  if (E.isLeft(parsed)) return false;
  const cmd = parsed.right;
  if (cmd.verb === "--version") {
    printVersion(cmd.json);
    return true;
  }
  const help = await helpAnswer(cmd);
  if (help !== undefined) {
    // help of a name that is no verb is a usage error, which the full command words
    if ("unknown" in help) return false;
    printHelp(help.text, help.about, cmd.json);
    return true;
  }
  if (cmd.verb === "inspect") return answerInspect(cmd);
  const plainList = cmd.verb === "list" && cmd.positional.length === 0 && Object.keys(cmd.params).length === 0 && cmd.stream !== true;
  return plainList ? answerList(cmd) : false;
}

/** The full command: in the build, its one CommonJS file beside this one (run with V8's cache of
 *  compiled code); run from the sources, host-cli/main.ts. */
async function fullCommand(): Promise<void> {
  const built = builtFullCommand();
  if (existsSync(built)) requireWithCodeCache(built);
  else await import("./main.js");
}

reportInternalErrors();
enableCompileCache();
// anything the quick path cannot read (a permission, a symlink loop) is the full command's to report
void answer(process.argv.slice(2))
  .catch(() => false)
  .then((answered) => (answered ? undefined : fullCommand()));
