// The packaged component compiled by the build: a registry serves a packaged recipe from the
// prepared file only for the bytes, the code version and (moved to its own) root it was compiled
// for, and what it serves is what compiling the file there gives.
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { compileRecipe } from "../../core/compile/compile-recipe.js";
import type { Discovery } from "../../core/discovery/discovery-result.js";
import type { ToolList } from "../../core/views/list-view.js";
import { openRegistry } from "../../runtime/registry.js";
import { makeNodeScanPort } from "../../adapters/fs/scan.js";
import { packagedCompilesFile, preparePackagedCompiles } from "../../runtime/packaged-compiles.js";
import { absentRootListOf } from "../../runtime/packaged-absent-list.js";

const VERSION = "test+1";
let dir: string;
let buildRoot: string;
let installRoot: string;
let prepared: string;

const recipes: Readonly<Record<string, unknown>> = {
  "echo_word.json": { description: "Echo a word", args: ["word"], template: "echo {word}" },
  // a trusted-boundary warning: its diagnostic names the file, so the path must move with it
  "shell_line.json": { description: "Run through a shell", args: ["line"], template: "bash -c {line}" },
  "broken.json": { description: "no template" },
  // reads another file: depends on the machine's roots, never prepared
  "uses_echo.json": { description: "Echo through an import", imports: { e: "echo_word.json" }, template: { name: "e", values: { word: "hi" } } },
};

function writeRoot(root: string): void {
  mkdirSync(root, { recursive: true });
  for (const [name, body] of Object.entries(recipes)) writeFileSync(join(root, name), JSON.stringify(body));
}

/** the build's step (scripts/bundle.mjs): prepare the compiles of `root` into `file`, with the
 *  list of an agent dir without a recipe root, which a discovery of `root` alone gives */
function prepare(root: string, file: string, version = VERSION): void {
  const files = readdirSync(root).sort().map((name) => ({ name, bytes: readFileSync(join(root, name)) }));
  const absentRoot = absentRootListOf(root, makeNodeScanPort(), join(dir, "build-has-no-agent-dir"));
  writeFileSync(file, preparePackagedCompiles(root, files, compileRecipe, version, absentRoot));
}

/** the prepared file with one entry's description changed: shows whether the entry was used */
function tamper(file: string, name: string, description: string): void {
  const p = JSON.parse(readFileSync(file, "utf8")) as { entries: Record<string, { compiled: { config: { description: string } } }> };
  p.entries[name]!.compiled.config.description = description;
  writeFileSync(file, JSON.stringify(p));
}

function discovery(packagedCompiles: string | null, version = VERSION): Discovery {
  const agent = join(dir, "agent");
  return openRegistry({
    env: { PI_CODING_AGENT_DIR: agent },
    packagedRoot: installRoot,
    packagedCompiles,
    compileCache: packagedCompiles === null ? false : { version },
    scan: makeNodeScanPort(),
  }).discover();
}

const description = (d: Discovery, id: string): string | undefined => d.entries.find((e) => e.id === id && e.path.startsWith(installRoot))?.facts?.description;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "pi-packaged-compiles-"));
  buildRoot = join(dir, "build", "recipes");
  installRoot = join(dir, "elsewhere", "node_modules", "pi-recipes", "recipes");
  writeRoot(buildRoot);
  cpSync(buildRoot, installRoot, { recursive: true });
  prepared = packagedCompilesFile(join(dir, "build"));
  prepare(buildRoot, prepared);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("the packaged component compiled by the build", () => {
  it("serves what compiling the files in their installed root gives (paths moved to that root)", () => {
    const served = discovery(prepared);
    expect(served).toEqual(discovery(null));
    const shell = served.entries.find((e) => e.id === "shell_line");
    expect(shell?.path).toBe(join(installRoot, "shell_line.json"));
    expect(served.diagnostics.some((d) => d.includes(join(installRoot, "shell_line.json")))).toBe(true);
    expect(JSON.stringify(served.entries)).not.toContain(buildRoot);
  });

  it("is used for the bytes it was compiled from, and only for them", () => {
    tamper(prepared, "echo_word.json", "from the prepared file");
    expect(description(discovery(prepared), "echo_word")).toBe("from the prepared file");
    writeFileSync(join(installRoot, "echo_word.json"), JSON.stringify({ description: "edited after the build", args: ["word"], template: "echo {word}" }));
    expect(description(discovery(prepared), "echo_word")).toBe("edited after the build");
  });

  it("is not used by another version of the code, nor when it is torn", () => {
    tamper(prepared, "echo_word.json", "from the prepared file");
    expect(description(discovery(prepared, "other+2"), "echo_word")).toBe("Echo a word");
    const text = readFileSync(prepared, "utf8");
    writeFileSync(prepared, text.slice(0, text.length - 10));
    expect(description(discovery(prepared), "echo_word")).toBe("Echo a word");
    rmSync(prepared);
    expect(discovery(prepared)).toEqual(discovery(null));
  });

  it("holds no recipe whose compile read another file", () => {
    const entries = Object.keys((JSON.parse(readFileSync(prepared, "utf8")) as { entries: object }).entries);
    expect(entries.sort()).toEqual(["broken.json", "echo_word.json", "shell_line.json"]);
    // and the importing recipe still resolves through the installed root
    expect(discovery(prepared).entries.find((e) => e.id === "uses_echo")?.path).toBe(join(installRoot, "uses_echo.json"));
  });
});

