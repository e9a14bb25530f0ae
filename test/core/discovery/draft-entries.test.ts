// The draft listing as discovery gives it: what a reviewer reads of each captured draft.
import { describe, expect, it } from "vitest";
import { discover } from "../../../core/discovery/discover.js";
import { file, snapshot, userRoot } from "../../support/snapshot.js";

const D = "/A/recipes/drafts";
const draftsOf = (...files: ReturnType<typeof file>[]) => discover(snapshot([userRoot({})], files)).drafts;

describe("draft entries", () => {
  it("a template preview is cut to 120 characters, the last three an ellipsis", () => {
    const long = `echo ${"x".repeat(200)}`;
    const exact = `echo ${"y".repeat(115)}`;
    const [a, b] = draftsOf(file(`${D}/a.json`, { template: long }), file(`${D}/b.json`, { template: exact }));
    expect(a?.template_preview).toBe(`${long.slice(0, 117)}...`);
    expect(a?.template_preview).toHaveLength(120);
    expect(b?.template_preview).toBe(exact);
  });

  it("a template that is no text is previewed as its JSON", () => {
    const [a] = draftsOf(file(`${D}/a.json`, { template: ["echo one", { template: "echo two" }] }));
    expect(a?.template_preview).toBe('["echo one",{"template":"echo two"}]');
  });

  it("times: created is the birth time, else the modification time; a time that is not known is empty", () => {
    const [a, b, c] = draftsOf(
      file(`${D}/a.json`, { template: "echo a" }, { birthtimeMs: Date.UTC(2026, 0, 2), mtimeMs: Date.UTC(2026, 0, 3) }),
      file(`${D}/b.json`, { template: "echo b" }, { birthtimeMs: 0, mtimeMs: Date.UTC(2026, 0, 3) }),
      file(`${D}/c.json`, { template: "echo c" }, { birthtimeMs: 0, mtimeMs: 0 }),
    );
    expect(a).toMatchObject({ created_at: "2026-01-02T00:00:00.000Z", modified_at: "2026-01-03T00:00:00.000Z" });
    expect(b).toMatchObject({ created_at: "2026-01-03T00:00:00.000Z", modified_at: "2026-01-03T00:00:00.000Z" });
    expect(c).toMatchObject({ created_at: "", modified_at: "" });
    for (const ms of [Number.NaN, Number.POSITIVE_INFINITY, -1]) {
      const [odd] = draftsOf(file(`${D}/n.json`, { template: "echo n" }, { birthtimeMs: ms, mtimeMs: ms }));
      expect(odd).toMatchObject({ created_at: "", modified_at: "" });
    }
  });

  it("an async draft says so; a draft that does not say is not marked either way", () => {
    const [a, b, c] = draftsOf(
      file(`${D}/a.json`, { async: true, template: "echo a" }),
      file(`${D}/b.json`, { async: false, template: "echo b" }),
      file(`${D}/c.json`, { template: "echo c" }),
    );
    expect(a?.async).toBe(true);
    expect(b?.async).toBe(false);
    expect(c).not.toHaveProperty("async");
  });

  it("only recipe files are drafts; an invalid one is listed with its diagnostics, digest and no labels", () => {
    const files = [file(`${D}/notes.txt`, "x"), file(`${D}/.d.json.1.tmp`, "{}"), file(`${D}/bad.json`, "{"), file(`${D}/ok.json`, { template: "rm -rf /tmp/x" })];
    const drafts = discover(snapshot([userRoot({})], files), { digest: (f) => `sha-of-${f.path.slice(-8)}` }).drafts;
    expect(drafts.map((d) => d.path)).toEqual([`${D}/bad.json`, `${D}/ok.json`]);
    const [bad, ok] = drafts;
    expect(bad).toMatchObject({ valid: false, sha256: "sha-of-bad.json", risk_labels: [] });
    expect(bad?.diagnostics).toHaveLength(1);
    expect(bad?.diagnostics[0]).toMatch(/^Invalid recipe: \/A\/recipes\/drafts\/bad\.json/);
    expect(ok).toMatchObject({ valid: true, sha256: "sha-of-/ok.json", diagnostics: [] });
    expect(ok?.risk_labels).toContain("risk.destructive_fs");
    expect(ok).not.toHaveProperty("description");
    const [plain] = discover(snapshot([userRoot({})], [file(`${D}/bad.json`, "{")])).drafts;
    expect(plain).not.toHaveProperty("sha256");
  });

  it("a captured run's id is read from its description", () => {
    const [a, b] = draftsOf(
      file(`${D}/a.json`, { description: "Captured from spawn run r-42.x today", template: "echo a" }),
      file(`${D}/b.json`, { description: "written by hand", template: "echo b" }),
    );
    expect(a?.source_run).toBe("r-42.x");
    expect(b).not.toHaveProperty("source_run");
  });
});
