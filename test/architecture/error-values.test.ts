// How a fallible function says it failed (docs/ARCHITECTURE.md, "Errors as values"): it returns
// an fp-ts `Either` whose left side is a tagged union (`{ _tag: "...", ... }`), rendered as text
// by one function beside it. Two shapes are therefore refused:
// - an ad hoc `{ ok: true, ... } | { ok: false, ... }` union type, anywhere in the sources (a
//   second way to say the same thing, without Either's combinators);
// - `Either<string, ...>` in core/: a caller can only print such an error, not tell its kinds
//   apart, and its text is made where the error is found instead of in one place.
// The files below still do one of these; the lists only shrink (a listed file that no longer
// needs its place fails the test too).
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const SOURCE_DIRS = ["core", "runtime", "adapters", "host-cli", "host-mcp", "host-pi"];

const STILL_OK_UNIONS: readonly string[] = [
  "adapters/fs/scan.ts",
  "adapters/process/bwrap.ts",
  "adapters/process/detached.ts",
  "runtime/ledger/account-launch.ts",
  "runtime/ledger/moves.ts",
  "runtime/review/rollback.ts",
];

const STILL_STRING_ERRORS: readonly string[] = [];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? sources(join(dir, d.name)) : d.name.endsWith(".ts") ? [join(dir, d.name)] : [],
  );
}

const isBooleanLiteral = (node: ts.TypeNode | undefined): boolean =>
  node !== undefined && ts.isLiteralTypeNode(node) && (node.literal.kind === ts.SyntaxKind.TrueKeyword || node.literal.kind === ts.SyntaxKind.FalseKeyword);

/** The error shapes a source text declares, each as "line N: what". */
export function errorShapes(fileName: string, text: string): { readonly okUnions: string[]; readonly stringErrors: string[] } {
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const okUnions: string[] = [];
  const stringErrors: string[] = [];
  const at = (node: ts.Node): string => `line ${file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1}`;
  const visit = (node: ts.Node): void => {
    // a union member that is an object type with `ok: true` or `ok: false`
    if (ts.isUnionTypeNode(node)) {
      const tagged = node.types.filter(
        (member) =>
          ts.isTypeLiteralNode(member) &&
          member.members.some((m) => ts.isPropertySignature(m) && m.name.getText(file) === "ok" && isBooleanLiteral(m.type)),
      );
      if (tagged.length > 0) okUnions.push(`${at(node)}: { ok: true } | { ok: false } union`);
    }
    if (ts.isTypeReferenceNode(node) && /(^|\.)Either$/.test(node.typeName.getText(file)) && node.typeArguments?.[0]?.kind === ts.SyntaxKind.StringKeyword) {
      stringErrors.push(`${at(node)}: ${node.getText(file)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return { okUnions, stringErrors };
}

const files = SOURCE_DIRS.flatMap((d) => sources(join(repo, d))).map((f) => relative(repo, f));
const shapes = new Map(files.map((f) => [f, errorShapes(f, readFileSync(join(repo, f), "utf8"))]));

describe("errors are values of one kind", () => {
  it("finds the sources", () => {
    expect(files.filter((f) => f.startsWith("core/")).length).toBeGreaterThan(50);
  });

  it("no ad hoc { ok: true } | { ok: false } union outside the shrinking list", () => {
    const found = files.filter((f) => shapes.get(f)!.okUnions.length > 0);
    const unlisted = found.filter((f) => !STILL_OK_UNIONS.includes(f)).map((f) => `${f} ${shapes.get(f)!.okUnions.join(", ")}`);
    expect(unlisted, "declare Either<TaggedError, A> instead").toEqual([]);
    expect(STILL_OK_UNIONS.filter((f) => !found.includes(f)), "no longer declares an ok union: remove it from STILL_OK_UNIONS").toEqual([]);
  });

  it("no Either<string, ...> in core/ outside the shrinking list", () => {
    const found = files.filter((f) => f.startsWith("core/") && shapes.get(f)!.stringErrors.length > 0);
    const unlisted = found.filter((f) => !STILL_STRING_ERRORS.includes(f)).map((f) => `${f} ${shapes.get(f)!.stringErrors.join(", ")}`);
    expect(unlisted, "give the error a tagged type and one function that renders its text").toEqual([]);
    expect(STILL_STRING_ERRORS.filter((f) => !found.includes(f)), "no longer declares Either<string, ...>: remove it from STILL_STRING_ERRORS").toEqual([]);
  });

  it("the checker sees both shapes and lets tagged errors and ok values pass (it can fail)", () => {
    const bad = errorShapes(
      "x.ts",
      [
        'import * as E from "fp-ts/lib/Either.js";',
        "type R = { readonly ok: true; readonly v: number } | { readonly ok: false; readonly error: string };",
        "export function f(): E.Either<string, number> { return E.right(1); }",
      ].join("\n"),
    );
    expect(bad).toEqual({ okUnions: ["line 2: { ok: true } | { ok: false } union"], stringErrors: ["line 3: E.Either<string, number>"] });
    const good = errorShapes(
      "y.ts",
      [
        'import * as E from "fp-ts/lib/Either.js";',
        'type Err = { readonly _tag: "Missing"; readonly path: string } | { readonly _tag: "TooLarge" };',
        "export function f(): E.Either<Err, number> { return E.right(1); }",
        // a result record with a boolean ok (what the hosts print) is data, not a union
        "export interface CommandResult { readonly ok: boolean; readonly text: string }",
        "const r = { ok: true, text: '' };",
      ].join("\n"),
    );
    expect(good).toEqual({ okUnions: [], stringErrors: [] });
  });

  it("core composes with core/either-steps.ts, not fp-ts's dual-dispatch chain/bind (docs/performance.md)", () => {
    const DISPATCHING = /\bE\.(?:chain|chainW|flatMap|bind|bindW|bindTo|tap)\(/;
    const offenders = sources(join(repo, "core"))
      .filter((f) => DISPATCHING.test(readFileSync(f, "utf8")))
      .map((f) => relative(repo, f));
    expect(offenders).toEqual([]);
    expect(DISPATCHING.test("pipe(x, E.chain(f))") && !DISPATCHING.test("pipe(x, chain(f))")).toBe(true);
  });
});
