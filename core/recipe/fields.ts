// The recipe-field table (RECIPE_FIELDS) and the JSON checks decoding uses. Each field has one
// io-ts codec; a mistyped field makes the recipe invalid with a message naming the field and its
// location, rather than being dropped silently (which would turn a typo into a recipe that
// behaves differently from what was written). docs/recipes.md describes the fields.
import * as t from "io-ts";
import type { Json, JsonObject } from "../json.js";
import { isSandboxField, SANDBOX_EXPECTED, type SandboxField } from "../sandbox/field.js";

/** Deeper nesting than this is refused up front, so no later recursive walk can exhaust the stack. */
export const MAX_JSON_DEPTH = 512;

export const hasOwn = (o: object, key: string): boolean => Object.prototype.hasOwnProperty.call(o, key);

export function isPlainObject(u: unknown): u is Readonly<Record<string, unknown>> {
  if (typeof u !== "object" || u === null || Array.isArray(u)) return false;
  const proto: unknown = Object.getPrototypeOf(u);
  return proto === Object.prototype || proto === null;
}

export interface JsonFault {
  /** path segments from the checked value down to the fault */
  readonly at: readonly (string | number)[];
  readonly reason: "not-json" | "too-deep";
  readonly value: unknown;
}

/** Where `u` stops being plain JSON data (or nests too deep; this also catches cycles), if anywhere. */
export function jsonFault(u: unknown, depth = 0): JsonFault | undefined {
  if (u === null || typeof u === "string" || typeof u === "boolean") return undefined;
  if (typeof u === "number") return Number.isFinite(u) ? undefined : { at: [], reason: "not-json", value: u };
  if (depth >= MAX_JSON_DEPTH) return { at: [], reason: "too-deep", value: u };
  if (Array.isArray(u)) {
    for (let i = 0; i < u.length; i++) {
      const inner = jsonFault(u[i], depth + 1);
      if (inner !== undefined) return { ...inner, at: [i, ...inner.at] };
    }
    return undefined;
  }
  if (!isPlainObject(u)) return { at: [], reason: "not-json", value: u };
  for (const key of Object.keys(u)) {
    const inner = jsonFault(u[key], depth + 1);
    if (inner !== undefined) return { ...inner, at: [key, ...inner.at] };
  }
  return undefined;
}

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

export function formatPath(root: string, segments: readonly (string | number)[]): string {
  let out = root;
  for (const s of segments) {
    if (typeof s === "number") out += `[${s}]`;
    else out += IDENT.test(s) ? `.${s}` : `[${JSON.stringify(s)}]`;
  }
  return out;
}

/** A short name for what was found, for "(got ...)" messages. */
export function kindOf(u: unknown): string {
  if (u === null) return "null";
  if (Array.isArray(u)) return "array";
  if (typeof u === "object") return isPlainObject(u) ? "object" : "non-JSON object";
  return typeof u;
}

const refine = <A>(name: string, is: (u: unknown) => u is A): t.Type<A, A, unknown> =>
  new t.Type<A, A, unknown>(name, is, (u, c) => (is(u) ? t.success(u) : t.failure(u, c)), t.identity);

export const jsonValue = refine<Json>("Json", (u): u is Json => jsonFault(u) === undefined);
export const jsonObject = refine<JsonObject>("JsonObject", (u): u is JsonObject => isPlainObject(u) && jsonFault(u) === undefined);

const numberOrString = t.union([t.number, t.string]);
const mailboxEntries = t.readonlyArray(t.union([t.string, t.type({ type: t.string })]));

/** How register_tool takes a field: `param`, a parameter with handling of its own (see
 * core/register/params.ts); `colocated`, written into the stored recipe as given. */
export type RegisterRole = "param" | "colocated";

