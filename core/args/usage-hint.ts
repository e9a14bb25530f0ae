// The usage hint appended to argument errors of tool calls: the error, then an example call with
// every argument, then which are required and which optional.
import type { Json } from "../model.js";
import { argTypeOf, type ArgSurface } from "../tool/tool-spec.js";
import { sampleArgValue } from "./arg-type.js";
import { shownDefault } from "./parameters-schema.js";


/** The example call: required names first, then optional ones, each with the tool's default or a
 * sample of its type; async tools also show `run_id`. */
export function exampleCall(tool: string, surface: ArgSurface, options: { readonly async: boolean }): Record<string, Json> {
  // a Set keeps the first place of each name; fromEntries makes even `__proto__` an own key
  const names = new Set([...surface.required, ...surface.names]);
  const example: Record<string, Json> = Object.fromEntries(
    [...names].map((name) => [name, shownDefault(surface, name) ?? sampleArgValue(name, argTypeOf(surface, name))]),
  );
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
