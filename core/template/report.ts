// How a finished command-template run is reported: the text the agent
// sees, its truncation and the structured details. Pure: the runtime saves the full output and
// passes the saved path (or its absence) back in.

/** Lines kept of a long result body, and then bytes. */
export const MAX_OUTPUT_LINES = 2000;
export const MAX_OUTPUT_BYTES = 50 * 1024;

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8");
function byteLength(text: string): number {
  if (text.length > 4096) return encoder.encode(text).length;
  // UTF-8 length without encoding: 1 byte below U+0080, 2 below U+0800, 4 for a surrogate pair,
  // 3 otherwise (a lone surrogate too: the encoder writes U+FFFD for it)
  let bytes = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i += 1;
    } else bytes += 3;
  }
  return bytes;
}

function countNewlines(text: string): number {
  let n = 0;
  for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) n += 1;
  return n;
}

const BARE_WORD = /^[A-Za-z0-9_/:=.,@%+-]+$/;

/** One argv word as a shell reader would retype it: bare when safe, else single-quoted. */
export function renderWord(word: string): string {
  if (word === "") return "''";
  return BARE_WORD.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

export interface RenderedInvocation {
  readonly command: string;
  readonly args: readonly string[];
}

export function renderInvocation(inv: RenderedInvocation): string {
  // runs on every call: one string built in place of two arrays
  let out = renderWord(inv.command);
  for (const arg of inv.args) out += ` ${renderWord(arg)}`;
  return out;
}

/** Several executed invocations, in order, as one `a && b` line (bounded as one command is).
 *  The form is kept for compatibility and is no shell line: a sequence's steps each read the
 *  previous step's stdout, a step that failed under `continue` did not stop the ones after it,
 *  and a parallel node's branches ran side by side. `listedCommands` says which ran, one each. */
export const renderCommands = (commands: readonly string[]): string => (commands.length === 1 ? (commands[0] as string) : boundedCommand(commands.join(" && ")));

/** At most this many invocations are listed one by one (a `repeat` can run thousands). */
export const MAX_LISTED_COMMANDS = 100;

/** The invocations a run made, one entry each in template order (a parallel node's in branch
 *  order), the first MAX_LISTED_COMMANDS of them, and how many more there were. */
export function listedCommands(commands: readonly string[]): { readonly steps: readonly string[]; readonly more: number } {
  return commands.length <= MAX_LISTED_COMMANDS
    ? { steps: commands, more: 0 }
    : { steps: commands.slice(0, MAX_LISTED_COMMANDS), more: commands.length - MAX_LISTED_COMMANDS };
}

/** The longest command text a result repeats: an argument can be megabytes, and the result
 *  would carry all of it back. */
export const MAX_COMMAND_CHARS = 2000;

/** A command's text as a result shows it: whole up to MAX_COMMAND_CHARS, else its start and its
 *  end with a marker between them saying how many characters were left out (never half of a
 *  surrogate pair on either side). */
export function boundedCommand(command: string, max = MAX_COMMAND_CHARS): string {
  if (command.length <= max) return command;
  let head = Math.floor((max * 3) / 4);
  let tail = command.length - Math.floor(max / 4);
  if (isLowSurrogate(command.charCodeAt(head))) head -= 1;
  if (isLowSurrogate(command.charCodeAt(tail))) tail += 1;
  return `${command.slice(0, head)}…[${tail - head} characters left out]…${command.slice(tail)}`;
}

const isLowSurrogate = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff;

/** `<n>B` under 1 KiB, else one decimal of KB or MB. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes}B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)}KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)}MB`;
}

export interface Truncated {
  readonly text: string;
  readonly truncated: boolean;
  readonly outLines: number;
  readonly totalLines: number;
  readonly outBytes: number;
  readonly totalBytes: number;
  /** the byte limit cut a line: the text begins with only the end of it (`kept` of its `bytes`) */
  readonly cutLine?: { readonly kept: number; readonly bytes: number };
}

