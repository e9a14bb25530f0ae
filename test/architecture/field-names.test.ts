// A recipe field is named as a string in one place, its row of the field table
// (core/recipe/fields.ts); code that must name a field uses `FIELD.<name>` from that table, so a
// renamed or removed field breaks every use at compile time instead of leaving a lookup that
// silently finds nothing. This test reads every source file of core/ and runtime/ and fails on a
// string literal (a value or a type) spelling a field name.
//
// The names checked are the fields no other concept of the registry shares: the template's
// control fields and the recipe's distinctive ones. Words that are also ordinary vocabulary
// (`template`, `args`, `defaults`, `values`, `description`, `label`, `output`, `usage`, ...) name
// many other things (a tool's description, a command's output) and are not checked.
import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { filesUnder } from "../support/files-under.js";
import { FIELD, FIELD_ORDER } from "../../core/recipe/fields.js";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const TABLE = "core/recipe/fields.ts";

const CHECKED: readonly string[] = [
  FIELD.concurrency, FIELD.min_successful, FIELD.timeout, FIELD.delay, FIELD.retry, FIELD.when, FIELD.recover, FIELD.repeat,
  FIELD.parallel, FIELD.failure, FIELD.accept_output, FIELD.arg_descriptions, FIELD.retire_when, FIELD.actor_context,
  FIELD.mailbox, FIELD.artifacts,
];

/** file -> the checked words it may spell, each for a meaning other than the field */
const OTHER_MEANINGS: Readonly<Record<string, readonly string[]>> = {
  // a branch or run that was killed at its deadline has the status "timeout"
  "runtime/execute/parallel.ts": ["timeout"],
  "runtime/execute/run-state.ts": ["timeout"],
  // `{repeat}` is also the variable holding a repeat's copy count, beside `{index}`, `{prev}`, `{next}`
  "core/template/repeat.ts": ["repeat"],
  // the projection shows a reviewer a node's kind: "command", "sequence", "parallel", "object"
  "core/review/projection.ts": ["parallel"],
  // `flock --timeout SECS`: an option of a command the environment rule reads through
  "core/risk/environment-dump.ts": ["timeout"],
};

/** Each string literal of `text` that spells one of `names`, as "line N: name". */
export function fieldLiterals(fileName: string, text: string, names: readonly string[]): string[] {
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && names.includes(node.text)) {
      // an import path is a module, not a field
      if (!ts.isImportDeclaration(node.parent) && !ts.isExportDeclaration(node.parent)) {
        found.push(`line ${file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1}: ${node.text}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

const files = ["core", "runtime"].flatMap((d) => filesUnder(join(repo, d), (n) => n.endsWith(".ts"))).map((f) => relative(repo, f));

describe("a recipe field is spelled only in the field table", () => {
  it("checks names the table has", () => {
    for (const name of CHECKED) expect(FIELD_ORDER).toContain(name);
    expect(files.length).toBeGreaterThan(100);
  });

  it("no other file of core/ or runtime/ writes a checked field name as a string", () => {
    const offending = files
      .filter((f) => f !== TABLE)
      .flatMap((f) => {
        const names = CHECKED.filter((n) => !(OTHER_MEANINGS[f] ?? []).includes(n));
        return fieldLiterals(f, readFileSync(join(repo, f), "utf8"), names).map((hit) => `${f} ${hit}`);
      });
    expect(offending, "name the field with FIELD.<name> from core/recipe/fields.ts").toEqual([]);
  });

  it("every exception is still needed", () => {
    const unused = Object.entries(OTHER_MEANINGS).flatMap(([f, names]) =>
      names.filter((n) => fieldLiterals(f, readFileSync(join(repo, f), "utf8"), [n]).length === 0).map((n) => `${f}: ${n}`),
    );
    expect(unused, "remove it from OTHER_MEANINGS").toEqual([]);
  });

  it("the checker finds a field spelled as a value, a key or a type, and nothing else (it can fail)", () => {
    const text = [
      'import { x } from "./when";',
      'const a = node["min_successful"];',
      'type T = "delay" | "other";',
      "const b = node[FIELD.when];",
      'const c = `recover`;',
      'const d = "the timeout field";',
    ].join("\n");
    expect(fieldLiterals("x.ts", text, CHECKED)).toEqual(["line 2: min_successful", "line 3: delay", "line 5: recover"]);
  });
});
