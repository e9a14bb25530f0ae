// Generators of well-formed recipes: every sample is a recipe an author could have written and
// that must load. Each comes with what loading it must give back, so a property can assert on
// the loaded config instead of skipping the samples that happened not to load.
import { fc } from "@fast-check/vitest";
import type { Json, JsonObject } from "../../core/model.js";

/** one declared argument: its declaration text and a default that fits its type, if any */
export interface ArgSample {
  readonly name: string;
  readonly declaration: string;
  readonly default?: Json;
}

export interface RecipeSample {
  readonly description: string;
  readonly args: readonly ArgSample[];
  readonly async?: boolean;
  readonly timeout?: number;
  /** the command text; uses every declared argument once */
  readonly template: string;
}

const word = fc.stringMatching(/^[a-z][a-z0-9]{0,7}$/);
const argName = fc.stringMatching(/^[a-z][a-z0-9_]{0,9}$/);

const typed: fc.Arbitrary<{ type: string; value: fc.Arbitrary<Json> }> = fc.constantFrom(
  { type: "", value: word as fc.Arbitrary<Json> },
  { type: "string", value: word as fc.Arbitrary<Json> },
  { type: "path", value: word.map((w) => `./${w}`) as fc.Arbitrary<Json> },
  { type: "int", value: fc.integer({ min: -1000, max: 1000 }) as fc.Arbitrary<Json> },
  { type: "number", value: fc.integer({ min: 0, max: 99 }).map((n) => n + 0.5) as fc.Arbitrary<Json> },
  { type: "bool", value: fc.boolean() as fc.Arbitrary<Json> },
  { type: "enum(check,fix)", value: fc.constantFrom<Json>("check", "fix") },
);

const argSample = (name: string): fc.Arbitrary<ArgSample> =>
  typed.chain(({ type, value }) =>
    fc.option(value, { nil: undefined }).map((d) => ({
      name,
      declaration: type === "" ? name : `${name}:${type}`,
      ...(d === undefined ? {} : { default: d }),
    })),
  );

export const recipeSample: fc.Arbitrary<RecipeSample> = fc
  .record({
    description: fc.array(word, { minLength: 1, maxLength: 6 }).map((ws) => ws.join(" ")),
    names: fc.uniqueArray(argName, { maxLength: 4 }),
    async: fc.option(fc.boolean(), { nil: undefined }),
    timeout: fc.option(fc.integer({ min: 1, max: 3600 }), { nil: undefined }),
    command: fc.constantFrom("echo", "printf '%s\\n'", "wc -w", "ls"),
  })
  .chain(({ description, names, async, timeout, command }) =>
    fc.tuple(...names.map(argSample)).map((args) => ({
      description,
      args,
      ...(async === undefined ? {} : { async }),
      ...(timeout === undefined ? {} : { timeout }),
      template: [command, ...args.map((a) => `{${a.name}}`)].join(" "),
    })),
  );

export const defaultsOf = (s: RecipeSample): JsonObject | undefined => {
  const entries = s.args.flatMap((a) => (a.default === undefined ? [] : [[a.name, a.default] as const]));
  return entries.length === 0 ? undefined : Object.fromEntries(entries);
};

/** The JSON recipe object of a sample. */
export function jsonRecipe(s: RecipeSample): JsonObject {
  const defaults = defaultsOf(s);
  return {
    description: s.description,
    ...(s.args.length === 0 ? {} : { args: s.args.map((a) => a.declaration) }),
    ...(defaults === undefined ? {} : { defaults }),
    ...(s.async === undefined ? {} : { async: s.async }),
    ...(s.timeout === undefined ? {} : { timeout: s.timeout }),
    template: s.template,
  };
}

const scalar = (v: Json): string => (typeof v === "string" ? JSON.stringify(v) : String(v));

/** The Markdown recipe text of a sample: frontmatter, prose, the template fence. */
export function markdownRecipe(s: RecipeSample, eol: "\n" | "\r\n" = "\n"): string {
  const defaults = defaultsOf(s);
  const lines = ["---", `description: ${s.description}`];
  if (s.args.length > 0) lines.push("args:", ...s.args.map((a) => `  - ${a.declaration}`));
  if (defaults !== undefined) lines.push("defaults:", ...Object.entries(defaults).map(([k, v]) => `  ${k}: ${scalar(v)}`));
  if (s.async !== undefined) lines.push(`async: ${s.async}`);
  if (s.timeout !== undefined) lines.push(`timeout: ${s.timeout}`);
  lines.push("---", "", `# ${s.description}`, "", "Prose around the fence is documentation.", "", "```template", s.template, "```", "");
  return lines.join(eol);
}
