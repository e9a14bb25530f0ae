// The call-time checks that come before typed normalization: every given name must be one the
// tool takes (a typo like `fiel` would otherwise surface later as a missing `file`), and an
// object given where text is expected is refused rather than becoming `[object Object]`.
import { argTypeOf, type ArgSurface } from "../tool/tool-spec.js";
import { eachPlaceholder } from "../template/placeholder.js";
import { didYouMean } from "../suggest.js";

/** Parameters that steer an async run rather than fill the template. */
export const RUN_PARAMS: readonly string[] = ["run_id", "correlation_id", "transport_context"];

const IDENTIFIER = /[A-Za-z_][A-Za-z0-9_-]*/g;

/** Every name a template text could read: the surface names plus anything named inside braces
 * (`{items[0]}`, `{n.length}` read names that are not published as arguments). */
export function readableNames(texts: Iterable<string>, surface: Pick<ArgSurface, "names">, extra: Iterable<string> = []): Set<string> {
  const names = new Set<string>([...surface.names, ...extra]);
  for (const text of texts) {
    eachPlaceholder(text, (content) => {
      for (const m of content.matchAll(IDENTIFIER)) names.add(m[0]);
      return undefined;
    });
  }
  return names;
}

const takesText = (surface: Pick<ArgSurface, "types">, name: string): boolean => {
  const kind = argTypeOf(surface, name)?.kind;
  return kind === undefined || kind === "string" || kind === "path" || kind === "enum";
};

/** The first problem with the call's own parameters, in their order, or undefined. */
export function checkCallParams(
  params: Readonly<Record<string, unknown>>,
  surface: Pick<ArgSurface, "names" | "types">,
  known: ReadonlySet<string>,
  options: { readonly async: boolean },
): string | undefined {
  for (const name of Object.keys(params)) {
    if (options.async && RUN_PARAMS.includes(name)) continue;
    if (!known.has(name)) {
      const offered = options.async ? [...surface.names, "run_id"] : surface.names;
      return `Unknown argument "${name}".${didYouMean(name, offered)}`;
    }
    const value = params[name];
    if (typeof value === "object" && value !== null && !Array.isArray(value) && takesText(surface, name)) {
      return `Argument ${name} must be a string.`;
    }
  }
  return undefined;
}
