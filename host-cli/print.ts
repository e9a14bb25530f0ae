// How a verb's result reaches the terminal: `--json` prints the result object; on a terminal the
// summary and doctor views are tables (host-cli/tables.ts); otherwise the text as the registry
// wrote it (the compact form agents read).
import type { CommandResult } from "../core/result.js";
import { continuedFailureLines, type ContinuedFailure } from "../core/template/report.js";
import type { ParsedCommandLine } from "./argv.js";
import { stderr, stdout } from "./std-out.js";
import { tableFor } from "./tables.js";

/** Pieces of at least this many characters go to stdout in one write. */
export const JSON_PIECE = 1 << 16;
/** A list is stringified this many elements at a time: one `JSON.stringify` per element cost
 *  several times the serialising itself over 10,000 recipes (docs/performance.md). */
export const JSON_BATCH = 256;

/** The one shape `--json` ever prints: `{"ok": bool, "text": string, "details": object}` on one line. */
export function writeJson(ok: boolean, text: string, details: Readonly<Record<string, unknown>>, out: { write(chunk: string): unknown } = stdout): void {
  // written piece by piece: the same bytes as one JSON.stringify, without ever holding the whole
  // text (or one whole list of `details`) as one string, so the memory the output takes does not
  // grow with the number of recipes (see docs/performance.md)
  if (typeof (details as { toJSON?: unknown }).toJSON === "function") {
    out.write(JSON.stringify({ ok, text, details }) + "\n");
    return;
  }
  let piece = `{"ok":${ok},"text":${JSON.stringify(text)},"details":{`;
  const put = (s: string): void => {
    piece += s;
    if (piece.length >= JSON_PIECE) {
      out.write(piece);
      piece = "";
    }
  };
  let first = true;
  for (const key of Object.keys(details)) {
    const value = details[key];
    if (Array.isArray(value) && typeof (value as { toJSON?: unknown }).toJSON !== "function") {
      put(`${first ? "" : ","}${JSON.stringify(key)}:[`);
      // a batch is stringified as a list of its own, brackets cut off: holes, undefined and
      // functions come out as `null`, as in one JSON.stringify of the whole list
      for (let i = 0; i < value.length; i += JSON_BATCH) put(`${i === 0 ? "" : ","}${JSON.stringify(value.slice(i, i + JSON_BATCH)).slice(1, -1)}`);
      put("]");
    } else {
      const json = JSON.stringify(value);
      if (json === undefined) continue;
      put(`${first ? "" : ","}${JSON.stringify(key)}:${json}`);
    }
    first = false;
  }
  out.write(`${piece}}}\n`);
}

const isContinuedFailure = (u: unknown): u is ContinuedFailure => {
  if (typeof u !== "object" || u === null) return false;
  const f = u as Record<string, unknown>;
  return typeof f["command"] === "string" && typeof f["code"] === "number" && typeof f["killed"] === "boolean" && typeof f["stderr"] === "string";
};

/** A successful call whose sequence went on past failed steps also says so on stderr, where a
 * person or a script watching the exit status looks for trouble (the text names them too). */
function warnContinued(result: CommandResult): void {
  const list = result.details["continuedFailures"];
  if (!result.ok || !Array.isArray(list) || list.length === 0 || !list.every(isContinuedFailure)) return;
  stderr.write(`${continuedFailureLines(list).join("\n")}\n`);
}

/** Whether `out` gets the views as tables: a terminal, or PI_RECIPES_TABLES=1. */
export const tablesWanted = (out: { readonly isTTY?: boolean }): boolean => out.isTTY === true || process.env["PI_RECIPES_TABLES"] === "1";

/** The plain text of a result as printed: ending in one newline. */
export const writeText = (out: { write(chunk: string): unknown }, text: string): void => void out.write(text.endsWith("\n") ? text : `${text}\n`);

// Control characters (but the line feed and the tab), C1 controls and the bidirectional overrides:
// in a name, description or path of a recipe they would reach the terminal as escape sequences
// (colours, a title, a clipboard write) or reorder what the user reads.
const UNSAFE_FOR_TERMINAL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** `text` with what UNSAFE_FOR_TERMINAL matches written as `\uXXXX`. */
export const terminalSafe = (text: string): string =>
  text.replace(UNSAFE_FOR_TERMINAL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

/** writeText of the registry's own text (what it says about recipes, never a command's output),
 *  with what a recipe says escaped (terminalSafe). */
export const writeRegistryText = (out: { write(chunk: string): unknown }, text: string): void => writeText(out, terminalSafe(text));

/** The text is a command's own output (its colours are the command's to print), not the registry's:
 *  a call, a spawn, a message to a tool, a run's tail. */
const commandOutput = (cmd: ParsedCommandLine): boolean =>
  cmd.verb === "call" || cmd.verb === "spawn" || cmd.verb === "message" ||
  (cmd.verb === "inspect" && typeof cmd.params["target"] === "string" && cmd.params["target"].startsWith("run:"));

/** A launch that ran but could not be counted (a full disk, a read-only recipe folder): the
 *  result is the command's, and a note on stderr says the usage ledger missed it. */
function warnUncounted(result: CommandResult): void {
  const note = result.details["usage_diagnostic"];
  if (typeof note === "string" && note !== "") stderr.write(`pi-recipes: note: ${note}\n`);
}

export function printResult(cmd: ParsedCommandLine, result: CommandResult): void {
  warnContinued(result);
  warnUncounted(result);
  if (cmd.json) {
    writeJson(result.ok, result.text, result.details);
    return;
  }
  const out = result.ok ? stdout : stderr;
  const text = (tablesWanted(out) ? tableFor(cmd, result) : undefined) ?? result.text;
  // a failure with no exit code of a command is a refusal before anything ran (an unknown tool,
  // an invalid recipe, a bad run id): the registry's own words, which echo names and values
  if (commandOutput(cmd) && (result.ok || typeof result.details["code"] === "number")) writeText(out, text);
  else writeRegistryText(out, text);
}
