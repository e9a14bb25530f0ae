// The register_tool parameter schema every host shows the agent: register_tool's own parameters,
// then the recipe fields the field table (core/recipe/fields.ts) offers, each with its schema.
import type { Json, JsonObject } from "../model.js";
import { OFFERED_FIELDS } from "../recipe/fields.js";

const VERB_PARAM_SCHEMAS: readonly (readonly [string, JsonObject])[] = [
  ["name", { type: "string", description: "Tool name; omit to list the registered tools." }],
  ["draft", { type: "string", description: "Promote this draft (a path under the recipe root's drafts folder)." }],
  ["update", { type: "boolean", description: "Overwrite an existing tool; fields not given are kept." }],
];

const properties: Record<string, Json> = {};
for (const [name, schema] of [...VERB_PARAM_SCHEMAS, ...OFFERED_FIELDS]) properties[name] = schema;

export const REGISTER_TOOL_PARAMETERS: JsonObject = {
  type: "object",
  properties,
  required: [],
  additionalProperties: false,
};
