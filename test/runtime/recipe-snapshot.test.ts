// Discovery over real folders: what the listing sees and what it skips.
import { chmodSync, mkdirSync, readdirSync, statSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as nodeFs from "node:fs";
import { makeScanPort, type ScanPort } from "../../adapters/fs/scan.js";
import { openRegistry } from "../../runtime/registry.js";
import { extraReader, namesListedNow, readFileEntry } from "../../runtime/recipe-snapshot.js";

let base: string;
let agent: string;
let root: string;

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), "pi-recipes-snapshot-"));
  agent = join(base, "agent");
  root = join(agent, "recipes");
  mkdirSync(join(root, "drafts"), { recursive: true });
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const write = (path: string, value: unknown): void => writeFileSync(path, typeof value === "string" ? value : JSON.stringify(value));
const registry = (dir = agent) => openRegistry({ env: { PI_CODING_AGENT_DIR: dir }, packagedRoot: null, scan: makeScanPort(nodeFs) });

describe("listing the recipe root", () => {
  it("symlinked recipe files, other extensions and drafts/ are not entries; a symlinked recipe is said, not silently missing", () => {
    write(join(base, "elsewhere.json"), { template: "echo linked" });
    symlinkSync(join(base, "elsewhere.json"), join(root, "linked.json"));
    // a link to a folder, and a dangling one, named like recipes
    symlinkSync(base, join(root, "folder.md"));
    symlinkSync(join(base, "gone.json"), join(root, "dangling.json"));
    write(join(root, "notes.txt"), "not a recipe");
    write(join(root, "drafts", "d.json"), { template: "echo draft" });
    write(join(root, "real.json"), { template: "echo real" });
    const d = registry().discover();
    expect(d.entries.map((e) => e.id)).toEqual(["real"]);
    expect(d.tools.map((t) => t.name)).toEqual(["real"]);
    expect(d.drafts.map((x) => x.id)).toEqual(["d"]);
    const said = (name: string): string =>
      `Recipe file ${join(root, name)} is a symbolic link and was not loaded: a recipe must be a regular file in the recipe folder (the folder itself may be a link)`;
    expect(d.diagnostics).toEqual([said("dangling.json"), said("folder.md"), said("linked.json")]);
    // the same from the compile cache's second pass (nothing kept that would outlive the links)
    const again = registry().discoverFrom();
    expect(again.from).toBe("discovery");
    expect(again.discovery.diagnostics).toEqual(d.diagnostics);
  });

  it("extensions are case-sensitive and dot-files (atomic-write temps) are skipped", () => {
    write(join(root, "Upper.JSON"), { template: "echo no" });
    write(join(root, ".tmp-write.json"), { template: "echo no" });
    write(join(root, ".a.json.123.tmp"), "{");
    write(join(root, "ok.md"), "---\ndescription: ok\n---\n```template\necho ok\n```\n");
    const d = registry().discover();
    expect(d.tools.map((t) => t.name)).toEqual(["ok"]);
    // the upper-case name is said, never silently missing; the dot-files are not
    expect(d.diagnostics).toEqual([`Recipe file ${join(root, "Upper.JSON")} was not loaded: a recipe file's name ends in .json or .md, in lower case: rename it to Upper.json`]);
  });

  it("folders named like recipes and near-miss names are said; other names and editors' leftovers are not", () => {
    mkdirSync(join(root, "folder.json", "inner.json"), { recursive: true });
    write(join(root, "greet.yaml"), "description: hi\ntemplate: echo hi\n");
    write(join(root, "notes.YML"), "x: 1\n");
    write(join(root, "Guide.Md"), "# guide\n");
    symlinkSync(join(base, "nowhere.yaml"), join(root, "linked.yaml"));
    // not meant as recipes: other endings, editors' backups, dot-files, a folder with another name
    for (const name of ["notes.txt", "greet.json~", "greet.json.bak", "#greet.json#", ".greet.yaml", "greet.jsonl"]) write(join(root, name), "x");
    mkdirSync(join(root, "archive.yaml"));
    mkdirSync(join(root, "old"));
    write(join(root, "real.json"), { template: "echo real" });
    const d = registry().discover();
    expect(d.tools.map((t) => t.name)).toEqual(["real"]);
    const misnamed = (name: string, fixed: string): string =>
      `Recipe file ${join(root, name)} was not loaded: a recipe file's name ends in .json or .md, in lower case: rename it to ${fixed}`;
    const yaml = (name: string): string => `Recipe file ${join(root, name)} was not loaded: a recipe is a .json file, or a .md file with its fields as YAML frontmatter`;
    expect(d.diagnostics).toEqual([
      `Recipe file ${join(root, "folder.json")} is a folder and was not loaded: a recipe must be a regular file in the recipe folder`,
      yaml("greet.yaml"),
      misnamed("Guide.Md", "Guide.md"),
      yaml("linked.yaml"),
      yaml("notes.YML"),
    ].sort());
    // the same from the compile cache's second pass (nothing kept that would outlive them)
    const again = registry().discoverFrom();
    expect(again.from).toBe("discovery");
    expect(again.discovery.diagnostics).toEqual(d.diagnostics);
  });

  it("a symlinked root works", () => {
    const realAgent = join(base, "real-agent");
    mkdirSync(join(realAgent, "recipes"), { recursive: true });
    write(join(realAgent, "recipes", "x.json"), { template: "echo x" });
    const linkAgent = join(base, "link-agent");
    mkdirSync(linkAgent);
    symlinkSync(join(realAgent, "recipes"), join(linkAgent, "recipes"));
    expect(registry(linkAgent).discover().tools.map((t) => t.name)).toEqual(["x"]);
  });

  it("a missing root and a missing agent dir discover nothing, without diagnostics", () => {
    const d = registry(join(base, "nope")).discover();
    expect(d.tools).toEqual([]);
    expect(d.diagnostics).toEqual([]);
  });

  it("a world-writable root is reported", () => {
    chmodSync(root, 0o777);
    write(join(root, "a.json"), { template: "echo a" });
    expect(registry().discover().diagnostics[0]).toBe(`Recipe root is world-writable; review permissions: ${root}`);
  });

  it("a 2 MiB recipe is reported, not read whole, and hides nothing", () => {
    write(join(root, "big.json"), JSON.stringify({ template: "echo big", padding: "x".repeat(2 * 1024 * 1024) }));
    write(join(root, "small.json"), { template: "echo small" });
    const d = registry().discover();
    expect(d.tools.map((t) => t.name)).toEqual(["small"]);
    expect(d.diagnostics).toContain(
      `Failed to load recipe ${join(root, "big.json")}: Recipe file exceeds size limit 1048576 bytes: ${join(root, "big.json")}`,
    );
  });

  it("a recipe at exactly 1 MiB still loads", () => {
    const prefix = '{"template":"echo edge","padding":"';
    const text = prefix + "x".repeat(1024 * 1024 - prefix.length - 2) + '"}';
    expect(Buffer.byteLength(text)).toBe(1024 * 1024);
    write(join(root, "edge.json"), text);
    expect(registry().discover().tools.map((t) => t.name)).toEqual(["edge"]);
  });

  it("an unreadable recipe is a diagnostic naming the file and hides nothing", () => {
    write(join(root, "secret.json"), { template: "echo s" });
    write(join(root, "open.json"), { template: "echo o" });
    const real = makeScanPort(nodeFs);
    // root reads files whatever their mode, so the denial comes from the port, as EACCES would
    const scan: ScanPort = {
      ...real,
      readBounded: (path, limit, options) =>
        path.endsWith("secret.json") ? { ok: false, code: "EACCES", message: `permission denied, open '${path}'` } : real.readBounded(path, limit, options),
    };
    const d = openRegistry({ env: { PI_CODING_AGENT_DIR: agent }, packagedRoot: null, scan }).discover();
    expect(d.tools.map((t) => t.name)).toEqual(["open"]);
    expect(d.diagnostics).toContain(
      `Failed to load recipe ${join(root, "secret.json")}: EACCES: permission denied, open '${join(root, "secret.json")}'`,
    );
  });

  it("imports outside the roots are read on demand ({agent} paths)", () => {
    mkdirSync(join(agent, "skills", "ctx", "recipes"), { recursive: true });
    write(join(agent, "skills", "ctx", "recipes", "validate.json"), { args: ["path:path=."], template: "validate {path}" });
    write(join(root, "validate_context.json"), {
      description: "Run the validator through its skill recipe.",
      imports: { validate_context: "{agent}/skills/ctx/recipes/validate.json" },
      args: ["path:path=."],
      template: { name: "validate_context" },
    });
    const tool = registry().discover().tools.find((t) => t.name === "validate_context");
    expect(tool?.surface.required).toEqual([]);
    expect(tool?.schema).toMatchObject({ properties: { path: { type: "string", description: "Path argument: path" } } });
  });
});

