// The JSON schema of a tool's parameters as the agent sees it: one property per argument of the
// surface, typed by its declaration, with the required names listed.
import type { Json, JsonObject } from "../model.js";
import { argTypeOf, type ArgSurface } from "../discovery/types.js";
import { argSchemaProperty } from "./arg-type.js";

// Async tools accept these besides their own arguments; they steer the detached run, not the
// template. (A `transport_context` is still stripped from a call if given, but it is not offered:
// nothing here delivers follow-ups over another transport.)
const ASYNC_PROPERTIES: JsonObject = {
  run_id: { description: "Optional run id override for this async template recipe invocation.", type: "string" },
  correlation_id: { description: "Optional workflow correlation id preserved in terminal follow-up delivery.", type: "string" },
};

export function parametersSchema(surface: ArgSurface, options: { readonly async: boolean }): JsonObject {
  const properties: Record<string, Json> = {};
  for (const name of surface.names) {
    const value = argSchemaProperty(name, argTypeOf(surface, name));
    // defineProperty: an argument called `__proto__` must stay an ordinary property
    if (name === "__proto__") Object.defineProperty(properties, name, { value, enumerable: true, writable: true, configurable: true });
    else properties[name] = value;
  }
  // the async run strips these from the call, so their meaning here is always the async one
  if (options.async) Object.assign(properties, ASYNC_PROPERTIES);
  return { additionalProperties: false, properties, required: [...surface.required], type: "object" };
}
