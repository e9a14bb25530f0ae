#!/usr/bin/env node
// The `pi-recipes` command: the registry's verbs for people and scripts.
// Exit 0 on success, 1 when the registry answers with an error, 2 on a malformed command line.
import { enableCompileCache } from "./compile-cache.js";
import { parseArgv } from "./argv.js";
import { runVerb, usageText } from "./verbs.js";

async function main(argv: readonly string[]): Promise<number> {
  const parsed = parseArgv(argv);
  if (!parsed.ok) {
    process.stderr.write(`pi-recipes: ${parsed.error}\n${usageText()}`);
    return 2;
  }
  if (parsed.value.verb === "--help" || parsed.value.verb === "-h" || parsed.value.verb === "help") {
    process.stdout.write(usageText());
    return 0;
  }
  const outcome = await runVerb(parsed.value);
  if (outcome.kind === "usage") {
    process.stderr.write(`pi-recipes: ${outcome.error}\n${usageText()}`);
    return 2;
  }
  if (outcome.kind === "exit") return outcome.code;
  const { result } = outcome;
  if (parsed.value.json) process.stdout.write(JSON.stringify({ ok: result.ok, text: result.text, details: result.details }) + "\n");
  else (result.ok ? process.stdout : process.stderr).write(result.text.endsWith("\n") ? result.text : result.text + "\n");
  return result.ok ? 0 : 1;
}

enableCompileCache();
main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`pi-recipes: internal error: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