/** The last 2000 lines, then the last 50 KiB of those, starting on a whole character. */
export function truncateBody(body: string, maxLines = MAX_OUTPUT_LINES, maxBytes = MAX_OUTPUT_BYTES): Truncated {
  // every call reports its body: count lines and bytes without building arrays when it is short
  const newlines = countNewlines(body);
  const totalLines = newlines + 1;
  const totalBytes = byteLength(body);
  // the last maxLines lines: found from the end, never by splitting the whole body into lines (one
  // string per line of a 200 MB output is gigabytes)
  let text = body;
  if (totalLines > maxLines) {
    let at = body.length;
    for (let i = 0; i < maxLines; i++) at = body.lastIndexOf("\n", at - 1);
    text = body.slice(at + 1);
  }
  let bytes = text === body ? totalBytes : byteLength(text);
  if (bytes > maxBytes) {
    const encoded = encoder.encode(text);
    let start = encoded.length - maxBytes;
    // skip UTF-8 continuation bytes so the kept part starts on a character
    while (start < encoded.length && ((encoded[start] ?? 0) & 0xc0) === 0x80) start += 1;
    text = decoder.decode(encoded.subarray(start));
    bytes = encoded.length - start;
    // the cut fell inside a line: the first line shown is only its end, which the notice says (a
    // cut right before a newline shows nothing of that line: the text begins with a line break)
    const next = start > 0 && encoded[start - 1] !== NEWLINE ? encoded.indexOf(NEWLINE, start) : start;
    const end = next === -1 ? encoded.length : next;
    if (end > start) {
      const cutLine = { kept: end - start, bytes: end - (encoded.lastIndexOf(NEWLINE, start - 1) + 1) };
      return { text, truncated: true, outLines: text.split("\n").length, totalLines, outBytes: bytes, totalBytes, cutLine };
    }
  }
  const truncated = text.length !== body.length;
  return { text, truncated, outLines: truncated ? text.split("\n").length : totalLines, totalLines, outBytes: bytes, totalBytes };
}
const NEWLINE = 0x0a;

/** The notice appended to a truncated body; `savedPath` undefined means saving failed, and
 *  `notSaved` says why. `partial` says what the saved text lacks when the run's output itself was
 *  not kept whole (a stream over what is saved of it): the file is then never called the full
 *  output. */
export function truncationNotice(t: Truncated, savedPath: string | undefined, partial?: string, notSaved?: string): string {
  const saved =
    savedPath === undefined
      ? `Full output could not be saved${notSaved === undefined ? "" : ` (${notSaved})`}.`
      : partial === undefined
        ? `Full output saved to: ${savedPath}`
        : `Output saved to: ${savedPath}, not in full: ${partial}`;
  return `\n\n[Output truncated: ${shownPart(t)}. ${saved}]`;
}

/** What the text shows of the output: `<n> of <m> lines (<size> of <size>)`, the form tools that
 *  read the notice expect; when the byte limit cut a line, a clause after it says that the first
 *  line shown is only that line's end. */
function shownPart(t: Truncated): string {
  const counted = `${t.outLines} of ${t.totalLines} lines (${formatSize(t.outBytes)} of ${formatSize(t.totalBytes)})`;
  const cut = t.cutLine;
  return cut === undefined ? counted : `${counted}; the first line shown is only the last ${formatSize(cut.kept)} of a ${formatSize(cut.bytes)} line`;
}

/** What the text of a run lacks of its streams, or undefined when it holds them whole: a stream
 *  over what is saved of it kept only its end (`file`: where all of it is, when it was). */
export function partialStreams(streams: readonly { readonly name: string; readonly truncated: boolean; readonly bytes: number; readonly kept: number; readonly file?: string | undefined }[]): string | undefined {
  const parts = streams
    .filter((s) => s.truncated)
    .map((s) => `${s.name} was ${formatSize(s.bytes)}, only its last ${formatSize(s.kept)} is in it${s.file === undefined ? "" : ` (all of it: ${s.file})`}`);
  return parts.length === 0 ? undefined : parts.join("; ");
}

/** The body of a successful run: stdout without its leading blank lines and trailing whitespace
 *  (the first line keeps its indentation: `uniq -c` columns stay aligned), `(no output)` when
 *  nothing is left. */
export const successBody = (stdout: string): string => {
  const trimmed = stdout.trimEnd().replace(LEADING_BLANK_LINES, "");
  return trimmed === "" ? "(no output)" : trimmed;
};
const LEADING_BLANK_LINES = /^(?:[ \t\f\v]*\r?\n)+/;

/** A successful run's stdout given as UTF-8 bytes (already known to be valid UTF-8), reported as
 *  truncateBody(successBody(its text)) would report it, without ever decoding more than the part
 *  shown: a stdout of 200 MB decoded whole is as large again in the heap, and once more when that
 *  text is written out as the saved full output. `body` is the byte range the whole body spans
 *  (`start`, `end`): successBody's text is exactly those bytes, so the saved output is written
 *  from them. */
