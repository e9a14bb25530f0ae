// Raw recipes with a marker in every place a recipe can carry a value: the template text (command
// strings, sequences, object templates and their controls), defaults (keys and values), argument
// declarations and descriptions, the description, imports (aliases and paths), runtime values,
// artifacts, the mailbox, output and label texts, an `env` block a hand-written recipe may carry,
// and the file's name and path. A reviewer's projection must show none of them: each marker names
// its field, so a failure says which field leaked.
import { fc } from "@fast-check/vitest";
import type { Json, JsonObject } from "../../core/model.js";

/** Every marker starts with this; no projection or instruction text contains it. */
export const MARK = "Qz";
/** Numeric values carry this digit run (counts in a projection stay far below it). */
export const NUMBER_MARK = 7_919_191;

export const marker = (field: string, tag: number): string => `${MARK}${field}${tag}Zq`;

/** the markers found in a text, for a readable failure */
export const leaks = (text: string): string[] => [...text.matchAll(/Qz[A-Za-z_]+\d+Zq/g)].map((m) => m[0]).concat(text.includes(String(NUMBER_MARK)) ? [String(NUMBER_MARK)] : []);

const leaf = (field: string, tag: number): fc.Arbitrary<Json> =>
  fc.constantFrom<Json>(marker(field, tag), `echo ${marker(field, tag)} {${marker(`${field}_arg`, tag)}}`, `$${marker(`${field}_env`, tag)} --x ${marker(field, tag)}`);

/** a command template of any shape, every string in it marked */
const template = (tag: number): fc.Arbitrary<Json> =>
  fc.letrec<{ t: Json }>((tie) => ({
    t: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      leaf("template", tag),
      fc.array(tie("t"), { minLength: 1, maxLength: 3 }),
      fc
        .record(
          {
            template: fc.array(tie("t"), { minLength: 1, maxLength: 3 }),
            when: fc.constant<Json>(marker("when", tag)),
            label: fc.constant<Json>(marker("label", tag)),
            output: fc.constant<Json>(marker("output", tag)),
            recover: fc.constant<Json>(`echo ${marker("recover", tag)}`),
            retry: fc.constant<Json>(NUMBER_MARK),
            parallel: fc.boolean(),
          },
          { requiredKeys: ["template"] },
        )
        .map((o) => o as JsonObject),
    ),
  })).t;

/** one raw recipe whose every field that is present is marked */
export const markedRecipe = (tag: number): fc.Arbitrary<JsonObject> =>
  fc
    .record(
      {
        description: fc.constant<Json>(`Does ${marker("description", tag)}`),
        template: template(tag),
        args: fc.constant<Json>([`${marker("argname", tag)}:string=${marker("argdefault", tag)}`, `${marker("argother", tag)}`]),
        arg_descriptions: fc.constant<Json>({ [marker("argdesckey", tag)]: marker("argdesc", tag) }),
        defaults: fc.constant<Json>({ [marker("defaultkey", tag)]: marker("default", tag), [marker("defaultnum", tag)]: NUMBER_MARK }),
        imports: fc.constant<Json>({ [marker("importalias", tag)]: `./${marker("importpath", tag)}.json` }),
        values: fc.constant<Json>({ [marker("valuekey", tag)]: marker("value", tag) }),
        artifacts: fc.constant<Json>({ [marker("artifactkey", tag)]: `/work/${marker("artifactpath", tag)}` }),
        mailbox: fc.constant<Json>({ accepts: [marker("accepts", tag)], emits: [{ type: marker("emits", tag) }] }),
        output: fc.constant<Json>(marker("topoutput", tag)),
        label: fc.constant<Json>(marker("toplabel", tag)),
        when: fc.constant<Json>(marker("topwhen", tag)),
        timeout: fc.constant<Json>(NUMBER_MARK),
        concurrency: fc.constant<Json>(`${marker("concurrency", tag)}`),
        env: fc.constant<Json>({ [marker("envkey", tag)]: marker("envvalue", tag) }),
        async: fc.boolean(),
      },
      { requiredKeys: ["template"] },
    )
    .map((o) => o as JsonObject);

/** a file name carrying a marker (names and paths must not reach a reviewer either) */
export const markedStem = (tag: number): string => `${marker("name", tag)}_${tag}`;
