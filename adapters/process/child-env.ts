// What a child of the runtime inherits: the environment it was given (the parent's, when none
// was) less the variables that only the runtime itself may read. The HTTP server's bearer token
// is one of them: a recipe that prints its environment (`env`) would otherwise hand the token to
// whoever calls it, over the very server the token guards. The rule holds for every child the
// runtime starts: a recipe's commands (sandboxed or not, in the foreground or in an async run),
// the async run's supervisor and worker, and a review's reviewer.

/** The variable that holds the HTTP server's bearer token. */
export const TOKEN_ENV = "PI_RECIPES_MCP_TOKEN";
/** The variable that names a file holding that token. */
export const TOKEN_FILE_ENV = "PI_RECIPES_MCP_TOKEN_FILE";

/** Never passed on to a child. */
export const WITHHELD_FROM_CHILDREN: readonly string[] = [TOKEN_ENV, TOKEN_FILE_ENV];

/** `env` (the parent's, when absent) without the withheld variables, as spawn takes it. */
export function childEnvironment(env: Readonly<Record<string, string | undefined>> = process.env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined && !WITHHELD_FROM_CHILDREN.includes(name)) out[name] = value;
  return out;
}
