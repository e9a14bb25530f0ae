// A bug that escapes every handler (an exception, or a promise nobody awaited that failed) ends the
// command as node would, with exit status 1, but says so in one line and a stack trace. Node's own
// report starts with the source line that threw, which in the one-file builds (main.cjs, the front
// door) is a line of up to some hundred kilobytes.
import { writeSync } from "node:fs";

// the front door and the full command are two bundles, each with its own copy of this module, and
// both run in one process when the front door hands a command on: one handler is enough
const INSTALLED = Symbol.for("pi-recipes.internal-errors");

/** The error's name and message, then its stack's frames. A SyntaxError's stack begins with the
 *  file and line it could not parse, then that source line (as long as the line is) and a caret:
 *  the place is kept, the source line left out. */
function described(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const lines = (error.stack ?? "").split("\n");
  const place = error instanceof SyntaxError && /^\S.*:\d+$/.test(lines[0] ?? "") ? [`    in ${lines[0]!}`] : [];
  return [`${error.name}: ${error.message}`, ...place, ...lines.filter((line) => /^\s+at /.test(line))].join("\n");
}

export function reportInternalErrors(): void {
  const marks = process as unknown as Record<symbol, boolean | undefined>;
  if (marks[INSTALLED] === true) return;
  marks[INSTALLED] = true;
  process.on("uncaughtException", (error) => {
    try {
      writeSync(2, `pi-recipes: internal error: ${described(error)}\n`);
    } finally {
      process.exit(1);
    }
  });
}
