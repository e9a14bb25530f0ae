// register_tool cases (explicit `:string` kept as written; stored args canonical), on the pure
// planner: exact texts and exact file contents.
import { describe, expect, it } from "vitest";
import { REGISTER_TOOL_PARAMETERS } from "../../../core/register/params-schema.js";
import { DRAFTS, ROOT, world } from "./world.js";

const pretty = (o: unknown): string => `${JSON.stringify(o, null, 2)}\n`;

describe("register_tool golden cases", () => {
  it("a recipe reference with typed shorthand (an explicit :string is kept)", () => {
    const w = world({ [`${ROOT}/docs-review.json`]: { description: "Docs review", template: "pi -p --model {model} review {scope}" } });
    const r = w.run({ args: "scope:path,model:string=selected-model", description: "Start docs review actor", name: "docs_review", template: "docs-review.json" });
    expect(r).toMatchObject({ ok: true, text: 'Registered tool "docs_review" (args: scope, model).' });
    expect(r !== "list" && r.details).toMatchObject({ template: "docs-review.json", args: ["scope", "model"], config: `${ROOT}/docs_review.json`, tool: "docs_review" });
    expect(w.files.get(`${ROOT}/docs_review.json`)).toBe(
      pretty({ description: "Start docs review actor", args: ["scope:path", "model:string"], defaults: { model: "selected-model" }, template: "docs-review.json" }),
    );
  });

  it("sequences and objects are stored verbatim", () => {
    const w = world();
    const seq = ["tts --text {text} --out {mp3}", { template: "ffmpeg -i {mp3} {ogg}", timeout: 123 }];
    expect(w.run({ name: "tts", description: "Speak", template: seq })).toMatchObject({ ok: true, text: 'Registered tool "tts" (args: text, mp3, ogg).' });
    expect(w.read("tts.json")).toEqual({ description: "Speak", template: seq });
    const obj = { parallel: true, recover: "echo recovered", retry: 2, template: ["echo {topic}", { template: "echo done", timeout: 123 }], timeout: 456 };
    const r = w.run({ name: "obj", description: "Object", template: obj });
    expect(r).toMatchObject({ ok: true, details: { args: ["topic"] } });
    expect(w.files.get(`${ROOT}/obj.json`)).toBe(pretty({ description: "Object", template: obj }));
  });

  it("a second create collides; template=null deletes", () => {
    const w = world();
    expect(w.run({ name: "smoke", description: "Smoke", template: "echo smoke" })).toMatchObject({ ok: true });
    expect(w.run({ name: "smoke", description: "Smoke", template: "echo again" })).toMatchObject({
      ok: false,
      text: 'Tool "smoke" already registered. Use update=true to overwrite.',
    });
    expect(w.run({ name: "smoke", template: null })).toMatchObject({
      ok: true,
      text: 'Deleted tool "smoke". Reload to remove it from the complete registry.',
      details: { config: `${ROOT}/smoke.json`, tool: "smoke" },
    });
    expect(w.files.has(`${ROOT}/smoke.json`)).toBe(false);
  });

  it("with call_subagent keeps prompt:string, model:string", () => {
    const w = world();
    w.run({ name: "call_subagent", description: "Run pi as a non-interactive sub-agent", template: "pi -p --model {model} --no-tools {prompt}", args: "prompt:string,model:string" });
    expect(w.files.get(`${ROOT}/call_subagent.json`)).toBe(
      pretty({ description: "Run pi as a non-interactive sub-agent", args: ["prompt:string", "model:string"], template: "pi -p --model {model} --no-tools {prompt}" }),
    );
  });

  it("a transcribe_audio tool with a path, a defaulted and a typed argument", () => {
    const w = world();
    const r = w.run({ name: "transcribe_audio", description: "Transcribe an audio file", template: "~/bin/transcribe {file:path} {lang=ru} {model:string}" });
    expect(r).toMatchObject({ ok: true, text: 'Registered tool "transcribe_audio" (args: file, lang, model).' });
    expect(w.files.get(`${ROOT}/transcribe_audio.json`)).toBe(pretty({ description: "Transcribe an audio file", template: "~/bin/transcribe {file:path} {lang=ru} {model:string}" }));
  });

  it("name normalization and its errors", () => {
    const w = world({ [`${ROOT}/docs_review.json`]: { description: "d", template: "echo d" } });
    const mk = (name: string) => w.run({ name, description: "x", template: "echo x" });
    expect(mk("9lives")).toMatchObject({
      ok: true,
      text: 'Registered tool "tool_9lives" (args: none).\nName "9lives" was normalized to "tool_9lives".',
      details: { normalized_from: "9lives" },
    });
    // names are validated rather than normalized (to etc_passwd): a traversal attempt is refused
    expect(mk("../../etc/passwd")).toMatchObject({
      ok: false,
      text: 'Invalid tool name "../../etc/passwd": a tool name cannot contain path separators, "..", or control characters.',
    });
    for (const bad of ["a/b", "a\\b", "x..y", "tab\there", "nul\u0000"]) expect(mk(bad)).toMatchObject({ ok: false });
    expect(mk("---")).toMatchObject({ ok: false, text: "Invalid tool name." });
    expect(mk("BASH")).toMatchObject({ ok: false, text: "Reserved tool name: bash" });
    expect(mk("docs-review")).toMatchObject({ ok: false, text: 'Tool "docs_review" already registered. Use update=true to overwrite.' });
    expect(mk("Short Hand")).toMatchObject({ ok: true, details: { tool: "short_hand", normalized_from: "Short Hand" } });
    expect(mk("plain")).toMatchObject({ ok: true, text: 'Registered tool "plain" (args: none).' });
    // normalizing must never drop letters: `ünï` would become `n`
    expect(mk("ünï")).toMatchObject({ ok: false, text: expect.stringContaining('use "uni"') });
    expect(mk("工具")).toMatchObject({ ok: false, text: expect.stringContaining("use ASCII letters") });
    expect([...w.files.keys()].some((p) => p.endsWith("/n.json"))).toBe(false);
    expect([...w.files.keys()].every((p) => p.startsWith(`${ROOT}/`) && !p.slice(ROOT.length + 1).includes("/"))).toBe(true);
  });

  it("accepted typed defaults are stored verbatim; unknown types are refused, as in a recipe file", () => {
    const w = world();
    w.run({ name: "t", description: "t", template: "echo {a} {b} {c} {d}", args: "a:number=.5,b:int=-3,c:bool=YES,d:enum(x,y)=y" });
    expect(w.read("t.json")).toEqual({
      description: "t",
      args: ["a:number", "b:int", "c:bool", "d:enum(x,y)"],
      defaults: { a: ".5", b: "-3", c: "YES", d: "y" },
      template: "echo {a} {b} {c} {d}",
    });
    expect(w.run({ name: "u", description: "u", template: "echo {a}", args: "a:foo" })).toMatchObject({
      ok: false,
      text: 'field "args" declares unknown type "foo" for a; use string, path, int, number, bool, array or enum(a,b)',
    });
    expect(w.run({ name: "v", description: "v", template: "echo {a}", args: "a:enum()" })).toMatchObject({ ok: false, text: expect.stringContaining('unknown type "enum()" for a') });
    expect([...w.files.keys()].some((p) => p.endsWith("/u.json") || p.endsWith("/v.json"))).toBe(false);
    expect(w.run({ name: "bad", description: "b", template: "echo {n}", args: "n:int=x" })).toMatchObject({ ok: false, text: "Invalid default for n:int" });
    expect(w.run({ name: "dup", description: "b", template: "echo {n}", args: "n,m,n" })).toMatchObject({ ok: false, text: "Duplicate argument name(s): n" });
  });

  it("typed shorthand request_timeout:int=60000 keeps the type and moves the default; file,lang=ru", () => {
    const w = world();
    w.run({ name: "req", description: "r", template: "tool --timeout {request_timeout}", args: "request_timeout:int=60000" });
    expect(w.read("req.json")).toEqual({ description: "r", args: ["request_timeout:int"], defaults: { request_timeout: "60000" }, template: "tool --timeout {request_timeout}" });
    w.run({ name: "tr", description: "t", template: "transcribe {file} {lang}", args: "file,lang=ru" });
    expect(w.read("tr.json")).toEqual({ description: "t", args: ["file", "lang"], defaults: { lang: "ru" }, template: "transcribe {file} {lang}" });
    w.run({ name: "none", description: "n", template: "echo hi", args: "" });
    expect(w.read("none.json")).toEqual({ description: "n", args: [], template: "echo hi" });
  });

  it("update with only a description, then only args, keeps the rest", () => {
    const w = world();
    w.run({ name: "transcribe_audio", description: "Transcribe", template: "~/bin/transcribe {file:path} {lang=ru} {model:string}" });
    expect(w.run({ name: "transcribe_audio", description: "New desc", update: true })).toMatchObject({
      ok: true,
      text: 'Updated tool "transcribe_audio" (args: file, lang, model).',
    });
    expect(w.read("transcribe_audio.json")).toEqual({ description: "New desc", template: "~/bin/transcribe {file:path} {lang=ru} {model:string}" });
    w.run({ name: "transcribe_audio", args: "prompt,model=m1", update: true });
    expect(w.files.get(`${ROOT}/transcribe_audio.json`)).toBe(
      pretty({ description: "New desc", args: ["prompt", "model"], defaults: { model: "m1" }, template: "~/bin/transcribe {file:path} {lang=ru} {model:string}" }),
    );
  });

  it("values without async are not persisted; with async they are", () => {
    const w = world();
    w.run({ name: "v", description: "x", template: "echo {a}", values: { a: "1" } });
    expect(w.files.get(`${ROOT}/v.json`)).toBe(pretty({ description: "x", template: "echo {a}" }));
    const r = w.run({ name: "w", description: "x", template: "echo {a}", values: { a: "1" }, async: true });
    expect(r).toMatchObject({ ok: true, details: { async: true, recipeName: "w" } });
    expect(w.files.get(`${ROOT}/w.json`)).toBe(pretty({ description: "x", async: true, values: { a: "1" }, template: "echo {a}" }));
  });

  it("deleting a missing tool; deleting a .md-backed tool removes its file too", () => {
    const md = "---\ndescription: Md tool\n---\n\n```template\necho md\n```\n";
    const w = world({ [`${ROOT}/mdtool.md`]: md });
    expect(w.run({ name: "nope", template: null })).toMatchObject({ ok: false, text: 'Tool "nope" not found.', details: { tool: "nope" } });
    // a blank template deletes nothing: only null deletes
    expect(w.run({ name: "mdtool", template: "   " })).toMatchObject({ ok: false, text: "Tool template is blank: give the command to run, or template=null to delete the tool." });
    expect(w.files.has(`${ROOT}/mdtool.md`)).toBe(true);
    expect(w.run({ name: "mdtool", template: null })).toMatchObject({
      ok: true,
      text: 'Deleted tool "mdtool". Reload to remove it from the complete registry.',
      details: { config: `${ROOT}/mdtool.json`, tool: "mdtool", removed: [`${ROOT}/mdtool.md`] },
    });
    expect(w.files.has(`${ROOT}/mdtool.md`)).toBe(false);
  });

  it("delete removes a shadowed .md before its .json", () => {
    const w = world({ [`${ROOT}/both.md`]: "---\ndescription: m\n---\n```template\necho m\n```\n", [`${ROOT}/both.json`]: { description: "j", template: "echo j" } });
    expect(w.plan({ name: "both", template: null })).toMatchObject({ kind: "delete", paths: [`${ROOT}/both.md`, `${ROOT}/both.json`] });
  });

  it("draft promotion", () => {
    const w = world({
      [`${DRAFTS}/captured.json`]: { description: "Captured", template: "echo promoted" },
      [`${DRAFTS}/broken.json`]: { description: "Broken" },
      [`${ROOT}/existing_tool.json`]: { description: "Existing", template: "echo old" },
    });
    expect(w.run({ name: "promoted_tool", draft: `${DRAFTS}/captured.json` })).toMatchObject({
      ok: true,
      text: 'Registered tool "promoted_tool" from draft recipe.',
      details: { promoted: true, config: `${ROOT}/promoted_tool.json`, draft: `${DRAFTS}/captured.json`, tool: "promoted_tool", args: [] },
    });
    expect(w.files.get(`${ROOT}/promoted_tool.json`)).toBe(pretty({ description: "Captured", template: "echo promoted" }));
    expect(w.files.has(`${DRAFTS}/captured.json`)).toBe(true);

    const collide = w.run({ name: "existing_tool", draft: `${DRAFTS}/captured.json` });
    expect(collide).toMatchObject({ ok: false });
    expect(collide !== "list" && collide.text).toMatch(/already registered.*update=true/);
    expect(w.read("existing_tool.json")).toEqual({ description: "Existing", template: "echo old" });
    expect(w.run({ name: "existing_tool", draft: `${DRAFTS}/captured.json`, update: true })).toMatchObject({
      ok: true,
      text: 'Updated tool "existing_tool" from draft recipe.',
    });

    // a field the promotion would drop is refused, not dropped unseen; a description is taken
    for (const extra of [{ template: "echo other" }, { args: "x:int" }, { async: true }, { timeout: 5 }]) {
      expect(w.run({ name: "with_fields", draft: `${DRAFTS}/captured.json`, ...extra })).toMatchObject({
        ok: false,
        text: `A promotion writes the draft's own fields; only description may be given with draft= (${Object.keys(extra)[0]} given). Promote first, then change the tool with update=true.`,
      });
    }
    expect(w.files.has(`${ROOT}/with_fields.json`)).toBe(false);
    expect(w.run({ name: "with_fields", draft: `${DRAFTS}/captured.json`, description: "Mine" })).toMatchObject({ ok: true });
    expect(w.read("with_fields.json")).toEqual({ description: "Mine", template: "echo promoted" });

    const broken = w.run({ name: "broken_tool", draft: `${DRAFTS}/broken.json` });
    expect(broken).toMatchObject({ ok: false, text: "Draft recipe is invalid: recipe must define template" });
    expect(w.files.has(`${ROOT}/broken_tool.json`)).toBe(false);
  });

  it("draft locations: outside the drafts folder, missing, relative to cwd", () => {
    const w = world({ [`${DRAFTS}/d.json`]: { description: "D", template: "echo d" } }, ROOT);
    const outside = `Draft must be under ${DRAFTS}. Use inspect target=recipes view=summary to list drafts.`;
    expect(w.run({ name: "x", draft: `${DRAFTS}/../x.json` })).toMatchObject({ ok: false, text: outside });
    expect(w.run({ name: "x", draft: DRAFTS })).toMatchObject({ ok: false, text: outside });
    expect(w.run({ name: "x", draft: "/etc/passwd" })).toMatchObject({ ok: false, text: outside });
    expect(w.run({ name: "x", draft: `${DRAFTS}/none.json` })).toMatchObject({ ok: false, text: `Draft not found: ${DRAFTS}/none.json` });
    expect(w.run({ name: "x", draft: "drafts/d.json" })).toMatchObject({ ok: true, details: { draft: `${DRAFTS}/d.json` } });
  });

  it("a promoted .md draft is written as its compiled object, template last", () => {
    const w = world({ [`${DRAFTS}/m.md`]: "---\ndescription: From md\nargs: file:path\n---\n\n```template\nwc -w {file}\n```\n" });
    expect(w.run({ name: "wc", draft: `${DRAFTS}/m.md` })).toMatchObject({ ok: true, details: { args: ["file"] } });
    const text = w.files.get(`${ROOT}/wc.json`)!;
    expect(Object.keys(JSON.parse(text) as object).at(-1)).toBe("template");
    expect(JSON.parse(text)).toMatchObject({ description: "From md", template: "wc -w {file}" });
  });

  it("the parameter schema", () => {
    const s = REGISTER_TOOL_PARAMETERS as { required: unknown[]; properties: Record<string, Record<string, unknown>>; additionalProperties: boolean };
    expect(s.required).toEqual([]);
    expect(s.additionalProperties).toBe(false);
    expect(s.properties["name"]!["type"]).toBe("string");
    expect(s.properties["draft"]!["type"]).toBe("string");
    expect(s.properties["async"]!["type"]).toBe("boolean");
    expect(s.properties["update"]!["type"]).toBe("boolean");
    expect(s.properties["values"]!["type"]).toBe("object");
    expect((s.properties["template"]!["anyOf"] as Array<{ type: string }>).map((t) => t.type)).toContain("array");
    expect(s.properties["state_dir"]).toBeUndefined();
  });
});