describe("a failed read carries its errno code", () => {
  it("the code, not the text, tells a missing file or a folder from one that cannot be read", () => {
    const scan = makeScanPort(nodeFs);
    mkdirSync(join(base, "folder.json"));
    const folder = readFileEntry(scan, join(base, "folder.json"));
    expect(folder).toMatchObject({ readErrorCode: "EISDIR", readError: `EISDIR: a folder, not a recipe file: ${join(base, "folder.json")}` });
    expect(readFileEntry(scan, join(base, "gone.json")).readErrorCode).toBe("ENOENT");
    const nul = readFileEntry(scan, join(base, "a\0b.json"));
    expect(nul.readErrorCode).toBe("EINVAL");
    // outside the roots, a missing file and a folder are absent; a path that cannot be opened is a diagnostic
    const read = extraReader(scan);
    expect(read(join(base, "folder.json"))).toBeUndefined();
    expect(read(join(base, "gone.json"))).toBeUndefined();
    expect(read(join(base, "a\0b.json"))?.readError).toMatch(/NUL byte/);
  });
});

describe("the recipe names a folder lists now, standing for a listing recorded earlier", () => {
  const scan = (): ScanPort => makeScanPort(nodeFs);
  const fifo = (path: string): void => void execFileSync("mkfifo", [path]);

  it("are the recipe file names only: no folders, dot-files, drafts/ or other extensions", () => {
    write(join(root, "a.json"), { template: "echo a" });
    write(join(root, "b.md"), "---\ntemplate: echo b\n---\n");
    write(join(root, ".a.json.1-2.tmp"), "x");
    write(join(root, "notes.txt"), "x");
    mkdirSync(join(root, "old"));
    // a link not named like a recipe is nothing to discovery
    symlinkSync(join(base, "elsewhere.txt"), join(root, "notes-link.txt"));
    expect([...(namesListedNow(scan(), root, true) ?? [])].sort()).toEqual(["a.json", "b.md"]);
  });

  it("stand for nothing when an entry is a stray (a folder named like a recipe, a near-miss name), except in drafts/", () => {
    write(join(root, "a.json"), { template: "echo a" });
    for (const make of [() => mkdirSync(join(root, "dir.json")), () => write(join(root, "B.JSON"), "{}"), () => write(join(root, "c.yaml"), "x: 1")]) {
      make();
      expect(namesListedNow(scan(), root, true)).toBeUndefined();
      // the drafts folder's strays are never said, so they never stand in the way there
      expect([...(namesListedNow(scan(), root, true, undefined, false) ?? [])]).toEqual(["a.json"]);
      rmSync(join(root, readdirSync(root).find((n) => n !== "a.json")!), { recursive: true });
    }
    expect([...(namesListedNow(scan(), root, true) ?? [])]).toEqual(["a.json"]);
  });

  it("stand for nothing when a symlink is named like a recipe (its diagnostic must go when it goes)", () => {
    write(join(root, "a.json"), { template: "echo a" });
    write(join(base, "elsewhere.json"), { template: "echo linked" });
    symlinkSync(join(base, "elsewhere.json"), join(root, "linked.json"));
    expect(namesListedNow(scan(), root, true)).toBeUndefined();
  });

  it("stand for nothing when a recipe name is a FIFO (never read unasked)", () => {
    write(join(root, "a.json"), { template: "echo a" });
    fifo(join(root, "b.json"));
    expect(namesListedNow(scan(), root, true)).toBeUndefined();
  });

  it("of a folder recorded absent: none while it is still absent, nothing once it exists, even empty", () => {
    const gone = join(base, "nowhere");
    expect(namesListedNow(scan(), gone, false)?.size).toBe(0);
    mkdirSync(gone);
    expect(namesListedNow(scan(), gone, false)).toBeUndefined();
    expect(namesListedNow(scan(), gone, true)?.size).toBe(0);
  });

  it("of a folder recorded present: nothing once it is gone or its mode changed", () => {
    const mode = statSync(root).mode;
    expect(namesListedNow(scan(), root, true, mode)?.size).toBe(0);
    chmodSync(root, 0o777);
    expect(namesListedNow(scan(), root, true, mode)).toBeUndefined();
    rmSync(root, { recursive: true });
    expect(namesListedNow(scan(), root, true)).toBeUndefined();
  });
});