/** One row of the recipe-field table. */
export interface FieldSpec<A> {
  readonly codec: t.Type<A, unknown, unknown>;
  /** the codec's guard for a value already known to be plain JSON data (the whole recipe passed
   * jsonFault): the same answer without walking the value for JSON a second time */
  readonly checked?: (u: unknown) => boolean;
  /** completes `field "x" must be ...` */
  readonly expected: string;
  /** show a primitive offending value itself rather than its kind (enumerations) */
  readonly quoteGot?: boolean;
  /** a command-template control: given at top level, it is copied into the template envelope,
   * at this position among the controls */
  readonly envelope?: number;
  /** part of what a call runs; the executable fingerprint covers exactly these fields */
  readonly executable: boolean;
  /** a recipe that delegates to another as a whole takes this field from its target when it
   * does not set it itself */
  readonly inherited?: boolean;
  /** how register_tool takes it; absent: register_tool never writes it */
  readonly register?: RegisterRole;
  /** the JSON schema offered to agents in register_tool's parameters. Absent: still read from
   * stored recipes (and kept by an update), but not offered, because nothing in this product
   * acts on it. */
  readonly schema?: JsonObject;
  /** what the decoded config keeps of an accepted value: absent keeps it as written; `undefined`
   * leaves the field out (a blank description, an empty `imports` or `defaults`) */
  readonly kept?: (value: A) => A | undefined;
}

type Row<A> = Omit<FieldSpec<A>, "codec" | "expected">;

const anyJson = (): boolean => true;
const isTemplate = (u: unknown): boolean => typeof u === "string" || Array.isArray(u) || isPlainObject(u);

const row = <A>(codec: t.Type<A, unknown, unknown>, expected: string, more: Row<A>): FieldSpec<A> => ({ codec, expected, ...more });

const trimmedText = (text: string): string | undefined => {
  const trimmed = text.trim();
  return trimmed === "" ? undefined : trimmed;
};
const nonEmptyObject = (o: JsonObject): JsonObject | undefined => (Object.keys(o).length === 0 ? undefined : o);

const NUMBER_OR_STRING: JsonObject = { anyOf: [{ type: "number" }, { type: "string" }] };
const ANY_TEMPLATE: JsonObject = { anyOf: [{ type: "string" }, { type: "object", additionalProperties: true }, { type: "array", items: {} }] };
const ANY_OBJECT: JsonObject = { type: "object", additionalProperties: true };

/**
 * The recipe fields: every field a recipe file may hold, in the order decoding reports the first
 * mistyped one, which is also the key order of a decoded config (after `name`, before `raw`) and
 * the order register_tool writes and offers them in. The TypeScript type of a decoded recipe (`FieldValues`), the template envelope's
 * keys, the executable fingerprint's field set, the co-located fields register_tool accepts and
 * the register_tool parameter schema are all derived from this table.
 */