export function truncateSuccessBytes(stdout: Uint8Array, maxLines = MAX_OUTPUT_LINES, maxBytes = MAX_OUTPUT_BYTES): { readonly truncated: Truncated; readonly body: { readonly start: number; readonly end: number } } {
  const end = trimmedEnd(stdout);
  const start = afterBlankLines(stdout, end);
  if (start >= end) return { truncated: truncateBody(successBody(""), maxLines, maxBytes), body: { start: 0, end: 0 } };
  return { truncated: truncateRange(stdout, start, end, maxLines, maxBytes), body: { start, end } };
}

/** truncateBody of the text of `bytes[start, end)` (valid UTF-8), decoding only what is kept. */
function truncateRange(bytes: Uint8Array, start: number, end: number, maxLines: number, maxBytes: number): Truncated {
  const totalLines = countByte(bytes, NEWLINE, start, end) + 1;
  const totalBytes = end - start;
  // the last maxLines lines, found from the end as truncateBody finds them
  let from = start;
  if (totalLines > maxLines) {
    let at = end;
    for (let i = 0; i < maxLines; i++) at = bytes.lastIndexOf(NEWLINE, at - 1);
    from = at + 1;
  }
  const lineCut = from !== start;
  if (end - from > maxBytes) {
    let cut = end - maxBytes;
    // skip UTF-8 continuation bytes so the kept part starts on a character
    while (cut < end && ((bytes[cut] ?? 0) & 0xc0) === 0x80) cut += 1;
    const text = decoder.decode(bytes.subarray(cut, end));
    const outLines = countByte(bytes, NEWLINE, cut, end) + 1;
    const next = cut > from && bytes[cut - 1] !== NEWLINE ? bytes.indexOf(NEWLINE, cut) : cut;
    const lineEnd = next === -1 || next > end ? end : next;
    if (lineEnd > cut) {
      const before = bytes.lastIndexOf(NEWLINE, cut - 1);
      const lineStart = before < from ? from : before + 1;
      return { text, truncated: true, outLines, totalLines, outBytes: end - cut, totalBytes, cutLine: { kept: lineEnd - cut, bytes: lineEnd - lineStart } };
    }
    return { text, truncated: true, outLines, totalLines, outBytes: end - cut, totalBytes };
  }
  const text = decoder.decode(bytes.subarray(from, end));
  return { text, truncated: lineCut, outLines: lineCut ? countByte(bytes, NEWLINE, from, end) + 1 : totalLines, totalLines, outBytes: end - from, totalBytes };
}

/** truncateFailure with stdout given as UTF-8 bytes (valid UTF-8): the same text and counts, stdout decoded only where it is shown, and
 *  the whole body (`full`) as bytes for the caller to save. undefined for a command that never
 *  started, which truncateFailure words apart, and for a body short enough to show whole. */
export function truncateFailureBytes(code: number, killed: boolean, stderr: string, stdout: Uint8Array, tail: string, signal?: string): (Truncated & { readonly full: Uint8Array }) | undefined {
  if (!killed && stderr.startsWith(NOT_STARTED)) return undefined;
  const end = trimmedEnd(stdout);
  const stdoutShown = end > 0;
  const beforeBytes = encoder.encode(failureHead(code, killed, wholeStderr(stderr), stdoutShown, signal));
  const tailBytes = encoder.encode(tail);
  const full = new Uint8Array(beforeBytes.length + end + tailBytes.length);
  full.set(beforeBytes, 0);
  full.set(stdout.subarray(0, end), beforeBytes.length);
  full.set(tailBytes, beforeBytes.length + end);
  const totalLines = countByte(full, NEWLINE, 0, full.length) + 1;
  // (mostly white space: short once trimmed, and shown whole)
  if (totalLines <= MAX_OUTPUT_LINES && full.length <= MAX_OUTPUT_BYTES) return undefined;
  const text = cutFailureText(code, killed, stderr, stdoutShown, tail, signal, (maxLines, maxBytes) => truncateRange(stdout, 0, end, maxLines, maxBytes).text);
  return { text, truncated: true, outLines: countNewlines(text) + 1, totalLines, outBytes: byteLength(text), totalBytes: full.length, full };
}

function countByte(bytes: Uint8Array, byte: number, from: number, to: number): number {
  let n = 0;
  for (let at = bytes.indexOf(byte, from); at !== -1 && at < to; at = bytes.indexOf(byte, at + 1)) n += 1;
  return n;
}

/** Where `String.prototype.trimEnd` would end the text of these UTF-8 bytes: the end of the last
 *  character that is not white space or a line terminator (decoded a piece at a time from the end). */
