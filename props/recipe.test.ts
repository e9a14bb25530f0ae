import { fc, test } from "@fast-check/vitest";
import * as E from "fp-ts/lib/Either.js";
import { describe, expect } from "vitest";
import type { Json, RecipeConfig, RecipeFormat, RecipeProblem, SnapshotFile } from "../core/model.js";
import { decodeRecipeObject } from "../core/recipe/decode.js";
import { FIELD_ORDER } from "../core/recipe/fields.js";
import { loadRecipe as loadTagged } from "../core/recipe/load.js";
import { recipeProblem } from "../core/recipe/recipe-error.js";
import { defaultsOf, jsonRecipe, markdownRecipe, recipeSample, type RecipeSample } from "./support/recipes.js";

const PATH = "/agent/recipes/p.json";
const fileOf = (bytes: Uint8Array): SnapshotFile => ({ path: PATH, size: bytes.length, mtimeMs: 0, birthtimeMs: 0, bytes });
const encode = (text: string) => new TextEncoder().encode(text);
const format = fc.constantFrom<RecipeFormat>("json", "md");
const recipeName = fc.string({ minLength: 1, maxLength: 20 });

/** loadRecipe with its error as the problem a caller shows */
const loadRecipe = (...args: Parameters<typeof loadTagged>): E.Either<RecipeProblem, RecipeConfig> => E.mapLeft(recipeProblem)(loadTagged(...args));

/** The contract every caller relies on: a config carrying the given name, or a problem that says something. */
function wellFormed(result: E.Either<RecipeProblem, RecipeConfig>, name: string): void {
  if (E.isRight(result)) expect(result.right.name).toBe(name);
  else {
    expect(["invalid", "failed"]).toContain(result.left.kind);
    expect(typeof result.left.message).toBe("string");
    expect(result.left.message).not.toBe("");
  }
}

// values aimed at the edges of the field codecs and the template check
const edgeJson: fc.Arbitrary<Json> = fc.oneof(
  fc.constantFrom<Json>("", " ", "echo hi", "off", "review_evidence", "children_terminal", "branch", 0, -1, 1.5, 3, true, false, null, [], {}, [""], { template: "" }, { name: "child" }, { template: [] }, { repeat: 0, template: "x" }, { accepts: ["a", { type: 1 }] }),
  fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json>,
);
const knownKey = fc.constantFrom(...FIELD_ORDER, "name");
const recipeLike = fc.dictionary(fc.oneof(knownKey, fc.string({ maxLength: 6 })), edgeJson, { maxKeys: 8 });

const frontmatterLine = fc.oneof(
  fc.constantFrom("---", "", "# note", "template: echo fm", "args:", "  - a:int", "defaults:", "  x: 1", "  - k: v", "mailbox:", "  accepts:", "    - m", "async: true", "timeout: [1, 2]", " description: x", "description:", "repeat: 0"),
  fc.string({ maxLength: 20 }),
);
const fenceLine = fc.oneof(fc.constantFrom("```", "```template", "```json", "```json recipe", "```bash", "~~~", '{"template":"echo"}', "[]", '"x"', "echo {x}", "   "), fc.string({ maxLength: 20 }));
const markdownText = fc
  .tuple(fc.array(frontmatterLine, { maxLength: 10 }), fc.array(fenceLine, { maxLength: 10 }), fc.constantFrom("\n", "\r\n"))
  .map(([fm, body, eol]) => ["---", ...fm, "---", ...body].join(eol));

describe("loadRecipe never throws", () => {
  test.prop([fc.uint8Array({ maxLength: 512 }), format, recipeName])("for any bytes", (bytes, fmt, name) => {
    wellFormed(loadRecipe(fileOf(bytes), name, fmt), name);
  });

  test.prop([fc.jsonValue(), format, recipeName])("for any JSON value", (value, fmt, name) => {
    wellFormed(loadRecipe(fileOf(encode(JSON.stringify(value) ?? "")), name, fmt), name);
  });

  test.prop([recipeLike, recipeName])("for recipe-shaped objects", (raw, name) => {
    const result = loadRecipe(fileOf(encode(JSON.stringify(raw))), name, "json");
    wellFormed(result, name);
    // a named field is always one the file really has
    if (E.isLeft(result) && result.left.field !== undefined) expect(result.left.field === "template" || Object.hasOwn(raw, result.left.field)).toBe(true);
  });

  test.prop([markdownText, recipeName])("for Markdown-shaped text", (text, name) => {
    wellFormed(loadRecipe(fileOf(encode(text)), name, "md"), name);
  });

  test.prop([fc.string({ maxLength: 300 }), recipeName])("for any text as Markdown", (text, name) => {
    wellFormed(loadRecipe(fileOf(encode(text)), name, "md"), name);
  });

  test.prop([fc.anything(), recipeName])("decodeRecipeObject for anything at all", (raw, name) => {
    wellFormed(decodeRecipeObject(raw, PATH, name), name);
  });
});

