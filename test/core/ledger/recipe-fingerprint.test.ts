import { describe, expect, it } from "vitest";
import * as E from "fp-ts/lib/Either.js";
import { executableContent, executableFingerprint } from "../../../core/ledger/recipe-fingerprint.js";
import { loadRecipe } from "../../../core/recipe/load.js";
import type { RecipeConfig, RecipeFormat } from "../../../core/model.js";
import type { ToolSpec } from "../../../core/tool/tool-spec.js";
import { toolFingerprint } from "../../../core/discovery/fingerprint.js";
import { createHash } from "node:crypto";

const sha256Hex = (text: string): string => createHash("sha256").update(text, "utf8").digest("hex");

function load(text: string, format: RecipeFormat = "json", name = "tool"): RecipeConfig {
  const bytes = new TextEncoder().encode(text);
  const r = loadRecipe({ path: `/r/${name}.${format}`, size: bytes.length, mtimeMs: 0, birthtimeMs: 0, bytes }, name, format);
  if (E.isLeft(r)) throw new Error(JSON.stringify(r.left));
  return r.right;
}

describe("executableFingerprint (executable content only)", () => {
  const base = load('{"description":"one","args":["x:int"],"defaults":{"x":"1"},"template":"echo {x}"}');

  it("ignores the description, the name, inline usage and formatting", () => {
    const fp = executableFingerprint(base);
    expect(executableFingerprint(load('{"template":"echo {x}","defaults":{"x":"1"},"args":["x:int"],"description":"two","usage":{"calls":9}}', "json", "other"))).toBe(fp);
    expect(executableFingerprint(load('{\n  "args": ["x:int"],\n  "defaults": {"x": "1"},\n  "template": "echo {x}"\n}'))).toBe(fp);
  });

  it("changes with the template, args, defaults, imports, async and control flags", () => {
    const fp = executableFingerprint(base);
    for (const text of [
      '{"args":["x:int"],"defaults":{"x":"1"},"template":"echo {x}!"}',
      '{"args":["x:number"],"defaults":{"x":"1"},"template":"echo {x}"}',
      '{"args":["x:int"],"defaults":{"x":"2"},"template":"echo {x}"}',
      '{"args":["x:int"],"defaults":{"x":"1"},"template":"echo {x}","async":true}',
      '{"args":["x:int"],"defaults":{"x":"1"},"template":"echo {x}","timeout":1000}',
      '{"args":["x:int"],"defaults":{"x":"1"},"imports":{"b":"./b.json"},"template":"echo {x}"}',
    ])
      expect(executableFingerprint(load(text)), text).not.toBe(fp);
  });

  it("covers a Markdown recipe's fence but not its prose", () => {
    const md = (prose: string, cmd: string): string => `---\ndescription: ${prose}\n---\n\n${prose}\n\n\`\`\`template\n${cmd}\n\`\`\`\n`;
    const a = executableFingerprint(load(md("Say hi", "echo hi"), "md"));
    expect(executableFingerprint(load(md("Greets the user", "echo hi"), "md"))).toBe(a);
    expect(executableFingerprint(load(md("Say hi", "echo hello"), "md"))).not.toBe(a);
  });

  it("always states async, as a boolean", () => {
    expect(executableContent(load('{"template":"echo"}')).async).toBe(false);
    expect(executableContent(load('{"template":"echo","async":false}')).async).toBe(false);
    expect(executableContent(load('{"template":"echo","async":true}')).async).toBe(true);
  });

  it("counts a field set to undefined as absent", () => {
    expect(executableContent({ ...base, timeout: undefined } as unknown as RecipeConfig)).toEqual(executableContent(base));
    expect(executableFingerprint({ ...base, values: undefined } as unknown as RecipeConfig)).toBe(executableFingerprint(base));
  });

  it("is the sha256 of the canonical executable content", () => {
    expect(Object.keys(executableContent(base)).sort()).toEqual(["args", "async", "defaults", "template"]);
    expect(executableFingerprint(base)).toBe(sha256Hex(toolFingerprint({ config: base, async: base.async === true } as unknown as ToolSpec)));
  });

  it("is the digest of the live registry's toolFingerprint, so both agree on revisions", () => {
    for (const config of [base, load('{"async":true,"template":"echo {x}","timeout":5}'), load('{"async":false,"template":"echo"}')]) {
      const spec = { config, async: config.async === true } as unknown as ToolSpec;
      expect(executableFingerprint(config)).toBe(sha256Hex(toolFingerprint(spec)));
    }
    // absent and false async execute alike
    expect(executableFingerprint(load('{"async":false,"template":"echo"}'))).toBe(executableFingerprint(load('{"template":"echo"}')));
  });
});
