// The register_tool parameter schema a host shows the agent (registry-reference §5.1, G113),
// with the co-located recipe fields this registry also accepts.
import type { JsonObject } from "../model.js";

const numberOrString = { anyOf: [{ type: "number" }, { type: "string" }] };
const anyTemplate = { anyOf: [{ type: "string" }, { type: "object", additionalProperties: true }, { type: "array", items: {} }] };

export const REGISTER_TOOL_PARAMETERS: JsonObject = {
  type: "object",
  properties: {
    args: { type: "string", description: 'Argument declarations, e.g. "file:path,lang=ru"; defaults move to "defaults" when stored.' },
    async: { type: "boolean", description: "true: the tool starts a detached run (co-located recipe)." },
    description: { type: "string", description: "Tool description (required unless deleting)." },
    draft: { type: "string", description: "Promote this draft (a path under the recipe root's drafts folder)." },
    name: { type: "string", description: "Tool name; omit to list the registered tools." },
    template: {
      anyOf: [{ type: "string" }, { type: "object", additionalProperties: true }, { type: "array", items: {} }, { type: "null" }],
      description: "Command template, sequence or object; null or blank deletes the tool; omit on update to keep it.",
    },
    update: { type: "boolean", description: "Overwrite an existing tool; fields not given are kept." },
    values: { type: "object", additionalProperties: true, description: "Runtime values of a co-located (async) recipe." },
    imports: { type: "object", additionalProperties: true },
    defaults: { type: "object", additionalProperties: true },
    disabled: { type: "boolean" },
    parallel: { type: "boolean" },
    concurrency: numberOrString,
    min_successful: numberOrString,
    timeout: numberOrString,
    delay: numberOrString,
    retry: numberOrString,
    repeat: numberOrString,
    label: { type: "string" },
    when: { anyOf: [{ type: "string" }, { type: "boolean" }] },
    accept_output: { type: "string", enum: ["review_evidence"] },
    output: { type: "string" },
    failure: { type: "string", enum: ["continue", "branch", "root"] },
    recover: anyTemplate,
    artifacts: { type: "object", additionalProperties: { type: "string" } },
    mailbox: { type: "object", additionalProperties: true },
    retire_when: { type: "string", enum: ["children_terminal"] },
    actor_context: { anyOf: [{ type: "boolean", enum: [false] }, { type: "string", enum: ["off"] }] },
  },
  required: [],
  additionalProperties: false,
};
