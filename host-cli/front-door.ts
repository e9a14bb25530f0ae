#!/usr/bin/env node
// The `pi-recipes` command as installed (the package's bin). The build makes this file one
// CommonJS file (dist/host-cli/pi-recipes.cjs) holding only what it imports, and it answers the
// commands that are provable without the registry: `--version`, help, and `list` when nothing is pending
// to settle and the list index of the recipe root is current, or there is no recipe root and the
// packaged root is as the build prepared it (runtime/list-index.ts listWithoutDiscovery). Every
// other command line, and a `list` that needs a discovery, goes to the full command
// (host-cli/main.ts), which is loaded only then.
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
import { makeNodeScanPort } from "../adapters/fs/scan.js";
import { agentPlace, registryContext } from "../runtime/agent-paths.js";
import { codeVersion } from "../runtime/compile-cache.js";
import { listWithoutDiscovery } from "../runtime/list-index.js";
import { installedPackagedCompiles } from "../runtime/packaged-compiles.js";
import { anythingPending } from "../runtime/pending.js";
import { listTools } from "../runtime/verbs/list.js";
import { parseArgv, type ParsedCommandLine } from "./argv.js";
import { noteMissingAgentDir, printVersion, quietBrokenPipes } from "./before-verb.js";
import { helpAnswer } from "./help.js";
import { enableCompileCache } from "./node-compile-cache.js";
import { printResult } from "./print.js";

/** `list` without a discovery, when that is provable; false: the full command answers. */
async function answerList(cmd: ParsedCommandLine): Promise<boolean> {
  const env = process.env;
  const { paths, packagedRoot } = agentPlace({ env, cwd: process.cwd() });
  // a plan a killed command left pending is settled by the full command before it lists
  if (existsSync(paths.usageRoot) && (await anythingPending(makeNodeFileSystem(), paths))) return false;
  const scan = makeNodeScanPort();
  const list = listWithoutDiscovery(scan, {
    recipeRoot: paths.recipeRoot,
    cwd: paths.cwd,
    version: codeVersion(scan),
    context: registryContext(paths, packagedRoot),
    ...(packagedRoot === undefined ? {} : { packaged: { root: packagedRoot, file: installedPackagedCompiles() } }),
  });
  if (list === undefined) return false;
  quietBrokenPipes();
  noteMissingAgentDir("list", paths, env);
  printResult(cmd, listTools(list));
  return true;
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
    quietBrokenPipes();
    printVersion(cmd.json);
    return true;
  }
  const help = await helpAnswer(cmd);
  if (help !== undefined) {
    // help of a name that is no verb is a usage error, which the full command words
    if ("unknown" in help) return false;
    quietBrokenPipes();
    process.stdout.write(help.text);
    return true;
  }
  const plainList = cmd.verb === "list" && cmd.positional.length === 0 && Object.keys(cmd.params).length === 0 && cmd.stream !== true;
  return plainList ? answerList(cmd) : false;
}

enableCompileCache();
// anything the quick path cannot read (a permission, a symlink loop) is the full command's to report
void answer(process.argv.slice(2))
  .catch(() => false)
  .then((answered) => (answered ? undefined : import("./main.js")));
