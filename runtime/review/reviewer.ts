// The Reviewer port: the model step of an automatic review. It gets the value-free projection as
// text and returns the reviewer's whole output; core parses and validates it, nothing trusts it.
import { spawn } from "node:child_process";
import { splitWordsDetailed } from "../../core/template/split.js";
import { childEnvironment } from "../../adapters/process/child-env.js";
import { signalGroup } from "../../adapters/process/group.js";

export interface Reviewer {
  /** shown by status views: which reviewer a host uses */
  readonly describe: string;
  review(input: string): Promise<string>;
}

export { REVIEWER_ENV } from "../verbs/status.js";
import { REVIEWER_ENV } from "../verbs/status.js";

const REVIEW_TIMEOUT_MS = 10 * 60 * 1000;
const OUTPUT_LIMIT = 16 * 1024 * 1024;

/** Runs `argv` without a shell, the input on stdin; resolves with stdout when it exits 0. */
export function runReviewerProcess(argv: readonly string[], input: string, timeoutMs = REVIEW_TIMEOUT_MS): Promise<string> {
  const [command, ...args] = argv;
  if (command === undefined) return Promise.reject(new Error("reviewer command is empty"));
  return new Promise((resolve, reject) => {
    // (stdin, stdout and stderr are pipes: spawn's default). A process group of its own: a
    // reviewer that is a script leaves children (a `sleep`, a model client) holding its output
    // open, and the limits below must end all of them, not only the script.
    const child = spawn(command, args, { detached: true, env: childEnvironment() });
    const out: Buffer[] = [];
    let size = 0;
    let err = "";
    // why we killed it, so that the failure says so rather than only "SIGKILL"
    let stopped: string | undefined;
    const stop = (why: string): void => {
      stopped ??= why;
      if (child.pid === undefined || !signalGroup(child.pid, "SIGKILL")) child.kill("SIGKILL");
    };
    const timer = setTimeout(() => stop(`it ran longer than ${timeoutMs / 1000} s`), timeoutMs);
    child.stdout.on("data", (b: Buffer) => {
      size += b.length;
      if (size > OUTPUT_LIMIT) stop(`its output passed the limit of ${OUTPUT_LIMIT} bytes`);
      else out.push(b);
    });
    child.stderr.on("data", (b: Buffer) => {
      if (err.length < 4000) err += b.toString("utf8");
    });
    child.on("error", (e) => {
      clearTimeout(timer);
      reject(new Error(`reviewer could not start: ${e.message}`));
    });
    // the reviewer itself ends: what it left running in its group goes with it (a stray child
    // holding the output open would keep "close" from ever coming)
    child.on("exit", () => {
      if (child.pid !== undefined) signalGroup(child.pid, "SIGKILL");
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (stopped !== undefined) reject(new Error(`reviewer was killed: ${stopped}`));
      else if (code === 0) resolve(Buffer.concat(out).toString("utf8"));
      else reject(new Error(`reviewer exited with ${signal ?? `code ${code}`}${err.trim() === "" ? "" : `: ${err.trim().slice(0, 500)}`}`));
    });
    child.stdin.on("error", () => undefined);
    child.stdin.end(input);
  });
}

/** An operator-configured command line (split like a template, never through a shell). */
export function commandReviewer(commandLine: string): Reviewer {
  const split = splitWordsDetailed(commandLine);
  // a quote left open would run some other command than the one written: refused, not guessed
  const review = split.unterminatedQuote === undefined
    ? (input: string) => runReviewerProcess(split.words, input)
    : () => Promise.reject(new Error(`reviewer command has an unterminated ${split.unterminatedQuote} quote: ${commandLine} (${REVIEWER_ENV})`));
  return { describe: `command:${commandLine}`, review };
}

/** The reviewer configured in the environment, if any. */
export function configuredReviewer(env: NodeJS.ProcessEnv = process.env): Reviewer | undefined {
  const line = env[REVIEWER_ENV]?.trim();
  return line === undefined || line === "" ? undefined : commandReviewer(line);
}

/** A fixed reply (operators and tests: `pi-recipes review --scripted FILE`). */
export const scriptedReviewer = (reply: string, origin: string): Reviewer => ({ describe: `scripted: ${origin}`, review: async () => reply });

/** Pi's reviewer: a child `pi -p` with no tools and no extensions (so it cannot recurse into
 *  another review), the projection and its instructions attached as a file argument. */
export function piReviewerArgv(inputPath: string, model?: string): string[] {
  return ["pi", "-p", "--no-tools", "--no-session", "-ne", ...(model === undefined ? [] : ["--model", model]), `@${inputPath}`, "Review the attached draft batch as instructed in it."];
}
