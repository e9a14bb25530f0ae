// Ruling 5: an update merges into the stored recipe; nothing not given is lost. Plus the checks
// every write passes: template input, parameters, validation before writing.
import { describe, expect, it } from "vitest";
import { DRAFTS, ROOT, world } from "./world.js";

const pretty = (o: unknown): string => `${JSON.stringify(o, null, 2)}\n`;

describe("update merges", () => {
  const stored = {
    description: "Wrapper",
    async: true,
    imports: { helper: "helper.json" },
    args: ["path:path=."],
    mailbox: { accepts: ["review"] },
    custom_note: "kept",
    template: { timeout: 5, template: [{ name: "helper" }, "echo after {path}"] },
  };
  const helper = { description: "Helper", template: "echo helper {path}" };
  const seeded = () => world({ [`${ROOT}/wrap.json`]: stored, [`${ROOT}/helper.json`]: helper });

  it("a description-only update keeps imports, async, args, object templates and unknown keys", () => {
    const w = seeded();
    // the unknown key is kept, and reported as such
    expect(w.run({ name: "wrap", description: "New", update: true })).toMatchObject({
      ok: true,
      text: 'Updated tool "wrap" (args: path).\nWarnings:\n- unknown recipe field "custom_note" (ignored)',
    });
    // the stored key order is kept, so the file's diff is the description alone
    expect(w.files.get(`${ROOT}/wrap.json`)).toBe(pretty({ ...stored, description: "New" }));
  });

  it("an update with a template keeps the other fields too; null removes a co-located field", () => {
    const w = seeded();
    w.run({ name: "wrap", template: "echo {path}", update: true, mailbox: null, timeout: 1000 });
    expect(w.read("wrap.json")).toEqual({
      description: "Wrapper", async: true, args: ["path:path=."], imports: stored.imports, custom_note: "kept", timeout: 1000, template: "echo {path}",
    });
  });

  it("an update that gives args but not defaults keeps the stored defaults; defaults=null clears them", () => {
    const w = world({ [`${ROOT}/chk.json`]: { description: "Check", args: ["file:path", "mode"], defaults: { mode: "check", other: "x" }, template: "echo {file} {mode}" } });
    expect(w.run({ name: "chk", args: "file:path,mode:enum(check,fix)", update: true })).toMatchObject({ ok: true });
    expect(w.read("chk.json")).toMatchObject({ args: ["file:path", "mode:enum(check,fix)"], defaults: { mode: "check", other: "x" } });
    // a default written in the shorthand wins over the stored one for its name
    w.run({ name: "chk", args: "file:path,mode:enum(check,fix)=fix", update: true });
    expect(w.read("chk.json")).toMatchObject({ defaults: { mode: "fix", other: "x" } });
    w.run({ name: "chk", args: "file:path,mode:enum(check,fix)", defaults: null, update: true });
    expect(w.read("chk.json")).not.toHaveProperty("defaults");
  });

  it("an identical update rewrites byte-identical content", () => {
    const w = seeded();
    const before = pretty({ ...stored, description: "New" });
    w.run({ name: "wrap", description: "New", update: true });
    w.run({ name: "wrap", description: "New", update: true });
    expect(w.files.get(`${ROOT}/wrap.json`)).toBe(before);
  });

  it("an update keeps a hand-written key order; new keys go before a trailing template", () => {
    const w = world({ [`${ROOT}/h.json`]: { template: "echo {x}", label: "first", description: "H" } });
    w.run({ name: "h", description: "H2", update: true, timeout: 5 });
    expect(Object.keys(w.read("h.json") as object)).toEqual(["template", "label", "description", "timeout"]);
    const v = world({ [`${ROOT}/v.json`]: { label: "l", description: "V", template: "echo" } });
    v.run({ name: "v", description: "V2", update: true, timeout: 5 });
    expect(Object.keys(v.read("v.json") as object)).toEqual(["label", "description", "timeout", "template"]);
  });

  it("a .md-backed tool is updated into <name>.json from its compiled object; the .md stays", () => {
    const md = "---\ndescription: Count words\nargs: file:path\n---\n\nProse.\n\n```template\nwc -w {file}\n```\n";
    const w = world({ [`${ROOT}/word_count.md`]: md });
    const r = w.run({ name: "word_count", description: "Count the words", update: true });
    if (r === "list") throw new Error("expected a result");
    expect(r).toMatchObject({ ok: true, details: { shadows: `${ROOT}/word_count.md` } });
    // the answer says the .md is shadowed from now on, and how to keep one file
    expect(r.text).toBe(
      `Updated tool "word_count" (args: file).\nThe tool was the Markdown recipe ${ROOT}/word_count.md; it is now ${ROOT}/word_count.json, which shadows it: the .md (and its prose) is no longer read, and edits to it change nothing. Remove ${ROOT}/word_count.md to keep one file, or delete ${ROOT}/word_count.json and edit the .md instead.`,
    );
    expect(w.read("word_count.json")).toEqual({ description: "Count the words", args: ["file:path"], template: "wc -w {file}" });
    expect(w.files.get(`${ROOT}/word_count.md`)).toBe(md);
    // updated again, the tool is its .json: nothing more to say
    const again = w.run({ name: "word_count", description: "Count words", update: true });
    if (again === "list") throw new Error("expected a result");
    expect(again.text).toBe('Updated tool "word_count" (args: file).');
    expect(again.details).not.toHaveProperty("shadows");
  });

  it("async given on update rebuilds with that flag; values travel with it", () => {
    const w = world({ [`${ROOT}/a.json`]: { description: "A", template: "echo {x}" } });
    w.run({ name: "a", async: false, values: { x: "1" }, update: true });
    expect(w.files.get(`${ROOT}/a.json`)).toBe(pretty({ description: "A", async: false, values: { x: "1" }, template: "echo {x}" }));
  });

  it("values given on update of a stored async recipe replace its values without restating async", () => {
    const w = world({ [`${ROOT}/co.json`]: { description: "Co", async: true, values: { x: "1" }, template: "echo {x}" } });
    expect(w.run({ name: "co", values: { x: "2" }, update: true })).toMatchObject({ ok: true });
    expect(w.files.get(`${ROOT}/co.json`)).toBe(pretty({ description: "Co", async: true, values: { x: "2" }, template: "echo {x}" }));
  });

  it("defaults given as an object merge under the shorthand's", () => {
    const w = world();
    w.run({ name: "d", description: "D", template: "echo {a} {b}", args: "a,b=2", defaults: { a: "1", b: "0" } });
    expect(w.read("d.json")).toEqual({ description: "D", args: ["a", "b"], defaults: { a: "1", b: "2" }, template: "echo {a} {b}" });
  });

  it("stored defaults stay unless defaults or args are given; defaults given alone replace them; null removes them", () => {
    const stored = { description: "D", args: ["a", "b"], defaults: { a: "1" }, template: "echo {a} {b}" };
    const w = world({ [`${ROOT}/d.json`]: stored });
    w.run({ name: "d", description: "D2", update: true });
    expect(w.read("d.json")).toEqual({ ...stored, description: "D2" });
    w.run({ name: "d", defaults: { b: "3" }, update: true });
    expect(w.read("d.json")).toEqual({ ...stored, description: "D2", defaults: { b: "3" } });
    w.run({ name: "d", defaults: null, update: true });
    expect(w.read("d.json")).toEqual({ description: "D2", args: ["a", "b"], template: "echo {a} {b}" });
  });

  it("the description is stored trimmed; a blank one is refused", () => {
    const w = world();
    expect(w.run({ name: "t", description: "  Padded\n", template: "echo" })).toMatchObject({ ok: true });
    expect(w.read("t.json")).toEqual({ description: "Padded", template: "echo" });
    expect(w.run({ name: "u", description: " \t ", template: "echo" })).toMatchObject({ ok: false, text: "Tool description is required unless deleting." });
  });

  it("update=true on a missing name registers it; without a template it is refused", () => {
    const w = world();
    expect(w.run({ name: "n", description: "N", template: "echo n", update: true })).toMatchObject({ ok: true, text: 'Registered tool "n" (args: none).' });
    expect(w.run({ name: "m", description: "M", update: true })).toMatchObject({
      ok: false,
      text: 'Tool "m" not found, so update=true has nothing to update. To create it, give a description and a template (template missing).',
    });
  });

  it("a stored recipe without a template or description asks for them; a broken file asks for a template", () => {
    const w = world({ [`${ROOT}/half.json`]: { description: "Half" }, [`${ROOT}/nodesc.json`]: { template: "echo x" }, [`${ROOT}/broken.json`]: "{ nope" });
    expect(w.run({ name: "half", description: "H", update: true })).toMatchObject({ ok: false, text: "Tool template is required." });
    expect(w.run({ name: "half", template: "echo fixed", update: true })).toMatchObject({ ok: true });
    expect(w.read("half.json")).toEqual({ description: "Half", template: "echo fixed" });
    expect(w.run({ name: "nodesc", args: "a", update: true })).toMatchObject({ ok: false, text: "Tool description is required unless deleting." });
    const r = w.run({ name: "broken", description: "B", update: true });
    expect(r).toMatchObject({ ok: false });
    expect(r !== "list" && r.text).toMatch(/^Stored recipe .*broken\.json cannot be updated without a template: /);
    expect(w.run({ name: "broken", description: "B", template: "echo ok", update: true })).toMatchObject({ ok: true });
    expect(w.read("broken.json")).toEqual({ description: "B", template: "echo ok" });
  });
});