function trimmedEnd(bytes: Uint8Array): number {
  let end = bytes.length;
  while (end > 0) {
    let from = Math.max(0, end - 4096);
    while (from > 0 && ((bytes[from] ?? 0) & 0xc0) === 0x80) from -= 1;
    const kept = decoder.decode(bytes.subarray(from, end)).trimEnd();
    if (kept !== "") return from + byteLength(kept);
    end = from;
  }
  return 0;
}

/** Past the blank lines at the start, as successBody's LEADING_BLANK_LINES removes them: lines of
 *  spaces, tabs, form and vertical feeds only, each ended by `\n` or `\r\n`. */
function afterBlankLines(bytes: Uint8Array, end: number): number {
  let start = 0;
  for (;;) {
    let at = start;
    while (at < end && (bytes[at] === 0x20 || bytes[at] === 0x09 || bytes[at] === 0x0c || bytes[at] === 0x0b)) at += 1;
    if (bytes[at] === 0x0d) at += 1;
    if (at >= end || bytes[at] !== NEWLINE) return start;
    start = at + 1;
  }
}

/** The body of a failed run: the exit line, then stderr and stdout when they say anything. */
/** How the process runner begins the message of a command that could not be started. */
export const NOT_STARTED = "Could not start ";

/** The first line of a failure: the exit code, or the signal that ended a process that had none
 *  of its own (`signal`: one sent from elsewhere, the OOM killer or a kill -9; a run's own timeout
 *  or abort is `killed`). */
export const exitLine = (code: number, killed: boolean, signal?: string): string =>
  signal !== undefined && !killed ? `Killed by signal ${signal} (no exit code of its own)` : `Exit code ${code}${killed ? " (killed)" : ""}`;

export function failureBody(code: number, killed: boolean, stderr: string, stdout: string, signal?: string): string {
  // a command that never started has no exit code: the reason alone says what happened
  if (!killed && stderr.startsWith(NOT_STARTED)) return stdout.trim() === "" ? stderr.trimEnd() : `${stderr.trimEnd()}\n\nstdout:\n${stdout.trimEnd()}`;
  const stdoutShown = stdout.trim() !== "";
  return `${failureHead(code, killed, wholeStderr(stderr), stdoutShown, signal)}${stdoutShown ? stdout.trimEnd() : ""}`;
}

/** A failure's body up to where its stdout begins: the exit line, `stderrShown` (nothing when
 *  empty), and the stdout heading when stdout says anything. */
const failureHead = (code: number, killed: boolean, stderrShown: string, stdoutShown: boolean, signal?: string): string =>
  `${exitLine(code, killed, signal)}${stderrShown === "" ? "" : `\n\nstderr:\n${stderrShown}`}${stdoutShown ? "\n\nstdout:\n" : ""}`;

/** stderr as a failure's whole body shows it: nothing when it is blank, else without its end's
 *  white space. */
const wholeStderr = (stderr: string): string => (stderr.trim() === "" ? "" : stderr.trimEnd());

/** A cut failure's text (see truncateFailure): its head with the end of stderr within half the
 *  limits, then what `stdoutEnd` keeps of stdout's end within the limits left, then `tail`. */
function cutFailureText(
  code: number, killed: boolean, stderr: string, stdoutShown: boolean, tail: string, signal: string | undefined,
  stdoutEnd: (maxLines: number, maxBytes: number) => string,
): string {
  const err = stderr.trim() === "" ? "" : truncateBody(stderr.trimEnd(), MAX_OUTPUT_LINES / 2, MAX_OUTPUT_BYTES / 2).text;
  const head = failureHead(code, killed, err, stdoutShown, signal);
  const used = `${head}${tail}`;
  const out = stdoutShown ? stdoutEnd(Math.max(1, MAX_OUTPUT_LINES - countNewlines(used) - 1), Math.max(1, MAX_OUTPUT_BYTES - byteLength(used))) : "";
  return `${head}${out}${tail}`;
}

/** A failure's body within the limits of truncateBody, its exit line always kept: the end of
 *  stderr (at most half the limits: where a failing command says why) and then as much of the
 *  end of stdout as fits, then `tail` (the failed step's line). Cutting the whole body from its
 *  end instead would keep only stdout, and the agent would read a failure without its exit code
 *  or its error. */
export function truncateFailure(code: number, killed: boolean, stderr: string, stdout: string, tail: string, signal?: string): Truncated & { readonly full: string } {
  // `full`: the whole body, which the caller saves when it was cut (built once, as it may be large)
  const full = `${failureBody(code, killed, stderr, stdout, signal)}${tail}`;
  const whole = truncateBody(full);
  if (!whole.truncated || (!killed && stderr.startsWith(NOT_STARTED))) return { ...whole, full };
  const text = cutFailureText(code, killed, stderr, stdout.trim() !== "", tail, signal, (maxLines, maxBytes) => truncateBody(stdout.trimEnd(), maxLines, maxBytes).text);
  return { text, truncated: true, outLines: countNewlines(text) + 1, totalLines: whole.totalLines, outBytes: byteLength(text), totalBytes: whole.totalBytes, full };
}

