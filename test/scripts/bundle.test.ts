// The shipped build: the bundled entry points (scripts/bundle.mjs over the tsc output) run the
// CLI's verbs, find the run worker and the supervisor from inside their chunks, and answer
// --help without a registry. The build is the one the package ships: this run's `npm pack`
// tarball (its `prepare` script runs the build; test/support/packed-package.ts makes it once per
// run), unpacked into a scratch folder inside the repository, so the package root is found by
// walking up from dist/ and the dependencies are the repository's node_modules.
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../support/cli.js";
import { packedTarball } from "../support/packed-package.js";
import { finished, runBox, type RunBox } from "../runtime/runs/support.js";

// not under node_modules/, which may be a symbolic link (a git worktree's): the files a process
// loads are logged by their real paths, and must start with `out`
const scratch = join(repoRoot, ".cache", "bundle-test", String(process.pid));
const out = join(scratch, "package", "dist");
let box: RunBox;

function run(args: readonly string[], env: NodeJS.ProcessEnv): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [join(out, "host-cli", "main.js"), ...args], { env: { ...process.env, ...env }, encoding: "utf8", timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}


// Every file a process loads, ES module or CommonJS: a preloaded module registers a loader hook
// that writes each ES module's URL to a log, and at exit adds what `require` has cached (the hook
// does not see `require` on Node 20). Returns the paths of the files from the package itself.
function loadedFiles(args: readonly string[], env: NodeJS.ProcessEnv, input?: string): { files: string[]; stdout: string } {
  const log = join(out, `loaded-${Math.random().toString(36).slice(2)}.log`);
  const hook = `import { appendFileSync } from "node:fs";
export async function load(url, context, next) { appendFileSync(${JSON.stringify(log)}, url + "\\n"); return next(url, context); }`;
  const preload = `import { register, createRequire } from "node:module";
import { appendFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hook)}`)});
process.on("exit", () => appendFileSync(${JSON.stringify(log)}, Object.keys(createRequire(${JSON.stringify(join(out, "x.js"))}).cache).map((f) => pathToFileURL(f).href + "\\n").join("")));`;
  const r = spawnSync(process.execPath, ["--import", `data:text/javascript,${encodeURIComponent(preload)}`, join(out, "host-cli", "main.js"), ...args], {
    env: { ...process.env, ...env },
    encoding: "utf8",
    timeout: 60_000,
    ...(input === undefined ? {} : { input }),
  });
  if (r.status !== 0) throw new Error(`pi-recipes ${args.join(" ")} failed (${r.status}): ${r.stderr}`);
  const urls = readFileSync(log, "utf8").split("\n").filter((u) => u.startsWith(`file:`));
  rmSync(log);
  return { files: [...new Set(urls.map((u) => fileURLToPath(u)))].filter((f) => f.startsWith(out)), stdout: r.stdout };
}

// the yaml library's own code, however it is bundled: one of its string literals
const holdsYaml = (file: string): boolean => readFileSync(file, "utf8").includes(`"YAMLParseError"`);
// and ajv's (bundled into the MCP SDK's chunk if it were imported eagerly)
const holdsAjv = (file: string): boolean => readFileSync(file, "utf8").includes("ajv implementation error");

beforeAll(async () => {
  const tarball = await packedTarball();
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });
  const untar = spawnSync("tar", ["-xzf", tarball, "-C", scratch], { encoding: "utf8" });
  if (untar.status !== 0) throw new Error(`tar -xzf ${tarball} failed: ${untar.stderr}`);
  box = runBox();
  box.recipe("shout", { description: "Shout a word", args: ["word"], template: ["echo {word}", "tr a-z A-Z"] });
  box.recipe("later", { description: "Echo later", async: true, args: ["word"], template: "echo {word}" });
}, 600_000);
afterAll(() => {
  box?.cleanup();
  rmSync(scratch, { recursive: true, force: true });
});

describe("the bundled build", () => {
  it("has one file per entry point, with the verbs in chunks beside it", () => {
    const main = readFileSync(join(out, "host-cli", "main.js"), "utf8");
    expect(main.startsWith("#!/usr/bin/env node\n")).toBe(true);
    // the entry imports only shared helpers statically; every verb is a dynamic import
    expect(main).toMatch(/import\("\.\.\/chunks\/list-command-[A-Z0-9]+\.js"\)/);
    expect(readdirSync(join(out, "chunks")).some((n) => /^mcp-command-[A-Z0-9]+\.js$/.test(n))).toBe(true);
    expect(readFileSync(join(out, "host-pi", "index.js"), "utf8")).toContain("createPiRecipesExtension");
  });

  it("--help lists every verb, with no recipe root at all", () => {
    const help = run(["--help"], { PI_CODING_AGENT_DIR: join(box.dir, "no-such-agent") });
    expect(help.status).toBe(0);
    for (const verb of ["inspect target=recipes", "list ", "call <tool>", "register_tool ", "mcp ", "watch "]) expect(help.stdout).toContain(verb);
  });

  it("--help loads no registry: the verb chunks hold the usage lines, the runtime is imported by run()", () => {
    // what `--help` loads: the entry, every verb chunk, and whatever those import statically
    const staticImports = (file: string): string[] =>
      [...readFileSync(file, "utf8").matchAll(/^(?:import|export)\b[^;]*?\bfrom\s*"(\.[^"]+)"/gm)].map((m) => join(file, "..", m[1]!));
    const main = join(out, "host-cli", "main.js");
    const verbChunks = [...readFileSync(main, "utf8").matchAll(/import\("\.\.\/chunks\/([a-z-]+-[A-Z0-9]+\.js)"\)/g)].map((m) => join(out, "chunks", m[1]!));
    expect(verbChunks.length).toBeGreaterThanOrEqual(10);
    const loaded = new Set<string>();
    const visit = (file: string): void => {
      if (loaded.has(file)) return;
      loaded.add(file);
      for (const dep of staticImports(file)) visit(dep);
    };
    for (const f of [main, ...verbChunks]) visit(f);
    const heavy = [...loaded].filter((f) => /function (openRegistry|openSession|openLiveRegistry|discover)\d*\(/.test(readFileSync(f, "utf8")));
    expect(heavy).toEqual([]);
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
      expect(withMd.files.filter(holdsYaml)).toHaveLength(1);
      const described = run(["inspect", "target=tool:greet", "--json"], md.env);
      expect(described.status).toBe(0);
      expect(described.stdout).toContain("Greet someone by name");
      const call = run(["call", "greet", "who=yaml"], md.env);
      expect(call.stdout).toContain("hello yaml");
    } finally {
      md.cleanup();
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
    expect(mcp.files.some((f) => /\/chunks\/stdio-[A-Z0-9]+\.js$/.test(f))).toBe(true);
    expect(mcp.files.filter(holdsAjv)).toEqual([]);
    expect(readdirSync(join(out, "chunks")).map((n) => join(out, "chunks", n)).filter(holdsAjv)).toEqual([join(out, "chunks", "ajv.cjs")]);
  });

  it("list and call run a recipe", () => {
    const list = run(["list"], box.env);
    expect(list.status).toBe(0);
    expect(list.stdout).toContain("shout");
    const call = run(["call", "shout", "word=loud"], box.env);
    expect(call.stderr).toBe("");
    expect(call.stdout).toContain("LOUD");
    expect(call.status).toBe(0);
  });

  it("an async call starts the run worker under its supervisor, from inside the chunks", async () => {
    const call = run(["call", "later", "word=done", "run_id=bundled-1"], box.env);
    expect(call.status).toBe(0);
    expect(call.stdout.split("\n")[0]).toMatch(/^run bundled-1 tool=later status=running/);
    expect(await finished(box.runsRoot, "bundled-1")).toMatchObject({ status: "succeeded", exit_code: 0 });
    expect(run(["inspect", "target=run:bundled-1"], box.env).stdout).toContain("result:\ndone");
  });
});
