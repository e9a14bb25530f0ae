import { describe, expect, it } from "vitest";
import { analyzeArgs } from "../../support/template-reads.js";
import { parametersSchema } from "../../../core/args/parameters-schema.js";

describe("parametersSchema", () => {
  it("inline-first recipe gives the documented schema, plus each default typed", () => {
    const s = analyzeArgs({
      template: "tool --file {file:path} --timeout {request_timeout:int=60000} --speed {speed:number=1.5} --dry-run {dry_run:bool=true} --mode {mode:enum(check,fix)=check}",
    });
    expect(JSON.stringify(parametersSchema(s, { async: false }))).toBe(
      '{"additionalProperties":false,"properties":{"file":{"description":"Path argument: file","type":"string"},"request_timeout":{"description":"Int argument: request_timeout","type":"integer","default":60000},"speed":{"description":"Number argument: speed","type":"number","default":1.5},"dry_run":{"description":"Bool argument: dry_run","type":"boolean","default":true},"mode":{"description":"Enum argument: mode","enum":["check","fix"],"type":"string","default":"check"}},"required":["file"],"type":"object"}',
    );
  });

  it("metadata-first recipe: explicit args types drive the schema", () => {
    const s = analyzeArgs({
      args: ["file:path", "request_timeout:int", "mode:enum(check,fix)"],
      defaults: { mode: "check" },
      template: "tool --file {file} --timeout {request_timeout} --mode {mode}",
    });
    expect(parametersSchema(s, { async: false })).toEqual({
      additionalProperties: false,
      properties: {
        file: { description: "Path argument: file", type: "string" },
        request_timeout: { description: "Int argument: request_timeout", type: "integer" },
        mode: { description: "Enum argument: mode", enum: ["check", "fix"], type: "string", default: "check" },
      },
      required: ["file", "request_timeout"],
      type: "object",
    });
  });

  it("with args [items:array] yields an array property", () => {
    const s = analyzeArgs({ args: ["items:array"], template: { parallel: true, repeat: "{items.length}", template: "echo {items[index]}" } });
    expect(parametersSchema(s, { async: false })["properties"]).toEqual({
      items: { description: "Array argument: items", items: {}, type: "array" },
    });
  });

  it("async tools add run_id and correlation_id after the args", () => {
    const schema = parametersSchema(analyzeArgs({ template: "x {a}" }), { async: true });
    expect(JSON.stringify(schema["properties"])).toBe(
      '{"a":{"description":"Argument: a","type":"string"},"run_id":{"description":"Optional run id override for this async template recipe invocation.","type":"string"},"correlation_id":{"description":"Optional workflow correlation id preserved in terminal follow-up delivery.","type":"string"}}',
    );
    expect(schema["required"]).toEqual(["a"]);
  });

  it("an argument's own description replaces the generic one", () => {
    const s = analyzeArgs({ defaults: { n: "3" }, args: ["file:path", "n:int"], template: "x {file} {n}" });
    const schema = parametersSchema({ ...s, descriptions: { file: "The file to count words in" } }, { async: false });
    expect(schema["properties"]).toEqual({
      file: { description: "The file to count words in", type: "string" },
      n: { description: "Int argument: n", type: "integer", default: 3 },
    });
  });

  it("an argument named __proto__ is an ordinary property", () => {
    const schema = parametersSchema(analyzeArgs({ template: "x {__proto__}" }), { async: false });
    expect(JSON.parse(JSON.stringify(schema))).toMatchObject({ required: ["__proto__"] });
    expect(Object.keys(schema["properties"] as object)).toEqual(["__proto__"]);
  });

  it("a consumer can replace the __proto__ property as it can any other", () => {
    const schema = parametersSchema(analyzeArgs({ template: "x {__proto__} {b}" }), { async: false });
    const properties = schema["properties"] as Record<string, unknown>;
    properties["__proto__"] = { type: "integer" };
    properties["b"] = { type: "integer" };
    expect(JSON.stringify(properties)).toBe('{"__proto__":{"type":"integer"},"b":{"type":"integer"}}');
  });

  it("a consumer can remove the __proto__ property as it can any other", () => {
    const schema = parametersSchema(analyzeArgs({ template: "x {__proto__} {b}" }), { async: false });
    const properties = schema["properties"] as Record<string, unknown>;
    delete properties["__proto__"];
    expect(Object.keys(properties)).toEqual(["b"]);
    expect(JSON.stringify(properties)).toBe('{"b":{"description":"Argument: b","type":"string"}}');
  });
});