describe("the list of an agent dir without a recipe root, prepared by the build", () => {
  const agent = (): string => join(dir, "agent");
  /** what `list` shows for the agent dir (no recipe root in it): from the prepared file when it holds */
  const listed = (packagedCompiles: string | null, version = VERSION): ToolList =>
    openRegistry({ env: { PI_CODING_AGENT_DIR: agent() }, packagedRoot: installRoot, packagedCompiles, compileCache: { version }, scan: makeNodeScanPort() }).toolList().list;
  /** the prepared list with a name of its own added: shows whether it was used */
  const tamperList = (): void => {
    const p = JSON.parse(readFileSync(prepared, "utf8")) as { absentRoot: { list: { names: string[] } } };
    p.absentRoot.list.names.push("from_the_prepared_file");
    writeFileSync(prepared, JSON.stringify(p));
  };
  const usedPrepared = (version = VERSION): boolean => listed(prepared, version).names.includes("from_the_prepared_file");

  beforeEach(() => {
    // a packaged root whose recipes read no other file: every one of them prepared
    rmSync(join(buildRoot, "uses_echo.json"));
    rmSync(join(installRoot, "uses_echo.json"));
    prepare(buildRoot, prepared);
  });

  it("is what a discovery of the installed root gives, its texts naming that root", () => {
    const fresh = listed(null);
    expect(listed(prepared)).toEqual(fresh);
    // the broken packaged recipe is a problem of the list, named where it is installed
    expect(fresh.problems.some((p) => p.includes(join(installRoot, "broken.json")))).toBe(true);
    tamperList();
    expect(usedPrepared()).toBe(true);
  });

  it("is not used once a recipe root exists, a packaged file changed, came or went, or the root's write bits changed", () => {
    tamperList();
    const unused = (why: string, change: () => void, undo: () => void): void => {
      change();
      expect(usedPrepared(), why).toBe(false);
      undo();
      expect(usedPrepared(), `${why}, undone`).toBe(true);
    };
    const recipesDir = join(agent(), "recipes");
    unused("a recipe root", () => mkdirSync(recipesDir, { recursive: true }), () => rmSync(agent(), { recursive: true }));
    const echo = join(installRoot, "echo_word.json");
    const bytes = readFileSync(echo);
    unused("other bytes", () => writeFileSync(echo, Buffer.concat([bytes, Buffer.from(" ")])), () => writeFileSync(echo, bytes));
    unused("a file gone", () => rmSync(echo), () => writeFileSync(echo, bytes));
    const extra = join(installRoot, "new_one.json");
    unused("a file added", () => writeFileSync(extra, JSON.stringify({ description: "New", template: "echo new" })), () => rmSync(extra));
    const mode = statSync(installRoot).mode & 0o777;
    unused("group-writable", () => chmodSync(installRoot, mode | 0o020), () => chmodSync(installRoot, mode));
    expect(usedPrepared("other+2")).toBe(false);
  });

  it("is not kept when a packaged recipe read another file", () => {
    writeRoot(buildRoot);
    prepare(buildRoot, prepared);
    expect(JSON.parse(readFileSync(prepared, "utf8"))).not.toHaveProperty("absentRoot");
  });
});