/** The final text: the (possibly truncated) body, then the notice. Texts carry no leading
 * newline: every host prints them as they are. */
export const finalText = (t: Truncated, savedPath: string | undefined, partial?: string, notSaved?: string): string =>
  `${t.text}${t.truncated ? truncationNotice(t, savedPath, partial, notSaved) : ""}`;

export type FailureReason = "timed_out" | "parallel_quorum_not_met" | "all_branches_unusable" | "command_failed";

export const QUORUM_NOT_MET = "parallel branch quorum not met";

/** Why a call failed: a step or node ended by its own `timeout` first (whatever it left behind
 *  says less than that), then a parallel node's quorum, then every branch unusable. */
export function failureReason(stderr: string, branches: readonly { readonly usable: boolean }[], timedOut = false): FailureReason {
  if (timedOut) return "timed_out";
  if (stderr.includes(QUORUM_NOT_MET)) return "parallel_quorum_not_met";
  if (branches.length > 0 && branches.every((b) => !b.usable)) return "all_branches_unusable";
  return "command_failed";
}

export interface NonCriticalFailure {
  readonly code: number;
  readonly command: string;
  readonly killed: boolean;
}

/** Consecutive identical failures (a retried step) are reported once. */
export function collapseFailures(list: readonly NonCriticalFailure[]): NonCriticalFailure[] {
  const out: NonCriticalFailure[] = [];
  for (const f of list) {
    const last = out[out.length - 1];
    if (last !== undefined && last.code === f.code && last.command === f.command && last.killed === f.killed) continue;
    out.push(f);
  }
  return out;
}

/** The last `n` characters of a text (branch evidence in joins and reports). */
export const lastChars = (text: string, n: number): string => (text.length > n ? text.slice(-n) : text);

/** A step that failed while its sequence went on (`failure: continue`): what the result's text
 * names, so that a failure is never hidden behind the output of the steps after it. */
export interface ContinuedFailure {
  readonly command: string;
  readonly code: number;
  readonly killed: boolean;
  /** the first non-blank line of the step's stderr ("" when it printed none) */
  readonly stderr: string;
  /** the signal from elsewhere that ended it (it had no exit code of its own) */
  readonly signal?: string;
}

/** At most this many continued failures are named, one line each; the rest are counted. */
export const MAX_CONTINUED_LINES = 10;
const MAX_PART_CHARS = 200;

// one line: control characters (a newline in an argv word or in stderr) become spaces, and a
// very long command or message keeps its start
function oneLine(text: string): string {
  const flat = text.replace(/[\u0000-\u001f\u007f]+/g, " ").trim();
  return flat.length > MAX_PART_CHARS ? `${flat.slice(0, MAX_PART_CHARS - 1)}…` : flat;
}

/** The first non-blank line of a stream. */
export function firstLine(text: string): string {
  for (const line of text.split("\n")) if (line.trim() !== "") return line.trim();
  return "";
}

/** `Step failed, the sequence went on: cat nope (exit 1): cat: nope: No such file or directory` */
export function continuedFailureLine(f: ContinuedFailure): string {
  const exit = f.signal !== undefined && !f.killed ? `killed by signal ${f.signal}` : `exit ${f.code}${f.killed ? ", killed" : ""}`;
  const stderr = oneLine(f.stderr);
  return `Step failed, the sequence went on: ${oneLine(f.command)} (${exit})${stderr === "" ? "" : `: ${stderr}`}`;
}

/** The lines naming continued failures (consecutive repeats once), at most MAX_CONTINUED_LINES. */
export function continuedFailureLines(list: readonly ContinuedFailure[]): string[] {
  const distinct: ContinuedFailure[] = [];
  for (const f of list) {
    const last = distinct[distinct.length - 1];
    if (last !== undefined && last.code === f.code && last.command === f.command && last.killed === f.killed && last.stderr === f.stderr) continue;
    distinct.push(f);
  }
  const lines = distinct.slice(0, MAX_CONTINUED_LINES).map(continuedFailureLine);
  const more = distinct.length - MAX_CONTINUED_LINES;
  if (more > 0) lines.push(`… and ${more} more failed step${more === 1 ? "" : "s"} (details: continuedFailures)`);
  return lines;
}
