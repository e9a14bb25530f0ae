// The bundled build: the bundled entry points (scripts/bundle.mjs over the per-module output) run
// the CLI's verbs, find the run worker and the supervisor from inside their chunks, and answer
// --help without a registry. Built the way `npm run build` builds (one module per source file,
// assets, bundle) into a scratch folder inside the repository, with esbuild's metafile beside it,
// so the package root is found by walking up from dist/ and the dependencies are the repository's
// node_modules. The per-module step is esbuild's, as in the test build (test/support/test-build.ts),
// not tsc's: the modules are the same, 2 s of CPU instead of 17; the package's own tsc output is
// run by test/package/pack.test.ts from the tarball `npm pack` makes.
import { isAscii } from "node:buffer";
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import * as nodeModule from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SELF_WRAPPED } from "../../host-cli/code-cache.js";
import { repoRoot } from "../support/cli.js";
import { buildForTests } from "../support/test-build.js";
import { finished, runBox, type RunBox } from "../runtime/runs/support.js";
import { loadLogArgs, readLoadLog } from "../support/load-log.js";

// not under node_modules/, which may be a symbolic link (a git worktree's): the files a process
// loads are logged by their real paths, and must start with `out`
const scratch = join(repoRoot, ".cache", "bundle-test", String(process.pid));
const out = join(scratch, "dist");
// esbuild's account of the source modules in each output file (scripts/bundle.mjs writes it when asked)
const metafile = join(scratch, "meta.json");
let box: RunBox;

