// A leaf template + values → the argv to spawn. No shell is involved:
// every word is substituted on its own, so a value is exactly one argument, never re-split.
import * as E from "fp-ts/lib/Either.js";
import { type TemplateFailure, invalidTemplate } from "./failure.js";
import type { CompiledLeaf } from "./compile.js";
import { compileLeaf } from "./compile.js";
import type { Scope } from "./substitute.js";
import { DEFAULT_LABEL, Failure, resolveToken } from "./substitute.js";

export interface Invocation {
  readonly command: string;
  readonly args: readonly string[];
}

/** Where the call runs: `~` expands to `home`, relative executables resolve against `cwd`. */
export interface Place {
  readonly home: string;
  readonly cwd: string;
}

export const EMPTY_COMMAND = "Tool template produced an empty command.";

export const unterminatedQuoteMessage = (quote: "'" | '"', text: string): string =>
  `Unterminated ${quote} quote in command template: ${text}`;

/** POSIX `path.resolve(base, rel)` for an absolute base, without touching the process. */
export function resolvePath(base: string, rel: string): string {
  const segments: string[] = [];
  for (const s of (rel.startsWith("/") ? rel : `${base}/${rel}`).split("/")) {
    if (s === "" || s === ".") continue;
    if (s === "..") segments.pop();
    else segments.push(s);
  }
  return "/" + segments.join("/");
}

/** Tilde and relative-path expansion of the command word only (arguments keep their `~`). */
export function expandExecutable(command: string, place: Place): string {
  if (command === "~") return place.home;
  if (command.startsWith("~/")) return resolvePath(place.home, command.slice(2));
  if (command.includes("/") && !command.startsWith("/")) return resolvePath(place.cwd, command);
  return command;
}

/** Builds the invocation of a compiled leaf. Empty argument words are dropped (that is what
 * makes `{flag?--flag:}` and `''` vanish); the command word never is. */
export function invocationOf(leaf: CompiledLeaf, scope: Scope, place: Place, label: string = DEFAULT_LABEL): E.Either<TemplateFailure, Invocation> {
  // an unterminated quote is an error: the command it would run is not the one written
  if (leaf.unterminatedQuote !== undefined) return E.left(invalidTemplate(unterminatedQuoteMessage(leaf.unterminatedQuote, leaf.text)));
  const first = leaf.words[0];
  if (first === undefined) return E.left(invalidTemplate(EMPTY_COMMAND));
  const command = resolveToken(first, scope, label);
  if (command instanceof Failure) return E.left(command.failure);
  const args: string[] = [];
  for (let i = 1; i < leaf.words.length; i += 1) {
    const word = resolveToken(leaf.words[i] as CompiledLeaf["words"][number], scope, label);
    if (word instanceof Failure) return E.left(word.failure);
    if (word !== "") args.push(word);
  }
  return E.right({ command: expandExecutable(command, place), args });
}

/** invocationOf for a leaf text. */
export const buildInvocation = (text: string, scope: Scope, place: Place, label?: string): E.Either<TemplateFailure, Invocation> =>
  invocationOf(compileLeaf(text), scope, place, label);
