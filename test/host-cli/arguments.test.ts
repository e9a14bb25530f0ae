// Argument handling a model or a person meets through the real command: unknown names, values of
// the wrong kind, exponents, defaults and descriptions in the schema, authoring warnings.
import { existsSync, mkdtempSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli, runCliJson } from "../support/cli.js";

const dir = mkdtempSync(join(tmpdir(), "cli-args-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const env = { PI_CODING_AGENT_DIR: join(dir, "agent") };
const root = join(dir, "agent", "recipes");
mkdirSync(root, { recursive: true });
const write = (name: string, recipe: object) => writeFileSync(join(root, name), JSON.stringify(recipe));
write("show.json", {
  description: "print values",
  args: ["file:path", "n:number", "timeout:int", "label"],
  arg_descriptions: { file: "The file to show" },
  defaults: { timeout: "60000", label: "x" },
  template: "printf %s|%s|%s|%s {file} {n} {timeout} {label}",
});
write("items.json", { description: "array items", args: ["arr:array"], template: "printf [%s]\\n -- {arr} {arr[0]} {arr??none}" });
write("mix.json", { description: "one item and the whole", args: ["arr:array"], template: "echo {arr[0]} --json {arr}" });
write("second.json", { description: "item 1", args: ["arr:array"], template: "echo {arr[1]}" });
write("joined.json", { description: "items joined", args: ["arr:array"], template: "echo {arr??x}" });
write("pick.json", { description: "item i", args: ["arr:array", "i:int"], template: "echo {arr[i]}" });
write("whole.json", { description: "whole array", args: ["arr:array"], template: "printf [%s]\\n -- {arr}" });
write("touch_one.json", { description: "touch a path", args: ["file:path"], template: "touch {file}" });
write("say_one.json", { description: "a string", args: ["word"], template: "printf [%s] {word}" });
write("first_of.json", { description: "reads an item", args: ["word"], template: "printf [%s] {word[0]}" });
write("encode.json", { description: "output names a file, not a step", output: "ogg", template: "printf encoded" });
write("sloppy.json", { descripton: "typo", args: ["a"], template: ["printf {a} {b}", "printf {unclosed"] });

describe("arguments", () => {
  it("an unknown argument name is refused with a did-you-mean and the usage hint", () => {
    const r = runCli(["call", "show", "fiel=a.txt", "n=1"], env);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('Unknown argument "fiel". Did you mean "file"?');
    expect(r.stderr).toContain("Expected call shape for show:");
  });

  it("an array given to a path argument is refused, naming it and its type, and nothing runs; an untyped argument takes its JSON", () => {
    const cwd = join(dir, "arrays");
    mkdirSync(cwd, { recursive: true });
    const touched = runCli(["call", "touch_one", 'file=["a","-n"]'], env, cwd);
    expect(touched.status).toBe(1);
    expect(touched.stdout).toBe("");
    expect(touched.stderr).toContain(
      'Invalid arguments for tool "touch_one": Argument file must be a path, not an array: a path argument names one file (declare file:array to take a list).',
    );
    expect(existsSync(join(cwd, "a,-n"))).toBe(false);
    // an untyped argument takes it as its JSON, as recipes rely on; one read by item, and a
    // declared array, take it as a list
    expect(runCli(["call", "say_one", 'word=["a","b"]'], env)).toMatchObject({ status: 0, stdout: '[["a","b"]]\n' });
    expect(runCli(["call", "first_of", 'word=["a","b"]'], env)).toMatchObject({ status: 0, stdout: "[a]\n" });
    expect(runCli(["call", "whole", 'arr=["a","b"]'], env)).toMatchObject({ status: 0, stdout: '[--]\n[["a","b"]]\n' });
    // a text holding JSON is a text
    expect(runCli(["call", "say_one", 'word="[1]"'], env)).toMatchObject({ status: 0, stdout: "[[1]]\n" });
  });

  it("an object given to a string argument is refused, not passed as [object Object]", () => {
    const r = runCli(["call", "show", "file=a", "n=1", 'label={"x":1}'], env);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("Argument label must be a string.");
    expect(r.stderr).not.toContain("[object Object]");
  });

  it("an array item that is an object is refused when the template reads items as text, naming the argument and the index", () => {
    const r = runCli(["call", "items", 'arr=[{"a":1},"x y"]'], env);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain(
      "Argument arr[0] must be a string, number or boolean: the template reads the items of arr as text ({arr[0]}), and an object has none " +
        "(an array holding objects can only be used whole, as {arr}, which gives its JSON).",
    );
    expect(r.stderr).not.toContain("[object Object]");
    // an object nested in an item is found too
    expect(runCli(["call", "items", 'arr=["a",[{"b":2}]]'], env).stderr).toContain("Argument arr[1] must be a string, number or boolean");
    // items without objects still run, and a template that uses the array only whole passes it as JSON
    expect(runCli(["call", "items", 'arr=["a","x y"]'], env)).toMatchObject({ status: 0, stdout: '[--]\n[["a","x y"]]\n[a]\n[a,x y]\n' });
    expect(runCli(["call", "whole", 'arr=[{"a":1},"x y"]'], env)).toMatchObject({ status: 0, stdout: '[--]\n[[{"a":1},"x y"]]\n' });
  });

  it("only the items a word reads must not hold objects: {arr[0]} reads item 0, {arr[i]} the item i selects, {arr??x} every item", () => {
    const mix = runCli(["call", "mix", 'arr=["create",{"k":"v"}]'], env);
    expect(mix).toMatchObject({ status: 0, stdout: 'create --json ["create",{"k":"v"}]\n' });
    const second = runCli(["call", "second", 'arr=["create",{"k":"v"}]'], env);
    expect(second.status).toBe(1);
    expect(second.stdout).toBe("");
    expect(second.stderr).toContain("Argument arr[1] must be a string, number or boolean: the template reads the items of arr as text ({arr[1]})");
    expect(runCli(["call", "second", 'arr=[{"k":"v"},"b"]'], env)).toMatchObject({ status: 0, stdout: "b\n" });
    for (const [arr, at] of [['[{"k":"v"},"b"]', 0], ['["a","b",[{"k":"v"}]]', 2]] as const) {
      const joined = runCli(["call", "joined", `arr=${arr}`], env);
      expect(joined.status).toBe(1);
      expect(joined.stderr).toContain(`Argument arr[${at}] must be a string, number or boolean: the template reads the items of arr as text ({arr??x})`);
    }
    expect(runCli(["call", "pick", 'arr=["a",{"k":"v"}]', "i=0"], env)).toMatchObject({ status: 0, stdout: "a\n" });
    expect(runCli(["call", "pick", 'arr=["a",{"k":"v"}]', "i=1"], env).stderr).toContain("Argument arr[1] must be a string, number or boolean: the template reads the items of arr as text ({arr[i]})");
    for (const r of [second]) expect(r.stdout + r.stderr).not.toContain("[object Object]");
  });

  it("a spawn value that is an object, or an array whose items hold one, is refused for a word that reads it as text; nothing runs", () => {
    const mark = join(dir, "spawn-object-ran");
    const spawn = (template: string, values: string) => runCli(["spawn", `template=${template}`, `values=${values}`], env, dir);
    const object = spawn(`sh -c "touch ${mark}; printf [%s] $0" {o} {o??x}`, '{"o":{"k":"v"}}');
    expect(object.status).toBe(1);
    expect(object.stderr).toContain("Argument o must be a string, number, boolean or array: an object has no text for {o} to put in a command word.");
    const typed = spawn("printf [%s] {o:string}", '{"o":{"k":"v"}}');
    expect(typed.stderr).toContain("Argument o must be a string, number, boolean or array: an object has no text for {o:string}");
    const item = spawn(`sh -c "touch ${mark}" {o??x}`, '{"o":["a",{"k":"v"}]}');
    expect(item.stderr).toContain("Argument o[1] must be a string, number or boolean: the template reads the items of o as text ({o??x})");
    // an array argument given as JSON text is checked once parsed
    expect(spawn("printf [%s] {o:array} {o[0]}", '{"o":"[{\\"k\\":1}]"}').stderr).toContain("Argument o[0] must be a string, number or boolean");
    for (const r of [object, typed, item]) expect(r.stdout + r.stderr).not.toContain("[object Object]");
    expect(existsSync(mark)).toBe(false);
    // no draft of a command that never ran
    expect(existsSync(join(dir, "agent", "recipes", "drafts"))).toBe(false);
    // only the items a word reads count: {o[0]} reads "create" alone, {o[1]} and {o??x} the object
    expect(spawn("echo {o[0]} --json {o}", '{"o":["create",{"k":"v"}]}')).toMatchObject({ status: 0, stdout: expect.stringMatching(/^create --json \["create",\{"k":"v"\}\]\n/) });
    expect(spawn(`sh -c "touch ${mark}" {o[1]}`, '{"o":["create",{"k":"v"}]}').stderr).toContain("Argument o[1] must be a string, number or boolean: the template reads the items of o as text ({o[1]})");
    expect(spawn(`sh -c "touch ${mark}" {o??x}`, '{"o":[{"k":"v"},"b"]}').stderr).toContain("Argument o[0] must be a string, number or boolean: the template reads the items of o as text ({o??x})");
    expect(spawn(`sh -c "touch ${mark}" {o[i]}`, '{"o":["a",{"k":"v"}],"i":1}').stderr).toContain("Argument o[1] must be a string, number or boolean: the template reads the items of o as text ({o[i]})");
    expect(existsSync(mark)).toBe(false);
    // the whole array is its JSON
    expect(spawn("printf [%s] {o}", '{"o":[{"k":"v"}]}')).toMatchObject({ status: 0, stdout: expect.stringMatching(/^\[\[\{"k":"v"\}\]\]\n?draft_recipe=/) });
  });

  it("a spawn value that is an array is refused for a placeholder typed path or enum, naming the argument and its type; nothing runs, no draft", () => {
    const mark = join(dir, "spawn-array-ran");
    const drafts = join(dir, "agent", "recipes", "drafts");
    const draftsNow = (): string[] => (existsSync(drafts) ? readdirSync(drafts, { recursive: true }).map(String).sort() : []);
    const before = draftsNow();
    const spawn = (template: string, values: string) => runCli(["spawn", `template=${template}`, `values=${values}`], env, dir);
    const path = spawn(`sh -c "touch ${mark}; cat $0" {f:path}`, '{"f":["/etc/hostname","-n"]}');
    expect(path).toMatchObject({ status: 1, stdout: "" });
    expect(path.stderr).toContain("Argument f must be a path, not an array: a path argument names one file (declare f:array to take a list).");
    expect(path.stderr).not.toContain("/etc/hostname,-n");
    const choice = spawn(`sh -c "touch ${mark}; echo $0" {m:enum(a,b)}`, '{"m":["a"]}');
    expect(choice).toMatchObject({ status: 1, stdout: "" });
    expect(choice.stderr).toContain("Argument m must be one of: a, b, not an array.");
    expect(existsSync(mark)).toBe(false);
    expect(draftsNow()).toEqual(before);
    // one value still runs
    expect(spawn("echo {f:path}", '{"f":"/etc/hostname"}')).toMatchObject({ status: 0, stdout: expect.stringMatching(/^\/etc\/hostname\n/) });
  });

  it("a number given with an exponent reaches the command in plain decimal notation", () => {
    expect(runCli(["call", "show", "file=a", "n=1e3"], env)).toMatchObject({ status: 0, stdout: "a|1000|60000|x\n" });
    expect(runCli(["call", "show", "file=a", 'n="2.5E-3"'], env)).toMatchObject({ status: 0, stdout: "a|0.0025|60000|x\n" });
  });

  it("the usage hint shows typed defaults", () => {
    const r = runCli(["call", "show", "n=1"], env);
    expect(r.stderr).toContain('"timeout": 60000');
    expect(r.stderr).not.toContain('"timeout": "60000"');
  });

  it("the schema carries each argument's own description and typed defaults", () => {
    const schema = JSON.parse(runCli(["schema", "show"], env).stdout) as { properties: Record<string, Record<string, unknown>> };
    expect(schema.properties["file"]).toEqual({ description: "The file to show", type: "string" });
    expect(schema.properties["timeout"]).toMatchObject({ type: "integer", default: 60000 });
    expect(schema.properties["label"]).toMatchObject({ default: "x" });
  });

  it("an output naming no step is ignored at run time, and doctor warns", () => {
    expect(runCli(["call", "encode"], env)).toMatchObject({ status: 0, stdout: "encoded\n" });
    const doctor = runCliJson(["inspect", "target=recipes", "view=doctor"], env);
    expect(JSON.stringify(doctor.body)).toContain('\\"output\\" names \\"ogg\\", which is no step label');
  });

  it("load-time warnings: unknown field with a suggestion, undeclared placeholder, unclosed brace", () => {
    const text = JSON.stringify(runCliJson(["inspect", "target=recipes", "view=doctor"], env).body);
    expect(text).toContain('unknown recipe field \\"descripton\\"; did you mean \\"description\\"?');
    expect(text).toContain("placeholder {b} is not declared in \\\"args\\\"");
    expect(text).toContain('unclosed \\"{\\"');
    const { body } = runCliJson(["inspect", "target=recipes", "view=doctor"], env);
    const typo = (body.details["diagnostic_details"] as { message: string; severity: string }[]).find((d) => d.message.includes("descripton"));
    expect(typo?.severity).toBe("warning");
  });
});