function run(args: readonly string[], env: NodeJS.ProcessEnv): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [join(out, "host-cli", "main.js"), ...args], { env: { ...process.env, ...env }, encoding: "utf8", timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

// Every file of the package a process loads (test/support/load-log.ts), and the source modules
// it ran: those of the files loaded (modulesIn below), except that of the command's one CommonJS
// file (host-cli/main.cjs) only the modules that ran count. esbuild makes each module the command
// imports on demand (a verb, the MCP server, the compile step) a function of the file named by the
// module's path, which evaluates it on first use; V8's coverage of the process (NODE_V8_COVERAGE)
// says which of those functions were called. The other modules of the file run when it loads.
function loadedFiles(args: readonly string[], env: NodeJS.ProcessEnv, input?: string, entry = "main.js"): { files: string[]; stdout: string; builtins: string[]; modules: string[] } {
  const log = join(out, `loaded-${Math.random().toString(36).slice(2)}.log`);
  const coverage = `${log}.coverage`;
  const r = spawnSync(process.execPath, [...loadLogArgs(log, join(out, "x.js")), join(out, "host-cli", entry), ...args], {
    env: { ...process.env, ...env, NODE_V8_COVERAGE: coverage },
    encoding: "utf8",
    timeout: 60_000,
    ...(input === undefined ? {} : { input }),
  });
  if (r.status !== 0) throw new Error(`pi-recipes ${args.join(" ")} failed (${r.status}): ${r.stderr}`);
  const { files: all, builtins } = readLoadLog(log);
  // the loader reports real paths: node_modules may be a symbolic link (a git worktree's)
  const real = realpathSync(out);
  const files = all.filter((f) => f.startsWith(real)).map((f) => join(out, f.slice(real.length)));
  const command = join(out, "host-cli", "main.cjs");
  const ran = files.includes(command) ? modulesRunIn(command, coverage) : [];
  rmSync(coverage, { recursive: true, force: true });
  return { files, stdout: r.stdout, builtins, modules: [...modulesIn(files.filter((f) => f !== command)), ...ran] };
}

/** The modules of the CommonJS file `file` that ran in the process whose V8 coverage is in `dir`. */
function modulesRunIn(file: string, dir: string): string[] {
  type Fn = { functionName: string; ranges: { count: number }[] };
  const scripts = readdirSync(dir).flatMap((f) => (JSON.parse(readFileSync(join(dir, f), "utf8")) as { result: { url: string; functions: Fn[] }[] }).result);
  const script = scripts.find((s) => s.url === pathToFileURL(realpathSync(file)).href || s.url === file);
  if (script === undefined) throw new Error(`no coverage of ${file}`);
  const inFile = modulesIn([file]);
  const onDemand = new Map(script.functions.map((fn) => [fn.functionName, fn.ranges[0]!.count > 0]));
  return inFile.filter((m) => onDemand.get(m) ?? true);
}

// the YAML parser's own code (js-yaml), however it is bundled: one of its string literals
const holdsYaml = (file: string): boolean => readFileSync(file, "utf8").includes(`"YAMLException"`);
// jsonc-parser's (which looks for a key a JSON recipe names twice): one of its string literals
const holdsJsonc = (file: string): boolean => readFileSync(file, "utf8").includes("InvalidCommentToken");
// and ajv's (bundled into the MCP SDK's chunk if it were imported eagerly)
const holdsAjv = (file: string): boolean => readFileSync(file, "utf8").includes("ajv implementation error");

beforeAll(async () => {
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  await buildForTests(repoRoot, out, metafile);
  box = runBox();
  box.recipe("shout", { description: "Shout a word", args: ["word"], template: ["echo {word}", "tr a-z A-Z"] });
  box.recipe("later", { description: "Echo later", async: true, args: ["word"], template: "echo {word}" });
}, 600_000);
afterAll(() => {
  box?.cleanup();
  rmSync(scratch, { recursive: true, force: true });
});

/** The source modules (paths from the package root, libraries by their node_modules path) that the
 *  files `files` of the bundle hold, with every file they import statically (which is loaded with
 *  them, whether or not the load log named it). */
function modulesIn(files: readonly string[]): string[] {
  type Output = { inputs: Record<string, unknown>; imports: { path: string; kind: string }[] };
  const meta = JSON.parse(readFileSync(metafile, "utf8")) as { outputs: Record<string, Output> };
  const outputs = new Map(Object.entries(meta.outputs).map(([path, o]) => [join(repoRoot, path), o]));
  const loaded = new Set<string>();
  const visit = (file: string): void => {
    if (loaded.has(file)) return;
    loaded.add(file);
    for (const i of outputs.get(file)?.imports ?? []) if (i.kind === "import-statement") visit(join(repoRoot, i.path));
  };
  files.forEach(visit);
  return [...loaded].flatMap((f) => Object.keys(outputs.get(f)?.inputs ?? {})).map((m) => m.replace(/^(\.\.\/)+[^/]+\/node_modules\//, "node_modules/"));
}

// The compile step and what only it needs: the recipe decoder (core/recipe/), the template checks;
// the YAML parser, jsonc-parser and ajv come as files of their own (chunks/js-yaml.cjs,
// chunks/jsonc-parser.cjs, chunks/ajv.cjs).
// The field table (core/recipe/fields.ts, with the io-ts codecs its rows carry) is not counted: the
// usage ledger, which every command settles, fingerprints a revision by the fields the table marks
// executable (docs/performance.md says what splitting the flags from the codecs would save).
const isCompileCode = (module: string): boolean =>
  module !== "core/recipe/fields.ts" && /^core\/recipe\/|^core\/compile\/(compile-recipe|compile-template|template-survey)\.ts$|node_modules\/(js-yaml|jsonc-parser|ajv)\//.test(module);

describe("the bundled build", () => {
  it("runs the command from one CommonJS file, each verb evaluated on demand; the Pi extension has its chunks", () => {
    const main = join(out, "host-cli", "main.js");
    expect(readFileSync(main, "utf8").startsWith("#!/usr/bin/env node\n")).toBe(true);
    // run by its #! line (`node .../main.js mcp` in an MCP client's settings, or directly): executable
    expect(statSync(main).mode & 0o111).toBe(0o111);
    // main.js holds only what runs main.cjs; main.cjs holds the command, each verb a function
    // that evaluates its module on first use
    expect(modulesIn([main]).sort()).toEqual(["host-cli/code-cache.ts", "host-cli/main-entry.ts", "host-cli/node-compile-cache.ts"]);
    const command = readFileSync(join(out, "host-cli", "main.cjs"), "utf8");
    // (the file is minified: no space before the brace)
    for (const verb of ["list", "call", "mcp"]) expect(command).toMatch(new RegExp(`"host-cli/verbs/${verb}-command\\.ts"\\(\\)\\s*\\{`));
    // the file names no path of the machine that built it
    expect(command).not.toContain(repoRoot);
    // and is ASCII only: the code cache's loader then makes its text without decoding UTF-8
    expect(isAscii(readFileSync(join(out, "host-cli", "main.cjs")))).toBe(true);
    // written inside node's module function, in the form the loader compiles as it is
    expect(command.split("\n")[1]).toBe(SELF_WRAPPED);
    expect(command.trimEnd().endsWith("\n});")).toBe(true);
    expect(readFileSync(join(out, "host-pi", "index.js"), "utf8")).toContain("createPiRecipesExtension");
  });

  it("--help lists every verb, with no recipe root at all", () => {
    const help = run(["--help"], { PI_CODING_AGENT_DIR: join(box.dir, "no-such-agent") });
    expect(help.status).toBe(0);
    for (const verb of ["inspect target=recipes", "list ", "call <tool>", "register_tool ", "mcp ", "watch "]) expect(help.stdout).toContain(verb);
  });

  it("--help and <verb> --help load the help texts only: no verb's code, no registry", () => {
    // the help of every verb is one module (host-cli/verbs/help-texts.ts); the verbs' own modules
    // (host-cli/verbs/*-command.ts), and the session and registry their runs open, are never loaded
    const env = { PI_CODING_AGENT_DIR: join(box.dir, "no-such-agent") };
    for (const args of [["--help"], ["call", "--help"], ["help", "inspect"]]) {
      const { stdout, modules } = loadedFiles(args, env);
      expect(stdout, args.join(" ")).toContain("usage:");
      expect(modules).toContain("host-cli/verbs/help-texts.ts");
      expect(modules.filter((m) => /^host-cli\/verbs\/[a-z-]+-command\.ts$|^runtime\/(registry|session|settle|compile-cache)\.ts$/.test(m)), args.join(" ")).toEqual([]);
    }
  });

  it("list on a root without a Markdown recipe loads no YAML parser; a .md recipe still gets its frontmatter parsed", () => {
    const plain = loadedFiles(["list"], box.env);
    expect(plain.stdout).toContain("shout");
    // the detector is checked on the same build: the .md root below must load it
    expect(plain.files.filter(holdsYaml)).toEqual([]);

    const md = runBox();
    try {
      // not plain `field: value` lines (a folded scalar, a flow list): only the library reads this
      writeFileSync(
        join(md.agent, "recipes", "greet.md"),
        "---\ndescription: >\n  Greet someone\n  by name\nargs: [who]\n---\n\n```template\necho hello {who}\n```\n",
      );
      const withMd = loadedFiles(["list"], md.env);
      expect(withMd.stdout).toContain("greet");
      expect(withMd.files.filter(holdsYaml)).toEqual([join(out, "chunks", "js-yaml.cjs")]);
      const described = run(["inspect", "target=tool:greet", "--json"], md.env);
      expect(described.status).toBe(0);
      expect(described.stdout).toContain("Greet someone by name");
      const call = run(["call", "greet", "who=yaml"], md.env);
      expect(call.stdout).toContain("hello yaml");
    } finally {
      md.cleanup();
    }
  });

  it("a cold list loads jsonc-parser only for a JSON recipe that may name a key twice, and warns of it", () => {
    const plain = runBox();
    try {
      plain.recipe("greet", { description: "Greet someone", args: ["who"], template: "echo hello {who}" });
      const cold = loadedFiles(["list"], plain.env);
      expect(cold.stdout).toContain("greet");
      // it compiled (the detector below sees compile code), yet read no duplicate-key parser
      expect(cold.modules.some(isCompileCode)).toBe(true);
      expect(cold.files.filter(holdsJsonc)).toEqual([]);

      writeFileSync(join(plain.agent, "recipes", "twice.json"), '{"description": "d", "template": "echo one", "template": "echo two"}');
      const withDuplicate = loadedFiles(["list"], plain.env);
      expect(withDuplicate.stdout).toContain("twice");
      expect(withDuplicate.files.filter(holdsJsonc)).toEqual([join(out, "chunks", "jsonc-parser.cjs")]);
      const summary = run(["inspect", "target=recipes", "view=summary"], plain.env);
      expect(summary.stdout).toContain('twice.json: duplicate key "template" at line 1, column 46: JSON keeps the last value');
      expect(run(["call", "twice"], plain.env).stdout).toBe("two\n");
    } finally {
      plain.cleanup();
    }
  });

  it("the MCP server answers tools/list without loading ajv (the SDK's elicitation checks)", () => {
    const rpc = (id: number | undefined, method: string, params?: object): string =>
      JSON.stringify({ jsonrpc: "2.0", ...(id === undefined ? {} : { id }), method, ...(params === undefined ? {} : { params }) });
    const input = [
      rpc(1, "initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bundle-test", version: "1" } }),
      rpc(undefined, "notifications/initialized"),
      rpc(2, "tools/list"),
    ].join("\n");
    // the server stops when its stdin ends, after answering what it was sent
    const mcp = loadedFiles(["mcp"], box.env, `${input}\n`);
    const answers = mcp.stdout.trim().split("\n").map((l) => JSON.parse(l) as { id?: number; result?: { tools?: { name: string }[] } });
    const names = answers.find((a) => a.id === 2)?.result?.tools?.map((t) => t.name) ?? [];
    expect(names).toEqual(expect.arrayContaining(["register_tool", "inspect", "shout"]));
    expect(mcp.modules.some((m) => /\/server\/stdio\.js$/.test(m))).toBe(true);
    expect(mcp.files.filter(holdsAjv)).toEqual([]);
    expect(readdirSync(join(out, "chunks")).map((n) => join(out, "chunks", n)).filter(holdsAjv)).toEqual([join(out, "chunks", "ajv.cjs")]);
  });

  it("a list whose recipes the compile cache serves loads no compile code, no YAML parser and no ajv", () => {
    const warm = runBox();
    try {
      warm.recipe("greet", { description: "Greet someone", args: ["who"], template: "echo hello {who}" });
      // the first list compiles and fills the cache; a second settles an entry whose file was
      // written in the pass's own clock tick (checked by content once, then trusted)
      for (let i = 0; i < 2; i++) expect(run(["list"], warm.env).stdout).toContain("greet");
      const listed = loadedFiles(["list"], warm.env);
      expect(listed.stdout).toContain("greet");
      // (the detector sees the command's modules: the list's own ran)
      expect(listed.modules).toContain("runtime/verbs/list.ts");
      expect(listed.modules.filter(isCompileCode)).toEqual([]);
      expect(listed.files.filter((f) => holdsYaml(f) || holdsAjv(f))).toEqual([]);
      // register_tool with no fields is the same listing, from the same cache
      const registered = loadedFiles(["register_tool"], warm.env);
      expect(registered.stdout).toBe(listed.stdout);
      expect(registered.modules.filter(isCompileCode)).toEqual([]);
      expect(registered.files.filter((f) => holdsYaml(f) || holdsAjv(f))).toEqual([]);

      // the detector, on the same build: without the cache the list compiles, and loads the code
      rmSync(join(warm.agent, "recipes", ".cache"), { recursive: true, force: true });
      const cold = loadedFiles(["list"], warm.env);
      expect(cold.stdout).toContain("greet");
      expect(cold.modules).toEqual(expect.arrayContaining(["core/compile/compile-recipe.ts", "core/recipe/load.ts"]));
    } finally {
      warm.cleanup();
    }
  });

  it("the packaged component is compiled by the build: a list on an empty agent dir compiles nothing", () => {
    const env = { PI_CODING_AGENT_DIR: join(box.dir, "no-agent-yet") };
    // no recipe root, so no compile cache: the build's compiles of recipes/ are all there is
    const listed = loadedFiles(["list"], env);
    expect(listed.modules.filter(isCompileCode)).toEqual([]);
    // the build's compiles are checked against the packaged bytes themselves, not by a digest
    expect(listed.builtins).not.toContain("crypto");
    const summary = run(["inspect", "target=recipes", "view=summary"], env);
    expect(summary.status).toBe(0);
    expect(summary.stdout).toContain("components: git_status");
    // and the detector: the same list without the build's compiles compiles the packaged recipe
    const prepared = join(out, "packaged-compiles.json");
    renameSync(prepared, `${prepared}.aside`);
    try {
      expect(loadedFiles(["list"], env).modules).toContain("core/compile/compile-recipe.ts");
    } finally {
      renameSync(`${prepared}.aside`, prepared);
    }
  });

  it("list loads no usage-ledger store, journal engine or io-ts; a call loads them to count its launch", () => {
    // the ledger's context (its paths, the launch log's handle) opens with every session; the rest
    // of the ledger is its store: folds, accounting, recovery, and the journal engine under them.
    // A list first checks for plans a killed command left pending (runtime/settle.ts): by the
    // journals' file names and the review's state, without loading what would settle them.
    const isStoreCode = (module: string): boolean =>
      /^runtime\/(ledger\/(?!ledger-context|ledger-paths|launch-log)|journal\/|accounting|startup)|^core\/(ledger\/(?!carried-usage)|journal\/(?!journal-suffix))|node_modules\/io-ts\//.test(module);
    // a call first, so that the usage folder exists and the list checks for pending plans; then
    // warm: a cold list compiles, and the recipe decoder is written with io-ts
    expect(run(["call", "shout", "word=first"], box.env).status).toBe(0);
    for (let i = 0; i < 2; i++) run(["list"], box.env);
    const listed = loadedFiles(["list"], box.env);
    expect(listed.stdout).toContain("shout");
    expect(listed.modules.filter(isStoreCode)).toEqual([]);
    // nor the help texts, which only help prints
    expect(listed.modules).not.toContain("host-cli/verbs/help-texts.ts");
    // nor node:crypto (twenty-odd internal modules): nothing on a warm list's way hashes or draws an id
    expect(listed.builtins).not.toContain("crypto");
    const called = loadedFiles(["call", "shout", "word=counted"], box.env);
    expect(called.stdout).toContain("COUNTED");
    expect(called.modules).toEqual(expect.arrayContaining(["runtime/ledger/account-launch.ts", "runtime/journal/run-plan.ts", "node_modules/io-ts/es6/index.js"]));
    // the detector: a launch's log seals its lines with a digest
    expect(called.builtins).toContain("crypto");
    // node:perf_hooks (ten internal modules) is not loaded for a call's timing: process.hrtime is
    expect(called.builtins).not.toContain("perf_hooks");
    // the command's entry, dist/host-cli/main.js, is an ES module: the load log names those too
    expect(called.files).toContain(join(out, "host-cli", "main.js"));
  });

  it("the installed command answers --version, help, a provable list and a kept inspect from its one file; anything else loads the full command", () => {
    const bin = (JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { bin: Record<string, string> }).bin["pi-recipes"];
    expect(bin).toBe("dist/host-cli/pi-recipes.cjs");
    const door = join(out, "host-cli", "pi-recipes.cjs");
    expect(readFileSync(door, "utf8").startsWith("#!/usr/bin/env node\n")).toBe(true);
    expect(statSync(door).mode & 0o111).toBe(0o111);
    // what the file holds: none of the compile code, io-ts, or the libraries loaded lazily
    expect(modulesIn([door]).filter((m) => isCompileCode(m) || /node_modules\/(io-ts|js-yaml|jsonc-parser|ajv)\//.test(m))).toEqual([]);
    const viaDoor = (args: readonly string[], env: NodeJS.ProcessEnv): { files: string[]; stdout: string } => {
      const { files, stdout } = loadedFiles(args, env, undefined, "pi-recipes.cjs");
      return { files, stdout };
    };

    // an agent dir without a recipe root: the list the build prepared
    const none = { PI_CODING_AGENT_DIR: join(box.dir, "no-agent-at-all") };
    expect(viaDoor(["list"], none)).toEqual({ files: [door], stdout: "No registered tools.\n" });
    expect(viaDoor(["--version", "--json"], none).files).toEqual([door]);
    expect(viaDoor(["call", "--help"], none).files).toEqual([door]);

    const warm = runBox();
    try {
      warm.recipe("greet", { description: "Greet someone", args: ["who"], template: "echo hello {who}" });
      // the full command writes the list index (a second pass settles a file as new as the first)
      for (let i = 0; i < 2; i++) expect(run(["list"], warm.env).stdout).toContain("greet");
      const answered = viaDoor(["list"], warm.env);
      expect(answered).toEqual({ files: [door], stdout: "Registered tools:\n- greet\n" });
      // the answer the view cache kept for an inspect (the second computation keeps it)
      const summary = ["inspect", "target=recipes", "view=summary", "--json"];
      for (let i = 0; i < 2; i++) expect(run(summary, warm.env).status).toBe(0);
      const kept = viaDoor(summary, warm.env);
      expect(kept.files).toEqual([door]);
      expect(kept.stdout).toBe(run(summary, warm.env).stdout);
      // a recipe added since: the index no longer holds, the full command discovers
      warm.recipe("wave", { description: "Wave", args: ["who"], template: "echo bye {who}" });
      const changed = viaDoor(["list"], warm.env);
      expect(changed.stdout).toContain("- wave");
      expect(changed.files).toContain(join(out, "host-cli", "main.cjs"));
      // another verb, and a list with an argument (a usage error the full command words)
      expect(viaDoor(["inspect", "target=tool:greet"], warm.env).files).toContain(join(out, "host-cli", "main.cjs"));
      const bad = spawnSync(process.execPath, [door, "list", "extra"], { env: { ...process.env, ...warm.env }, encoding: "utf8" });
      expect(bad.status).toBe(2);
      expect(bad.stderr).toContain("list takes key=value arguments only");
    } finally {
      warm.cleanup();
    }
  });

  it("list and call run a recipe", () => {
    const list = run(["list"], box.env);
    expect(list.status).toBe(0);
    expect(list.stdout).toContain("shout");
    const call = run(["call", "shout", "word=loud"], box.env);
    expect(call.stderr).toBe("");
    expect(call.stdout).toContain("LOUD");
    expect(call.status).toBe(0);
    // on a Node without a code cache of its own, the command keeps V8's code beside main.cjs
    // (host-cli/code-cache.ts), naming the file it was made from
    if (typeof (nodeModule as { getCompileCacheDir?: unknown }).getCompileCacheDir !== "function") {
      const kept = readFileSync(join(out, "host-cli", ".main.cjs.v8"));
      const s = statSync(join(out, "host-cli", "main.cjs"), { bigint: true });
      expect(kept.subarray(0, kept.indexOf(0x0a)).toString()).toBe(`pi-recipes-code-cache/1 ${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs} ${process.version} ${process.arch}`);
    }
  });

  it("an async call starts the run worker under its supervisor, from inside the chunks", async () => {
    const call = run(["call", "later", "word=done", "run_id=bundled-1"], box.env);
    expect(call.status).toBe(0);
    expect(call.stdout.split("\n")[0]).toMatch(/^run bundled-1 tool=later status=running/);
    expect(await finished(box.runsRoot, "bundled-1")).toMatchObject({ status: "succeeded", exit_code: 0 });
    expect(run(["inspect", "target=run:bundled-1"], box.env).stdout).toContain("result:\ndone");
  });
});
