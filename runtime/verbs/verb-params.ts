// Checking verb parameters: unknown keys and wrong types are errors that name the argument.
import { failure, type CommandResult } from "../../core/result.js";
import { didYouMean } from "../../core/suggest.js";

export type Params = Readonly<Record<string, unknown>>;

export function unknownKeys(verb: string, params: Params, allowed: readonly string[]): CommandResult | undefined {
  const extra = Object.keys(params).filter((k) => !allowed.includes(k));
  if (extra.length === 0) return undefined;
  const near = extra.length === 1 ? didYouMean(extra[0]!, allowed) : "";
  const offered = allowed.length === 0 ? `${verb} takes no arguments.` : `allowed: ${allowed.join(", ")}.`;
  return failure(`${verb} does not accept ${extra.map((k) => `"${k}"`).join(", ")}; ${offered}${near}`, {
    unknown_arguments: extra,
  });
}

export function optionalString(params: Params, key: string): string | undefined | { error: string } {
  const v = params[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v === "string") return v;
  return { error: `argument "${key}" must be a string` };
}

export function optionalBool(params: Params, key: string): boolean | undefined | { error: string } {
  const v = params[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v === "boolean") return v;
  if (v === "true" || v === "false") return v === "true";
  return { error: `argument "${key}" must be true or false` };
}

export const isError = (v: unknown): v is { error: string } => typeof v === "object" && v !== null && "error" in v;