export const RECIPE_FIELDS = {
  template: row(t.union([t.string, t.readonlyArray(jsonValue), jsonObject]), "a non-empty command string, sequence or object", {
    checked: isTemplate,
    executable: true,
    register: "param",
    schema: {
      anyOf: [{ type: "string" }, { type: "object", additionalProperties: true }, { type: "array", items: {} }, { type: "null" }],
      description: "Command template, sequence or object; null deletes the tool (a blank string is refused); omit on update to keep it.",
    },
  }),
  description: row(t.string, "a string", { kept: trimmedText, executable: false, inherited: true, register: "param", schema: { type: "string", description: "Tool description (required unless deleting)." } }),
  // whether the tool is offered, not what a call runs: switching it off and on again is no
  // revision, and a disabled tool renamed by hand is still followed by its content
  disabled: row(t.boolean, "a boolean", { executable: false, inherited: true, register: "colocated", schema: { type: "boolean" } }),
  async: row(t.boolean, "a boolean", {
    executable: true,
    inherited: true,
    register: "param",
    schema: { type: "boolean", description: "true: the tool starts a detached run (co-located recipe)." },
  }),
  imports: row(jsonObject, "an object", { checked: isPlainObject, kept: nonEmptyObject, executable: true, register: "colocated", schema: ANY_OBJECT }),
  args: row(t.readonlyArray(t.string), "an array of strings", {
    envelope: 0,
    executable: true,
    inherited: true,
    register: "param",
    schema: { type: "string", description: 'Argument declarations, e.g. "file:path,lang=ru"; defaults move to "defaults" when stored.' },
  }),
  // what each argument means, by name: becomes the argument's description in the tool schema
  arg_descriptions: row(t.record(t.string, t.string), "an object of strings", {
    executable: false,
    inherited: true,
    register: "colocated",
    schema: { type: "object", additionalProperties: { type: "string" }, description: "What each argument means, by name (shown to agents as the argument's description)." },
  }),
  defaults: row(jsonObject, "an object", { checked: isPlainObject, kept: nonEmptyObject, envelope: 1, executable: true, register: "colocated", schema: ANY_OBJECT }),
  values: row(jsonObject, "an object", {
    checked: isPlainObject,
    executable: true,
    register: "param",
    schema: { type: "object", additionalProperties: true, description: "Runtime values of a co-located (async) recipe." },
  }),
  parallel: row(t.boolean, "a boolean", { envelope: 2, executable: true, register: "colocated", schema: { type: "boolean" } }),
  concurrency: row(numberOrString, "a number or a string", { envelope: 3, executable: true, register: "colocated", schema: NUMBER_OR_STRING }),
  min_successful: row(numberOrString, "a number or a string", { envelope: 4, executable: true, register: "colocated", schema: NUMBER_OR_STRING }),
  timeout: row(numberOrString, "a number or a string", { envelope: 7, executable: true, register: "colocated", schema: NUMBER_OR_STRING }),
  delay: row(numberOrString, "a number or a string", { envelope: 8, executable: true, register: "colocated", schema: NUMBER_OR_STRING }),
  retry: row(numberOrString, "a number or a string", { envelope: 11, executable: true, register: "colocated", schema: NUMBER_OR_STRING }),
  label: row(t.string, "a string", { envelope: 5, executable: true, register: "colocated", schema: { type: "string" } }),
  when: row(t.union([t.string, t.boolean]), "a string or a boolean", {
    envelope: 6, executable: true, register: "colocated", schema: { anyOf: [{ type: "string" }, { type: "boolean" }] },
  }),
  accept_output: row(t.literal("review_evidence"), `"review_evidence"`, {
    quoteGot: true, envelope: 9, executable: true, register: "colocated", schema: { type: "string", enum: ["review_evidence"] },
  }),
  output: row(t.string, "a string", { envelope: 10, executable: true, register: "colocated", schema: { type: "string" } }),
  failure: row(t.keyof({ continue: null, branch: null, root: null }), `one of "continue", "branch", "root"`, {
    quoteGot: true, envelope: 12, executable: true, register: "colocated", schema: { type: "string", enum: ["continue", "branch", "root"] },
  }),
  recover: row(jsonValue, "a command template", { checked: anyJson, envelope: 13, executable: true, register: "colocated", schema: ANY_TEMPLATE }),
  repeat: row(numberOrString, "a number or a string", { envelope: 14, executable: true, register: "colocated", schema: NUMBER_OR_STRING }),
  // kept as written, passed along by imports and delegation, but acted on by nothing here
  artifacts: row(t.record(t.string, t.string), "an object of strings", { executable: true, inherited: true, register: "colocated" }),
  mailbox: row(
    t.intersection([jsonObject, t.partial({ accepts: mailboxEntries, emits: mailboxEntries })]),
    "an object whose accepts/emits are arrays of strings or of objects with a string type",
    { executable: true, inherited: true, register: "colocated" },
  ),
  retire_when: row(t.literal("children_terminal"), `"children_terminal"`, { quoteGot: true, executable: true, inherited: true, register: "colocated" }),
  usage: row(jsonObject, "an object", { checked: isPlainObject, executable: false }),
  actor_context: row(t.union([t.literal(false), t.literal("off")]), `false or "off"`, { quoteGot: true, executable: true, register: "colocated" }),
  // what the recipe's commands may touch, enforced by the operating system (docs/sandbox.md)
  sandbox: row(refine<SandboxField>("Sandbox", isSandboxField), SANDBOX_EXPECTED, {
    executable: true,
    inherited: true,
    register: "colocated",
    schema: {
      anyOf: [
        { type: "boolean" },
        {
          type: "object",
          additionalProperties: false,
          properties: {
            network: { type: "boolean" },
            write: { type: "array", items: { type: "string" } },
            read_deny: { type: "array", items: { type: "string" } },
          },
        },
      ],
      description:
        'Confine the commands: true = no network, writes only under the working directory; or {"network": false, "write": [".", "{out}"], "read_deny": ["~/.ssh"]}.',
    },
  }),
};

