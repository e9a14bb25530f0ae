// The JSON schema of a tool's parameters as the agent sees it: one property per argument of the
// surface, typed by its declaration, with the required names listed. The compile step builds it
// once per tool (core/compile/tool.ts) and the tool value carries it to every host.
import type { Json, JsonObject } from "../model.js";
import { argTypeOf, type ArgSurface } from "../tool/tool-spec.js";
import { argSchemaProperty, typedArgValue } from "./arg-type.js";

/** The default a caller gets when it leaves `name` out: a tool-level default, else one written in
 * a declaration or inline; typed as the argument is. */
export function shownDefault(surface: ArgSurface, name: string): Json | undefined {
  const value = Object.hasOwn(surface.defaults, name) ? surface.defaults[name]
    : surface.declaredDefaults !== undefined && Object.hasOwn(surface.declaredDefaults, name) ? surface.declaredDefaults[name]
    : undefined;
  return value === undefined ? undefined : typedArgValue(argTypeOf(surface, name), value);
}

// Async tools accept these besides their own arguments; they steer the detached run, not the
// template. (A `transport_context` is still stripped from a call if given, but it is not offered:
// nothing here delivers follow-ups over another transport.)
const ASYNC_PROPERTIES: JsonObject = {
  run_id: { description: "Optional run id override for this async template recipe invocation.", type: "string" },
  correlation_id: { description: "Optional workflow correlation id preserved in terminal follow-up delivery.", type: "string" },
};

export function parametersSchema(surface: ArgSurface, options: { readonly async: boolean }): JsonObject {
  const properties: Record<string, Json> = {};
  const { descriptions } = surface;
  for (let i = 0; i < surface.names.length; i++) {
    const name = surface.names[i]!;
    const base = argSchemaProperty(name, argTypeOf(surface, name));
    const description = descriptions !== undefined && Object.hasOwn(descriptions, name) ? descriptions[name] : undefined;
    const dflt = shownDefault(surface, name);
    let value: JsonObject = base;
    // an argument with its own description or a default gets a copy of the shared property
    if (description !== undefined || dflt !== undefined) {
      const own: Record<string, Json> = { ...base };
      if (description !== undefined) own["description"] = description;
      if (dflt !== undefined) own["default"] = dflt;
      value = own;
    }
    // defineProperty: an argument called `__proto__` must stay an ordinary property
    if (name === "__proto__") Object.defineProperty(properties, name, { value, enumerable: true, writable: true, configurable: true });
    else properties[name] = value;
  }
  // the async run strips these from the call, so their meaning here is always the async one
  if (options.async) Object.assign(properties, ASYNC_PROPERTIES);
  return { additionalProperties: false, properties, required: surface.required.slice(), type: "object" };
}
