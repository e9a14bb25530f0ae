// Which `inspect` answers the view cache keeps (runtime/view-cache.ts), and the key a kept answer
// is for: its own module, so that the inspect verb can ask without loading the cache.

/** the targets `inspect` takes, as its errors name them (the verb's and the command line's) */
export const INSPECT_TARGETS = "target=recipes, target=tool:<name> or target=run:<id>";

/** how the answer is printed: the `--json` object, or the text */
export type ViewOut = "json" | "text";

/** The command a kept answer is for. */
export interface ViewKey {
  /** the command's key=value arguments, sorted by key */
  readonly params: string;
  /** PI_RECIPES_SANDBOX as the command saw it */
  readonly sandbox: string | null;
  readonly out: ViewOut;
}

const VIEWS: readonly string[] = ["status", "summary", "doctor", "imports"];
const KEYS: readonly string[] = ["target", "view", "verbose"];

/** The key of an `inspect` whose answer may be kept; undefined for any other (another target, the
 *  reviews view, an argument the views do not take). */
export function viewKey(params: Readonly<Record<string, unknown>>, env: Readonly<Record<string, string | undefined>>, out: ViewOut): ViewKey | undefined {
  const keys = Object.keys(params).sort();
  // `verbose=true` on the command line is the value true (values that parse as JSON are JSON)
  if (!keys.every((k) => KEYS.includes(k) && (typeof params[k] === "string" || (k === "verbose" && typeof params[k] === "boolean")))) return undefined;
  if (params["target"] !== "recipes" && params["target"] !== "recipe-registry") return undefined;
  if (!VIEWS.includes((params["view"] as string | undefined) ?? "status")) return undefined;
  return { params: JSON.stringify(keys.map((k) => [k, params[k]])), sandbox: env["PI_RECIPES_SANDBOX"] ?? null, out };
}