export type FieldName = keyof typeof RECIPE_FIELDS;
export type FieldValues = { -readonly [K in FieldName]?: (typeof RECIPE_FIELDS)[K] extends FieldSpec<infer A> ? A : never };
export const FIELD_ORDER = Object.keys(RECIPE_FIELDS) as FieldName[];

/** Each field's name as a constant of its own literal type, for code that must name a field
 * (`node[FIELD.when]`, `resolveNumericControl(FIELD.delay, ...)`): a field name is written as a
 * string only in the table above, so renaming or removing a row breaks every use at compile time
 * (test/architecture/field-names.test.ts keeps it so). */
export const FIELD: { readonly [K in FieldName]: K } = Object.freeze(Object.fromEntries(FIELD_ORDER.map((k) => [k, k])) as { [K in FieldName]: K });

/** The keys of a decoded or resolved config, in their order: `name`, the table's, `raw`. */
export const CONFIG_KEYS: readonly string[] = ["name", ...FIELD_ORDER, "raw"];

const rowOf = (name: FieldName): FieldSpec<unknown> => RECIPE_FIELDS[name] as FieldSpec<unknown>;

/** Top-level keys that are command-template controls, in the order they are copied into the envelope. */
export const ENVELOPE_KEYS: readonly FieldName[] = FIELD_ORDER
  .filter((k) => rowOf(k).envelope !== undefined)
  .sort((a, b) => rowOf(a).envelope! - rowOf(b).envelope!);

/** Fields a wrapper inherits from the recipe it delegates to when it does not set them itself. */
export const INHERITED_FIELDS: readonly FieldName[] = FIELD_ORDER.filter((k) => rowOf(k).inherited === true);

/** Recipe fields register_tool writes into the stored recipe as given, in table order. */
export const COLOCATED_FIELDS: readonly FieldName[] = FIELD_ORDER.filter((k) => rowOf(k).register === "colocated");

/** Fields of a decoded recipe that do not change what a call runs: they describe the tool. */
export const NOT_EXECUTABLE_FIELDS: ReadonlySet<string> = new Set(["name", "raw", ...FIELD_ORDER.filter((k) => !rowOf(k).executable)]);

/** The fields register_tool offers agents, each with its JSON schema, in table order. */
export const OFFERED_FIELDS: readonly (readonly [FieldName, JsonObject])[] = FIELD_ORDER.flatMap((k) => {
  const { register, schema } = rowOf(k);
  return register !== undefined && schema !== undefined ? [[k, schema] as const] : [];
});

/** Tags of io-ts codecs whose context entries name a member rather than a location. */
const MEMBER_TAGS = new Set(["UnionType", "IntersectionType"]);
const INDEX_TAGS = new Set(["ArrayType", "ReadonlyArrayType"]);
const tagOf = (d: t.Decoder<unknown, unknown>): string | undefined => (d as { readonly _tag?: string })._tag;

/** The deepest failure of a decode, as a path below `field` and the value found there. */
export function locateFailure(field: string, errors: t.Errors): { path: string; value: unknown } {
  let best: t.ValidationError | undefined;
  for (const e of errors) if (best === undefined || e.context.length > best.context.length) best = e;
  if (best === undefined) return { path: field, value: undefined };
  const segments: (string | number)[] = [];
  for (let i = 1; i < best.context.length; i++) {
    const parent = best.context[i - 1];
    const entry = best.context[i];
    if (parent === undefined || entry === undefined) continue;
    const tag = tagOf(parent.type);
    if (tag !== undefined && MEMBER_TAGS.has(tag)) continue;
    segments.push(tag !== undefined && INDEX_TAGS.has(tag) ? Number(entry.key) : entry.key);
  }
  return { path: formatPath(field, segments), value: best.value };
}

const MAX_SHOWN = 40;

/** `(got string)`, `(got "stop")`, `(got number at mailbox.accepts[0])`. */
export function gotText(field: string, path: string, value: unknown, quote: boolean): string {
  let shown = kindOf(value);
  if (quote && (typeof value === "string" || typeof value === "number" || typeof value === "boolean")) {
    const text = JSON.stringify(value);
    shown = text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}…` : text;
  }
  return path === field ? `(got ${shown})` : `(got ${shown} at ${path})`;
}
