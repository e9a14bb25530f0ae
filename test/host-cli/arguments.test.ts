// Argument handling a model or a person meets through the real command: unknown names, values of
// the wrong kind, exponents, defaults and descriptions in the schema, authoring warnings.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
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
write("encode.json", { description: "output names a file, not a step", output: "ogg", template: "printf encoded" });
write("sloppy.json", { descripton: "typo", args: ["a"], template: ["printf {a} {b}", "printf {unclosed"] });

describe("arguments", () => {
  it("an unknown argument name is refused with a did-you-mean and the usage hint", () => {
    const r = runCli(["call", "show", "fiel=a.txt", "n=1"], env);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('Unknown argument "fiel". Did you mean "file"?');
    expect(r.stderr).toContain("Expected call shape for show:");
  });

  it("an object given to a string argument is refused, not passed as [object Object]", () => {
    const r = runCli(["call", "show", "file=a", "n=1", 'label={"x":1}'], env);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("Argument label must be a string.");
    expect(r.stderr).not.toContain("[object Object]");
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
