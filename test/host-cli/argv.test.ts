import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import { jsonAsked, parseArgv, parseCliValue } from "../../host-cli/argv.js";

describe("CLI value parsing", () => {
  it("takes JSON values as JSON and everything else as a string", () => {
    expect(parseCliValue("3")).toBe(3);
    expect(parseCliValue("-1.5")).toBe(-1.5);
    expect(parseCliValue("true")).toBe(true);
    expect(parseCliValue("false")).toBe(false);
    expect(parseCliValue("null")).toBe(null);
    expect(parseCliValue('["a",1]')).toEqual(["a", 1]);
    expect(parseCliValue('{"a":{"b":2}}')).toEqual({ a: { b: 2 } });
    expect(parseCliValue('"007"')).toBe("007");
    expect(parseCliValue("hello world")).toBe("hello world");
    expect(parseCliValue("007x")).toBe("007x");
    expect(parseCliValue("[not json")).toBe("[not json");
    expect(parseCliValue("")).toBe("");
    expect(parseCliValue("truely")).toBe("truely");
  });

  it("takes a number as a number only when it writes back as the text given: otherwise the text stays", () => {
    expect(parseCliValue("60000")).toBe(60000);
    expect(parseCliValue("0.5")).toBe(0.5);
    for (const text of ["1.10", "1.0", "-0", "1e3", "1E3", "12345678901234567890", "1e400", "0.10"]) expect(parseCliValue(text), text).toBe(text);
  });

  it("splits a command line into verb, positionals, params and --json", () => {
    expect(parseArgv(["schema", "check_tool", "--json"])).toEqual(E.right({ verb: "schema", positional: ["check_tool"], params: {}, json: true }));
    expect(parseArgv(["inspect", "target=recipes", "verbose=true", "x=a=b"])).toEqual(E.right({ verb: "inspect", positional: [], params: { target: "recipes", verbose: true, x: "a=b" }, json: false }));
  });

  it("rejects malformed command lines with a reason", () => {
    expect(parseArgv([""])).toEqual(E.left("missing verb"));
    // no verb at all is a request for the help
    expect(parseArgv([])).toEqual(E.right({ verb: "help", positional: [], params: {}, json: false }));
    expect(parseArgv(["inspect", "a=1", "a=2"])).toEqual(E.left('argument "a" given twice'));
    expect(parseArgv(["inspect", "=x"])).toMatchObject({ _tag: "Left" });
    expect(parseArgv(["inspect", "--verbose"])).toEqual(E.left("unknown option: --verbose"));
    expect(parseArgv(["inspect", "a=1", "loose"])).toEqual(E.left('argument "loose" must be key=value'));
  });

  it("takes the words after a `--` as they are: a tool whose name begins with - can be named", () => {
    expect(parseArgv(["call", "--", "-dash", "x=1"])).toEqual(E.right({ verb: "call", positional: ["-dash"], params: { x: 1 }, json: false }));
    expect(parseArgv(["call", "--json", "--", "-dash"])).toEqual(E.right({ verb: "call", positional: ["-dash"], params: {}, json: true }));
    // after the `--`, an option is a word like any other
    expect(parseArgv(["schema", "--", "-dash", "--json"])).toEqual(E.right({ verb: "schema", positional: ["-dash", "--json"], params: {}, json: false }));
    // without it, the one-dash word where the name goes says how
    expect(parseArgv(["call", "-dash"])).toEqual(E.left('unknown option: -dash (a name that begins with "-" goes after "--": call -- -dash)'));
    // a `--` before the verb is no verb
    expect(parseArgv(["--", "list"])).toEqual(E.left("unknown option: --"));
  });
});

describe("--json after --", () => {
  it("is a word there, not an option: neither the parse nor the usage error's form takes it", () => {
    const parsed = parseArgv(["call", "--", "-dash", "--json"]);
    expect(parsed).toMatchObject({ _tag: "Right", right: { verb: "call", positional: ["-dash", "--json"], json: false } });
    expect(jsonAsked(["call", "--", "-dash", "--json"])).toBe(false);
    expect(jsonAsked(["call", "x", "--json"])).toBe(true);
    expect(jsonAsked(["--json", "call", "--", "x"])).toBe(true);
  });
});

describe("arguments whose value is a file path", () => {
  it("take the word typed, even one that reads as JSON; the other arguments keep their types", () => {
    for (const word of ["123", "true", "null", "1e3", "[x]"]) {
      expect(parseArgv(["review", "--scripted", word]), word).toEqual(E.right({ verb: "review", positional: [], params: { scripted: word }, json: false }));
      expect(parseArgv(["review", "scope=tool", `scripted=${word}`]), word).toEqual(E.right({ verb: "review", positional: [], params: { scope: "tool", scripted: word }, json: false }));
      expect(parseArgv(["spawn", `file=${word}`, 'values={"n":1}']), word).toEqual(E.right({ verb: "spawn", positional: [], params: { file: word, values: { n: 1 } }, json: false }));
      expect(parseArgv(["register_tool", "name=t", `draft=${word}`, "update=true"]), word).toEqual(E.right({ verb: "register_tool", positional: [], params: { name: "t", draft: word, update: true }, json: false }));
    }
    // the same names elsewhere, and the other arguments of these verbs, are typed as before
    expect(parseArgv(["rollback", "tool=t", "revision=3"])).toEqual(E.right({ verb: "rollback", positional: [], params: { tool: "t", revision: 3 }, json: false }));
    expect(parseArgv(["register_tool", "name=t", "template=null"])).toEqual(E.right({ verb: "register_tool", positional: [], params: { name: "t", template: null }, json: false }));
    expect(parseArgv(["call", "t", "file=123", "scripted=true"])).toEqual(E.right({ verb: "call", positional: ["t"], params: { file: 123, scripted: true }, json: false }));
  });
});

describe("argument names that are Object's own", () => {
  it("`__proto__=x` and `constructor=x` are arguments of those names, own keys, and the prototype stays", () => {
    const parsed = parseArgv(["call", "t", "constructor=A", "__proto__=B", "toString=C"]);
    expect(E.isRight(parsed)).toBe(true);
    if (!E.isRight(parsed)) return;
    const params = parsed.right.params;
    expect(Object.keys(params)).toEqual(["constructor", "__proto__", "toString"]);
    expect(Object.getOwnPropertyDescriptor(params, "__proto__")?.value).toBe("B");
    expect(Object.getPrototypeOf(params)).toBe(Object.prototype);
    expect(E.isLeft(parseArgv(["call", "t", "__proto__=1", "__proto__=2"]))).toBe(true);
  });
});
