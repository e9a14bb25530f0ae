// The usage hint appended to argument errors of tool calls (registry-reference §3.11).
import type { Json } from "../model.js";
import type { ArgSurface } from "../discovery/types.js";
import { sampleArgValue } from "./arg-type.js";
import { shownDefault } from "./schema.js";

const ARGUMENT_ERROR = /^\s*Argument \S+ must /;
const MISSING_VALUE = /^\s*Missing .+ value: /s;

/** Errors a caller can fix by changing the call: typed normalization and unresolved values. */
export const isArgumentError = (message: string): boolean => ARGUMENT_ERROR.test(message) || MISSING_VALUE.test(message);

/** The example call: required names first, then optional ones, each with the tool's default or a
 * sample of its type; async tools also show `run_id`. */
export function exampleCall(tool: string, surface: ArgSurface, options: { readonly async: boolean }): Record<string, Json> {
  const optional = surface.names.filter((n) => !surface.required.includes(n));
  const example: Record<string, Json> = {};
  for (const name of [...surface.required, ...optional]) {
    const value = shownDefault(surface, name);
    Object.defineProperty(example, name, {
      value: value ?? sampleArgValue(name, surface.types.get(name)),
      enumerable: true, writable: true, configurable: true,
    });
  }
  if (options.async) example["run_id"] = `${tool}-1`;
  return example;
}

export function formatUsageHint(tool: string, surface: ArgSurface, message: string, options: { readonly async: boolean }): string {
  const optional = surface.names.filter((n) => !surface.required.includes(n));
  if (options.async) optional.push("run_id");
  const lines = [
    `Invalid arguments for tool "${tool}": ${message}`,
    "",
    `Expected call shape for ${tool}:`,
    `${tool}(${JSON.stringify(exampleCall(tool, surface, options), null, 2)})`,
  ];
  if (surface.required.length > 0) lines.push(`Required: ${surface.required.join(", ")}`);
  if (optional.length > 0) lines.push(`Optional: ${optional.join(", ")}`);
  return lines.join("\n");
}
