// The recipe-field table is the one description of the fields: what register_tool offers and
// accepts, the template envelope and the executable fingerprint all follow from it.
import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import { executableContent } from "../../../core/ledger/recipe-fingerprint.js";
import { decodeRecipeObject } from "../../../core/recipe/decode.js";
import { ENVELOPE_KEYS } from "../../../core/recipe/fields.js";
import { compileMarkdown } from "../../../core/recipe/markdown.js";
import { decodeParams } from "../../../core/register/params.js";
import { REGISTER_TOOL_PARAMETERS } from "../../../core/register/params-schema.js";

const offered = Object.keys(REGISTER_TOOL_PARAMETERS["properties"] as object);

describe("the recipe-field table", () => {
  it("register_tool offers its own parameters and the fields something here acts on, nothing else", () => {
    expect(offered).toEqual([
      "name", "draft", "update", "template", "description", "disabled", "async", "imports", "args", "arg_descriptions", "defaults", "values", "parallel",
      "concurrency", "min_successful", "timeout", "delay", "retry", "label", "when", "accept_output", "output", "failure", "recover", "repeat",
      "sandbox",
    ]);
  });

  it("sandbox is one row: decoded (a host list refused), part of what a call runs, taken from Markdown frontmatter and by register_tool", () => {
    const policy = { network: false, write: [".", "{out}"], read_deny: ["~/.ssh"] };
    const c = decodeRecipeObject({ template: "echo", sandbox: policy }, "/r/a.json", "a");
    expect(E.isRight(c) && c.right.sandbox).toEqual(policy);
    expect(E.isRight(c) && Object.keys(executableContent(c.right)).sort()).toEqual(["async", "sandbox", "template"]);
    const hosts = decodeRecipeObject({ template: "echo", sandbox: { network: ["example.com"] } }, "/r/a.json", "a");
    expect(E.isLeft(hosts) && hosts.left.message).toContain("a list of host names cannot be enforced by bubblewrap");
    const typo = decodeRecipeObject({ template: "echo", sandbox: { netwrok: false } }, "/r/a.json", "a");
    expect(E.isLeft(typo)).toBe(true);
    const md = compileMarkdown("---\nsandbox:\n  network: false\n  write: [out/]\n---\n\n```template\necho hi\n```\n");
    expect(E.isRight(md) && md.right["sandbox"]).toEqual({ network: false, write: ["out/"] });
    const params = decodeParams({ name: "a", description: "d", template: "echo", sandbox: true });
    expect(E.isRight(params) && params.right.fields.get("sandbox")).toBe(true);
  });

  it("fields not offered are still read from stored recipes and accepted by an update", () => {
    const stored = decodeRecipeObject({ template: "echo", mailbox: { accepts: ["x"] }, retire_when: "children_terminal", actor_context: "off" }, "/r/a.json", "a");
    expect(E.isRight(stored) && stored.right.mailbox).toEqual({ accepts: ["x"] });
    const params = decodeParams({ name: "a", update: true, mailbox: null });
    expect(E.isRight(params) && params.right.fields.get("mailbox")).toBeNull();
  });

  it("an unknown register_tool argument is refused with the offered list", () => {
    const r = decodeParams({ name: "a", state_dir: "/x" });
    expect(E.isLeft(r) && r.left.text).toBe(`register_tool does not accept "state_dir"; allowed: ${offered.join(", ")}`);
  });

  it("top-level controls go into the template envelope in envelope order", () => {
    expect(ENVELOPE_KEYS).toEqual([
      "args", "defaults", "parallel", "concurrency", "min_successful", "label", "when", "timeout", "delay", "accept_output", "output",
      "retry", "failure", "recover", "repeat",
    ]);
    const c = decodeRecipeObject({ repeat: 2, timeout: 5, label: "l", template: "echo" }, "/r/a.json", "a");
    expect(E.isRight(c) && Object.keys(c.right.template as object)).toEqual(["label", "timeout", "repeat", "template"]);
  });

  it("the executable content leaves out exactly the descriptive fields", () => {
    const c = decodeRecipeObject({ description: "d", usage: { calls: 1 }, imports: { x: "y.json" }, values: { a: 1 }, template: "echo" }, "/r/a.json", "a");
    expect(E.isRight(c) && Object.keys(executableContent(c.right)).sort()).toEqual(["async", "imports", "template", "values"]);
  });
});