describe("checks before writing", () => {
  it("template input: kinds, empty sequences, raw expansion errors, a blank one refused", () => {
    const w = world();
    const mk = (template: unknown) => w.run({ name: "t", description: "t", template });
    expect(mk([])).toMatchObject({ ok: false, text: "Tool template sequence is empty." });
    expect(mk([[], []])).toMatchObject({ ok: false, text: "Tool template sequence is empty." });
    expect(mk(5)).toMatchObject({ ok: false, text: "Tool template must be a string, object, or sequence." });
    expect(mk(true)).toMatchObject({ ok: false, text: "Tool template must be a string, object, or sequence." });
    expect(mk({ repeat: 0, template: "echo" })).toMatchObject({ ok: false, text: "Command template repeat must be a positive integer." });
    expect(mk("  \n ")).toMatchObject({ ok: false, text: "Tool template is blank: give the command to run, or template=null to delete the tool." });
    expect(mk("  echo trimmed  ")).toMatchObject({ ok: true });
    // a blank template over an existing tool, as an update or not, leaves it as it was
    const kept = w.read("t.json");
    for (const params of [{ update: true, template: "" }, { update: true, description: "new", template: " \n" }, { description: "new", template: "" }])
      expect(w.run({ name: "t", ...params })).toMatchObject({ ok: false, text: "Tool template is blank: give the command to run, or template=null to delete the tool." });
    expect(w.read("t.json")).toEqual(kept);
    expect(w.read("t.json")).toEqual({ description: "t", template: "echo trimmed" });
    expect(w.run({ name: "nodesc", template: "echo" })).toMatchObject({ ok: false, text: "Tool description is required unless deleting." });
    expect(w.run({ name: "notemplate", description: "x" })).toMatchObject({ ok: false, text: "Tool template is required for new registrations." });
  });

  it("never writes a recipe discovery would find invalid; the loader's message is the answer", () => {
    const w = world();
    const bad = (params: Record<string, unknown>) => {
      const r = w.run({ name: "bad", description: "b", ...params });
      expect(r).toMatchObject({ ok: false });
      expect(w.files.has(`${ROOT}/bad.json`)).toBe(false);
      return r === "list" ? "" : r.text;
    };
    expect(bad({ template: { timeout: 5 } })).toMatch(/^Tool recipe is invalid: template must be a non-empty command string/);
    expect(bad({ template: "echo 'unterminated" })).toMatch(/^Tool recipe is invalid: /);
    expect(bad({ template: "echo {x}", timeout: [1] })).toBe('Tool recipe is invalid: field "timeout" must be a number or a string (got array)');
    expect(bad({ template: "missing.json" })).toMatch(/^Tool recipe is invalid: Template recipe must define template: .*missing\.json$/);
    expect(bad({ template: "bad" })).toMatch(/^Tool recipe is invalid: Cyclic recipe import/);
    expect(bad({ template: { name: "nope" } })).toMatch(/^Tool recipe is invalid: /);
    // defaults that are not an object are refused as given, not taken apart into keys
    expect(bad({ template: "echo {x}", defaults: ["x"] })).toBe('Tool recipe is invalid: field "defaults" must be an object (got array)');
    expect(bad({ template: "echo {x}", defaults: "x=1" })).toBe('Tool recipe is invalid: field "defaults" must be an object (got string)');
  });

  it("parameters of the wrong type or unknown are refused, naming the argument", () => {
    const w = world();
    expect(w.run({ name: "x", description: 5, template: "echo" })).toMatchObject({ ok: false, text: 'argument "description" must be a string' });
    expect(w.run({ name: "x", update: "yes", template: "echo" })).toMatchObject({ ok: false, text: 'argument "update" must be true or false' });
    expect(w.run({ name: "x", values: [1], template: "echo" })).toMatchObject({ ok: false, text: 'argument "values" must be an object' });
    expect(w.run({ name: "x", state_dir: "/tmp" })).toMatchObject({ ok: false, details: { unknown_arguments: ["state_dir"] } });
  });

  it("args given as an array are a list of declarations (not concatenated as pi-actors does)", () => {
    const w = world();
    w.run({ name: "arr", description: "a", template: "echo {file} {lang}", args: ["file", "lang=ru"] });
    expect(w.read("arr.json")).toEqual({ description: "a", args: ["file", "lang"], defaults: { lang: "ru" }, template: "echo {file} {lang}" });
  });

  it("trusted-boundary warnings are appended to the text", () => {
    const w = world();
    const r = w.run({ name: "sh", description: "s", template: "bash -c {cmd}" });
    expect(r).toMatchObject({ ok: true });
    expect(r !== "list" && r.text).toMatch(/^Registered tool "sh" \(args: cmd\)\.\nWarnings:\n- /);
    expect(r !== "list" && r.details["templateWarnings"]).toBeInstanceOf(Array);
  });

  it("no name lists", () => {
    expect(world().run({})).toBe("list");
    expect(world().run({ name: "" , template: "echo" })).toBe("list");
    void DRAFTS;
  });
});
