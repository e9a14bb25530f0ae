#!/usr/bin/env node
// The `pi-recipes` command: the registry's verbs for people and scripts.
// Exit 0 on success, 1 when the registry answers with an error, 2 on a malformed command line.
import { parseArgv } from "./argv.js";
import { runVerb, usageText, type VerbOutcome } from "./verbs.js";

async function main(argv: readonly string[]): Promise<number> {
  // `mcp` has --options of its own (mcp --http --port 0), which the key=value command line lacks
  if (argv[0] === "mcp") return finish(await (await import("./verbs/mcp.js")).runMcp(argv.slice(1)), false);
  const parsed = parseArgv(argv);
  if (!parsed.ok) {
    process.stderr.write(`pi-recipes: ${parsed.error}\n${await usageText()}`);
    return 2;
  }
  if (parsed.value.verb === "--help" || parsed.value.verb === "-h" || parsed.value.verb === "help") {
    process.stdout.write(await usageText());
    return 0;
  }
  return finish(await runVerb(parsed.value), parsed.value.json);
}

async function finish(outcome: VerbOutcome, json: boolean): Promise<number> {
  if (outcome.kind === "usage") {
    process.stderr.write(`pi-recipes: ${outcome.error}\n${await usageText()}`);
    return 2;
  }
  if (outcome.kind === "exit") return outcome.code;
  const { result } = outcome;
  if (json) process.stdout.write(JSON.stringify({ ok: result.ok, text: result.text, details: result.details }) + "\n");
  else (result.ok ? process.stdout : process.stderr).write(result.text.endsWith("\n") ? result.text : result.text + "\n");
  return result.ok ? 0 : 1;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`pi-recipes: internal error: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