/** The command text under the envelope that args, defaults and timeout put around it. */
const commandText = (template: Json): Json => {
  let t = template;
  while (t !== null && typeof t === "object" && !Array.isArray(t) && "template" in t) t = (t as { template: Json }).template;
  return t;
};

/** What loading a well-formed sample must give back, whatever its format. */
function expectLoaded(result: E.Either<RecipeProblem, RecipeConfig>, sample: RecipeSample, name: string): void {
  if (E.isLeft(result)) throw new Error(`a well-formed recipe did not load: ${result.left.message}`);
  const config = result.right;
  expect(config.name).toBe(name);
  expect(config.description).toBe(sample.description);
  expect(config.args).toEqual(sample.args.length === 0 ? undefined : sample.args.map((a) => a.declaration));
  expect(config.defaults).toEqual(defaultsOf(sample));
  expect(config.async).toBe(sample.async);
  expect(config.timeout).toBe(sample.timeout);
  expect(commandText(config.template)).toBe(sample.template);
}

describe("well-formed recipes load, with what was written", () => {
  test.prop([recipeSample, recipeName])("as JSON", (sample, name) => {
    expectLoaded(loadRecipe(fileOf(encode(JSON.stringify(jsonRecipe(sample)))), name, "json"), sample, name);
  });

  test.prop([recipeSample, fc.constantFrom<"\n" | "\r\n">("\n", "\r\n"), recipeName])("as Markdown", (sample, eol, name) => {
    expectLoaded(loadRecipe(fileOf(encode(markdownRecipe(sample, eol))), name, "md"), sample, name);
  });

  test.prop([recipeSample, recipeName])("the same recipe as JSON and as Markdown loads to the same config", (sample, name) => {
    const json = loadRecipe(fileOf(encode(JSON.stringify(jsonRecipe(sample)))), name, "json");
    const md = loadRecipe(fileOf(encode(markdownRecipe(sample))), name, "md");
    expect(E.isRight(json) && E.isRight(md)).toBe(true);
    if (E.isRight(json) && E.isRight(md)) expect({ ...md.right, raw: undefined }).toEqual({ ...json.right, raw: undefined });
  });
});

describe("loadRecipe keeps what was written", () => {
  // well-formed recipes with unknown keys beside the known ones: every sample loads, so the
  // assertions run on every sample
  const withExtras = fc.tuple(recipeSample, fc.dictionary(fc.stringMatching(/^x_[a-z]{1,6}$/), fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>, { maxKeys: 3 }));
  test.prop([withExtras, recipeName])("a loaded config keeps the parsed object as raw, and reloading raw gives the same config", ([sample, extras], name) => {
    const text = JSON.stringify({ ...extras, ...jsonRecipe(sample) });
    const result = loadRecipe(fileOf(encode(text)), name, "json");
    expectLoaded(result, sample, name);
    if (E.isLeft(result)) return;
    // the object as the file holds it (JSON has no -0, which the extras may contain)
    expect(result.right.raw).toEqual(JSON.parse(text));
    expect(decodeRecipeObject(result.right.raw, PATH, name)).toEqual(result);
  });

  const command = fc.string({ minLength: 1, maxLength: 20 }).filter((s) => s.trim() !== "");
  test.prop([command, fc.record({ description: fc.string(), async: fc.boolean(), timeout: fc.oneof(fc.integer(), fc.string()) }, { requiredKeys: [] }), recipeName])(
    "a well-typed recipe always loads, with its fields and the template envelope",
    (template, fields, name) => {
      const result = loadRecipe(fileOf(encode(JSON.stringify({ ...fields, template }))), name, "json");
      expect(E.isRight(result)).toBe(true);
      if (E.isLeft(result)) return;
      expect(result.right.async).toBe(fields.async);
      expect(result.right.template).toEqual(fields.timeout === undefined ? template : { timeout: fields.timeout, template });
    },
  );
});
