import { describe, expect, it } from "vitest";
import * as E from "fp-ts/lib/Either.js";
import { normalizeStoredArgs, parseArgsShorthand as parseTagged, parseDeclaration, shorthandErrorText, splitDeclarationList } from "../../../core/args/declarations.js";

/** the shorthand's error as the text register_tool answers */
const parseArgsShorthand = (text: string) => E.mapLeft(shorthandErrorText)(parseTagged(text));

const right = <A>(e: E.Either<string, A>): A => {
  if (E.isLeft(e)) throw new Error(`expected Right, got Left(${e.left})`);
  return e.right;
};

describe("parseDeclaration", () => {
  it("splits name, type and default at the first = and first :", () => {
    expect(parseDeclaration(" url = http://x:1=2 ")).toMatchObject({ name: "url", default: "http://x:1=2", canonical: "url" });
    expect(parseDeclaration("n:int=5")).toMatchObject({ name: "n", type: { kind: "int" }, default: "5", canonical: "n:int" });
    expect(parseDeclaration("lang=")).toMatchObject({ name: "lang", default: "" });
  });

  it("keeps a written :string and falls back to string for unknown types", () => {
    expect(parseDeclaration("model:string").canonical).toBe("model:string");
    expect(parseDeclaration("model:strange")).toMatchObject({ type: { kind: "string" }, typeText: "strange", canonical: "model" });
  });

  it("takes a name part with inner whitespace literally", () => {
    expect(parseDeclaration("a : path")).toMatchObject({ name: "a : path", type: { kind: "string" }, canonical: "a : path" });
  });
});

describe("splitDeclarationList", () => {
  it("splits at commas outside parentheses, trims and drops empties", () => {
    expect(splitDeclarationList(" a, mode:enum(x, y)=x ,, b ")).toEqual(["a", "mode:enum(x, y)=x", "b"]);
    expect(splitDeclarationList("")).toEqual([]);
  });

  it("keeps nested brackets together and splits again once they are all closed", () => {
    expect(splitDeclarationList("items:array=[[1,2],[3,4]], n")).toEqual(["items:array=[[1,2],[3,4]]", "n"]);
    expect(splitDeclarationList("m:enum((a,b),c), z")).toEqual(["m:enum((a,b),c)", "z"]);
  });

  it("a stray closing bracket does not stop later commas from splitting", () => {
    expect(splitDeclarationList("a), b, c")).toEqual(["a)", "b", "c"]);
    expect(splitDeclarationList("a]], b")).toEqual(["a]]", "b"]);
  });
});

