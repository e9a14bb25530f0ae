// Generators for argument types, valid values and declarations. The value generators are a table
// keyed by ArgType kind, so a new kind in core/args/arg-type.ts fails to compile here until it
// has a generator too.
import { fc } from "@fast-check/vitest";
import type { ArgType, Json } from "../../core/model.js";
import type { ArgKind } from "../../core/args/arg-type.js";

type TypeOf<K extends ArgKind> = Extract<ArgType, { readonly kind: K }>;

/** argument names, with a few that trip naive object handling */
export const argNameArb: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom("file", "mode", "lang", "n", "items", "out-dir", "_x", "constructor", "__proto__", "toString"),
  fc.stringMatching(/^[a-z_][a-z0-9_]{0,7}$/),
);

const enumValueArb = fc.stringMatching(/^[a-z0-9][a-z0-9_.-]{0,5}$/);

export const argTypeArb: fc.Arbitrary<ArgType> = fc.oneof(
  fc.constantFrom<ArgType>({ kind: "string" }, { kind: "path" }, { kind: "int" }, { kind: "number" }, { kind: "bool" }, { kind: "array" }),
  fc.uniqueArray(enumValueArb, { minLength: 1, maxLength: 4 }).map((values): ArgType => ({ kind: "enum", values })),
);

const pad = (a: fc.Arbitrary<string>): fc.Arbitrary<string> =>
  fc.tuple(fc.constantFrom("", " ", "\t"), a, fc.constantFrom("", " ", "\n")).map(([l, s, r]) => l + s + r);

const caseMix = (word: string): fc.Arbitrary<string> =>
  fc.array(fc.boolean(), { minLength: word.length, maxLength: word.length })
    .map((ups) => [...word].map((c, i) => (ups[i] === true ? c.toUpperCase() : c)).join(""));

const jsonArrayArb: fc.Arbitrary<readonly Json[]> = fc.array(fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>, { maxLength: 4 });

const VALID: { readonly [K in ArgKind]: (t: TypeOf<K>) => fc.Arbitrary<unknown> } = {
  string: () => fc.oneof(fc.string(), fc.integer(), fc.boolean(), jsonArrayArb),
  // a path names a file: any text but the empty one
  path: () => fc.oneof(fc.string({ minLength: 1 }), fc.constantFrom("./a", "/tmp/a b.ogg", "~/x", "C:\\Program Files")),
  int: () => fc.oneof(fc.integer(), fc.maxSafeInteger(), fc.constantFrom(1e21, -0), pad(fc.bigInt().map(String))),
  number: () => fc.oneof(
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    pad(fc.stringMatching(/^-?(?:\d{1,6}(?:\.\d{1,4})?|\.\d{1,4})$/)),
  ),
  bool: () => fc.oneof(fc.boolean(), pad(fc.constantFrom("true", "false", "yes", "no", "1", "0").chain(caseMix))),
  array: () => fc.oneof(jsonArrayArb, jsonArrayArb.map((a) => JSON.stringify(a))),
  enum: (t) => fc.constantFrom(...t.values),
};

/** A present value the type accepts. (null and undefined are accepted by every type but path
 * too, but they mean "no value" and become `""`, which typed kinds would not accept a second
 * time.) */
export function validValueArb(type: ArgType): fc.Arbitrary<unknown> {
  return (VALID[type.kind] as (t: ArgType) => fc.Arbitrary<unknown>)(type);
}

/** A textual default the type accepts in a declaration. */
export function validDefaultArb(type: ArgType): fc.Arbitrary<string> {
  switch (type.kind) {
    case "int": return fc.integer().map(String);
    case "number": return fc.stringMatching(/^-?(?:\d{1,4}(?:\.\d{1,3})?|\.\d{1,3})$/);
    case "bool": return fc.constantFrom("true", "false", "yes", "no", "1", "0");
    case "enum": return fc.constantFrom(...type.values);
    case "array": return fc.array(fc.stringMatching(/^[a-z0-9]{0,3}$/), { maxLength: 3 }).map((a) => JSON.stringify(a));
    case "path": return fc.stringMatching(/^[A-Za-z0-9_./-]{1,8}$/);
    default: return fc.stringMatching(/^[A-Za-z0-9_./-]{0,8}$/);
  }
}

export interface GeneratedDeclaration {
  readonly name: string;
  readonly type: ArgType | undefined;
  readonly default: string | undefined;
}

export const declarationArb: fc.Arbitrary<GeneratedDeclaration> = fc
  .tuple(argNameArb, fc.option(argTypeArb, { nil: undefined }), fc.boolean())
  .chain(([name, type, withDefault]) =>
    (withDefault ? validDefaultArb(type ?? { kind: "string" }).map((d): string | undefined => d) : fc.constant(undefined))
      .map((d): GeneratedDeclaration => ({ name, type, default: d })));

const typeText = (t: ArgType): string => (t.kind === "enum" ? `enum(${t.values.join(",")})` : t.kind);

/** `name[:type][=default]` as an author would write it. */
export const declarationText = (d: GeneratedDeclaration): string =>
  d.name + (d.type === undefined ? "" : `:${typeText(d.type)}`) + (d.default === undefined ? "" : `=${d.default}`);

/** A placeholder word for a template: simple, nullish, ternary, index, expression or literal. */
export const templateWordArb: fc.Arbitrary<string> = fc.oneof(
  declarationArb.map((d) => `{${declarationText(d)}}`),
  fc.tuple(argNameArb, fc.stringMatching(/^[a-z]{0,3}$/)).map(([n, f]) => `{${n}??${f}}`),
  fc.tuple(fc.constantFrom("", "!"), argNameArb).map(([neg, n]) => `{${neg}${n}?--${n}:}`),
  argNameArb.map((n) => `{${n}[0]}`),
  fc.constantFrom("{index}", "{_(index+1)}", "{a+1}", "--flag", "'quoted word'", "x{a.b}y"),
);

/** A template graph: a string leaf, a sequence, or a node with control fields. */
export const templateArb: fc.Arbitrary<Json> = fc.letrec<{ node: Json }>((tie) => ({
  node: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.array(templateWordArb, { minLength: 1, maxLength: 5 }).map((ws) => ["cmd", ...ws].join(" ")),
    fc.array(tie("node"), { minLength: 1, maxLength: 3 }),
    fc.record(
      {
        template: tie("node"),
        when: argNameArb,
        retry: argNameArb.map((n) => `{${n}}`),
        defaults: fc.dictionary(argNameArb, fc.string({ maxLength: 3 }), { maxKeys: 2 }),
        args: fc.array(declarationArb.map(declarationText), { maxLength: 2 }),
      },
      { requiredKeys: ["template"] },
    ) as fc.Arbitrary<Json>,
  ),
})).node;