describe("parseArgsShorthand", () => {
  it("untyped shorthand with defaults", () => {
    const r = right(parseArgsShorthand("file, lang=ru, model=voxtral-mini"));
    expect(r.names).toEqual(["file", "lang", "model"]);
    expect(r.declarations).toEqual(["file", "lang", "model"]);
    expect(r.defaults).toEqual({ lang: "ru", model: "voxtral-mini" });
  });

  it("typed shorthand", () => {
    const r = right(parseArgsShorthand(
      "file:path, out_dir:path, request_timeout:int=60000, speed:number=1.5, dry_run:bool=true, prompts:array, mode:enum(check,fix)=check",
    ));
    expect(r.declarations).toEqual([
      "file:path", "out_dir:path", "request_timeout:int", "speed:number", "dry_run:bool", "prompts:array", "mode:enum(check,fix)",
    ]);
    expect(r.defaults).toEqual({ dry_run: "true", mode: "check", speed: "1.5", request_timeout: "60000" });
    expect(r.types.get("mode")).toEqual({ kind: "enum", values: ["check", "fix"] });
    expect(r.types.get("file")).toEqual({ kind: "path" });
  });

  it("prompt:string,model:string is stored as written", () => {
    const r = right(parseArgsShorthand("prompt:string,model:string"));
    expect(r.declarations).toEqual(["prompt:string", "model:string"]);
    expect(r.types.get("model")).toEqual({ kind: "string" });
  });

  it("enum values are trimmed in the canonical form", () => {
    expect(right(parseArgsShorthand("m:enum( a , b )=b")).declarations).toEqual(["m:enum(a,b)"]);
  });

  it("refuses an unknown type, naming it and the valid ones, as a recipe file's args are refused", () => {
    expect(parseArgsShorthand("a, x:integer=5")).toEqual(
      E.left('field "args" declares unknown type "integer" for x; use string, path, int, number, bool, array or enum(a,b)'),
    );
  });

  it("a nested array default stays one declaration", () => {
    const r = right(parseArgsShorthand("items:array=[[1,2],[3,4]], n"));
    expect(r.names).toEqual(["items", "n"]);
    expect(r.declarations).toEqual(["items:array", "n"]);
    expect(r.defaults).toEqual({ items: "[[1,2],[3,4]]" });
  });

  it("types lists only names written with a type", () => {
    const r = right(parseArgsShorthand("a, b:int, d:string, e=1"));
    expect([...r.types.entries()]).toEqual([["b", { kind: "int" }], ["d", { kind: "string" }]]);
  });

  it("an array default must be JSON array text; commas inside brackets do not split", () => {
    const r = right(parseArgsShorthand('items:array=["a", "b"], n'));
    expect(r.declarations).toEqual(["items:array", "n"]);
    expect(r.defaults).toEqual({ items: '["a", "b"]' });
    expect(parseArgsShorthand("items:array=a")).toEqual(E.left("Invalid default for items:array"));
  });

  it("an empty string is an explicit empty list", () => {
    expect(right(parseArgsShorthand(""))).toMatchObject({ declarations: [], names: [], defaults: {} });
  });

  it("rejects the first invalid default", () => {
    expect(parseArgsShorthand("a:int=x, b:bool=maybe")).toEqual(E.left("Invalid default for a:int"));
    expect(parseArgsShorthand("a:enum(x,y)=z")).toEqual(E.left("Invalid default for a:enum"));
    expect(parseArgsShorthand("n:number=1.5.1")).toEqual(E.left("Invalid default for n:number"));
  });

  it("invalid defaults are reported before duplicates; duplicates are listed once each", () => {
    expect(parseArgsShorthand("a, b, a, b, a")).toEqual(E.left("Duplicate argument name(s): a, b"));
    expect(parseArgsShorthand("a, a, n:int=x")).toEqual(E.left("Invalid default for n:int"));
    expect(parseArgsShorthand("a, a:int")).toEqual(E.left("Duplicate argument name(s): a"));
  });

  it("a written type keeps its spelling in the stored declaration, also with a space after the colon", () => {
    expect(right(parseArgsShorthand("lang: string, file:  path")).declarations).toEqual(["lang:string", "file:path"]);
  });

  it("rejects a declaration without a name", () => {
    expect(parseArgsShorthand("=x")).toEqual(E.left("Invalid argument declaration: =x"));
  });

  it("keeps names like __proto__ as ordinary keys", () => {
    const r = right(parseArgsShorthand("__proto__=x"));
    expect(Object.keys(r.defaults)).toEqual(["__proto__"]);
    expect(JSON.stringify(r.defaults)).toBe('{"__proto__":"x"}');
  });
});

describe("normalizeStoredArgs", () => {
  it("first declaration wins, stored default beats token default, duplicates dropped", () => {
    expect(normalizeStoredArgs(["file", "lang=en", "lang"], { lang: "ru" })).toEqual({ args: ["file", "lang"], defaults: { lang: "ru" } });
  });

  it("moves token defaults into defaults and keeps types", () => {
    expect(normalizeStoredArgs(["request_timeout:int=60000", "model:string"])).toEqual({
      args: ["request_timeout:int", "model:string"], defaults: { request_timeout: "60000" },
    });
  });

  it("drops a stored declaration without a name", () => {
    expect(normalizeStoredArgs(["=x", "a", ":int=3"])).toStrictEqual({ args: ["a"], defaults: {} });
  });

  it("a declaration without a default adds no defaults entry", () => {
    const r = normalizeStoredArgs(["file", "lang=en", "n:int"]);
    expect(r).toStrictEqual({ args: ["file", "lang", "n:int"], defaults: { lang: "en" } });
    expect(Object.keys(r.defaults)).toEqual(["lang"]);
  });

  it("stringifies stored defaults but keeps arrays", () => {
    expect(normalizeStoredArgs([], { n: 5, b: true, z: null, items: ["a", "b"] })).toEqual({
      args: [], defaults: { n: "5", b: "true", z: "", items: ["a", "b"] },
    });
  });
});
