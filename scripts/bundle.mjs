// The shipped entry points as bundles, so that a process reads a few files instead of resolving a
// few hundred modules (fp-ts alone is dozens of CommonJS files), which is most of start-up:
// - the command (host-cli/main.ts) as one CommonJS file, dist/host-cli/main.cjs, which node 20
//   loads faster than an ES module graph of the same code and which can be run with V8's cache of
//   compiled code (host-cli/code-cache.ts). A verb's code is in it, but runs only when that verb
//   is asked for: a module the command imports with `import()` (each verb, the MCP server) is
//   bundled as a function that evaluates it on first use. dist/host-cli/main.js runs it;
// - the installed command's front door (host-cli/front-door.ts), see FRONT_DOOR below;
// - the Pi extension (host-pi/index.ts) as an ES module with the code it loads on demand split
//   into chunks (dist/chunks/).
// The per-file output of `tsc` stays beside the bundles: the bench, the run worker and the
// supervisor run from it, and module-relative paths point into it (see `moduleUrl` below).
import { createHash } from "node:crypto";
import { chmod, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const ENTRIES = ["host-pi/index.ts"];
// `node scripts/bundle.mjs [outdir] [metafile]`: dist/ unless told (the bundle test builds
// elsewhere); with a metafile path, esbuild's account of which source module went into which output
// file is written there (the bundle test maps the files a process loaded back to modules)
const outdir = resolve(root, process.argv[2] ?? "dist");
const metafile = process.argv[3] === undefined ? undefined : resolve(root, process.argv[3]);

// Code that finds files next to itself (`new URL("./supervisor.mjs", import.meta.url)`, the
// package.json walk-up, the run worker) must keep seeing its own place in dist/, not the chunk it
// was bundled into. Every entry and chunk sits two folders below the package root
// (dist/host-cli/main.js, dist/chunks/x.js), so "../<module>.js" from the output file is the
// module's own compiled path.
const moduleUrl = {
  name: "module-url",
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, async (args) => {
      const text = await readFile(args.path, "utf8");
      const rel = relative(root, args.path).split("\\").join("/");
      if (rel.startsWith("..") || rel.startsWith("node_modules/") || !text.includes("import.meta.url")) return undefined;
      const own = JSON.stringify(`../${rel.replace(/\.ts$/, ".js")}`);
      return { contents: text.replaceAll("import.meta.url", `new URL(${own}, import.meta.url).href`), loader: "ts" };
    });
  },
};

// fp-ts and io-ts ship ES modules beside their CommonJS files (`es6/`): bundling those leaves out
// the CommonJS interop, which copied every export of fp-ts/lib/Either into each importing module.
const esModules = {
  name: "es-modules",
  setup(b) {
    b.onResolve({ filter: /^(fp-ts\/lib\/|io-ts$)/ }, (args) => {
      const target = args.path === "io-ts" ? "io-ts/es6/index.js" : args.path.replace("fp-ts/lib/", "fp-ts/es6/");
      return b.resolve(target, { kind: args.kind, resolveDir: args.resolveDir });
    });
  },
};

// Libraries a common path never calls, yet whose code would be most of what that path loads:
// - `js-yaml` reads the frontmatter of a Markdown recipe, needed only when one is compiled (the
//   compile cache serves the others); a YAML parser was most of what every discovery loaded, even
//   on a root without a `.md` file (`yaml`, before it, was 300 kB of 400);
// - `ajv` (with `ajv-formats`) checks the answers of MCP elicitation, which the MCP server never
//   requests (host-mcp/server.ts builds its validator on first use), yet the SDK imports it;
// - `jsonc-parser` finds a key a JSON recipe's object names twice, read only for a file whose
//   text may hold one (core/recipe/duplicate-keys.ts), which nearly none does.
// Discovery is synchronous, so they cannot be an `import()` at the point of use. Instead the
// bundles see a stand-in for each that loads the library, bundled on its own as one CommonJS
// file (chunks/<name>.cjs), with a synchronous require the first time one of its exports is
// called. A stand-in offers only the names listed here: a new import of another name fails the
// build ("No matching export") until it is added, so no import can silently skip the lazy path.
// Classes are called through a function that constructs the real class (`new Type(...)` then
// yields the library's own object, which the library's `instanceof` checks accept); "default" is
// the CommonJS module's `default` export, or the module itself. An "object" (js-yaml's
// FAILSAFE_SCHEMA) is a Proxy whose property reads load the library and read the real object's,
// with a method bound to the real object: only reads and `in` are offered, so the importing code
// must use it by its properties (core/recipe/frontmatter.ts calls `FAILSAFE_SCHEMA.extend` on
// its first parse, not when it is imported).
/** The first lines of a stand-in: `fn()` requires `file` (a path from the package root) once, on
 *  its first call, and yields the export `pick` of it (`""`: the module itself). */
const standInLoader = (fn, file, pick) => [
  'import { createRequire } from "node:module";',
  "let loaded;",
  // every entry and chunk sits two folders below the package root (see moduleUrl)
  `const ${fn} = () => (loaded ??= createRequire(import.meta.url)(${JSON.stringify(`../${file}`)}))${pick};`,
];
const LAZY_LIBRARIES = [
  { file: "chunks/js-yaml.cjs", modules: { "js-yaml": { load: "function", Type: "class", FAILSAFE_SCHEMA: "object" } } },
  { file: "chunks/ajv.cjs", modules: { ajv: { default: "class" }, "ajv-formats": { default: "function" } } },
  // its `main` is a UMD module that requires its parts through a `require` handed to it as an
  // argument, which a bundler cannot follow: its ES module build (`module`) is bundled instead
  { file: "chunks/jsonc-parser.cjs", modules: { "jsonc-parser": { visit: "function" } }, mainFields: ["module", "main"] },
];
const lazyModules = new Map(LAZY_LIBRARIES.flatMap((lib) => Object.entries(lib.modules).map(([name, names]) => [name, { file: lib.file, names }])));
const lazyLibraries = {
  name: "lazy-libraries",
  setup(b) {
    b.onResolve({ filter: /^[a-z-]+$/ }, (args) => (lazyModules.has(args.path) ? { path: args.path, namespace: "lazy-library" } : undefined));
    b.onLoad({ filter: /.*/, namespace: "lazy-library" }, (args) => {
      const { file, names } = lazyModules.get(args.path);
      const real = (name) => (name === "default" ? "(lib().default ?? lib())" : `lib().${name}`);
      const exported = (name, body) => (name === "default" ? `export default function (...args) { ${body} }` : `export function ${name}(...args) { ${body} }`);
      return {
        loader: "js",
        resolveDir: root,
        contents: [
          ...standInLoader("lib", file, `[${JSON.stringify(args.path)}]`),
          ...Object.entries(names).map(([name, kind]) =>
            kind === "object"
              ? `export const ${name} = new Proxy({}, { get(_, key) { const real = ${real(name)}, v = Reflect.get(real, key); return typeof v === "function" ? v.bind(real) : v; }, has: (_, key) => Reflect.has(${real(name)}, key) });`
              : exported(name, kind === "class" ? `return new (${real(name)})(...args);` : `return ${real(name)}(...args);`),
          ),
        ].join("\n"),
      };
    });
  },
};

// Our own code a warm start never runs, yet which would be most of what it loads: the compile step
// (runtime/compile-step.ts), with everything it brings (the recipe decoder, io-ts, the template
// checks). A process whose recipes the compile cache serves compiles nothing, so the module is an
// entry of its own (chunks/<name>.js) and every import of it gets a stand-in that loads that entry
// with a synchronous require the first time one of its functions is called (discovery is
// synchronous; Node 20.19 and later require an ES module). The entry shares the chunks of the
// modules both sides use, so each module still exists once in the process. Only functions can be
// offered: the stand-in lists their names, and an import of another name fails the build.
const LAZY_MODULES = [{ module: "runtime/compile-step.ts", out: "chunks/compile-step", names: ["compileStep"] }];
const lazyModuleAt = new Map(LAZY_MODULES.map((m) => [join(root, m.module), m]));
// `inline`: the stand-in for the command's one CommonJS file (see the top of this file), where the
// module is bundled like every other and the stand-in requires it on the first call: esbuild then
// makes the module (and what it imports) a function that evaluates it then, so the file holds the
// compile code but a warm process never runs it. Otherwise (the Pi extension's chunks) the
// stand-in requires the module's own entry, chunks/<name>.js.
const lazyOwnModules = (inline) => ({
  name: inline ? "lazy-own-modules-inline" : "lazy-own-modules",
  setup(b) {
    const base = LAZY_MODULES.map((m) => m.module.slice(m.module.lastIndexOf("/") + 1).replace(/\.ts$/, "")).join("|");
    b.onResolve({ filter: new RegExp(`/(${base})\\.js$`) }, (args) => {
      if (args.kind === "entry-point") return undefined;
      const target = resolve(args.resolveDir, args.path).replace(/\.js$/, ".ts");
      // named from the package root: the bundle holds no path of the machine that built it
      return lazyModuleAt.has(target) ? { path: relative(root, target).split("\\").join("/"), namespace: "lazy-module" } : undefined;
    });
    b.onLoad({ filter: /.*/, namespace: "lazy-module" }, (args) => {
      const { out, names } = lazyModuleAt.get(join(root, args.path));
      const loader = inline ? ["let loaded;", `const real = () => (loaded ??= require(${JSON.stringify(`./${args.path}`)}));`] : standInLoader("real", `${out}.js`, "");
      return {
        loader: "js",
        resolveDir: root,
        contents: [...loader, ...names.map((name) => `export function ${name}(...args) { return real().${name}(...args); }`)].join("\n"),
      };
    });
  },
});

// The compile cache (runtime/compile-cache.ts) belongs to the code that wrote it: a hash of every
// source file the bundle is made of names this build, so another build never reads its cache.
async function buildId() {
  const hash = createHash("sha256");
  for (const dir of ["core", "runtime", "adapters", "host-cli", "host-mcp", "host-pi"]) {
    const files = (await readdir(join(root, dir), { recursive: true })).filter((f) => f.endsWith(".ts")).sort();
    for (const f of files) hash.update(`${dir}/${f}\0`).update(await readFile(join(root, dir, f))).update("\0");
  }
  return hash.digest("hex").slice(0, 16);
}

const buildIdentity = await buildId();
// chunk names carry content hashes: drop the previous build's before writing this one's
await rm(join(outdir, "chunks"), { recursive: true, force: true });
const bundled = await build({
  absWorkingDir: root,
  entryPoints: [...ENTRIES, ...LAZY_MODULES.map((m) => ({ in: m.module, out: m.out }))],
  outdir,
  outbase: ".",
  entryNames: "[dir]/[name]",
  chunkNames: "chunks/[name]-[hash]",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  // the Pi SDK is the host's own copy (a peer dependency); only its types are used
  external: ["@mariozechner/pi-coding-agent"],
  // bundled CommonJS (fp-ts, io-ts, ajv) calls require() for Node built-ins
  banner: { js: 'import { createRequire as __piRecipesRequire } from "node:module"; const require = __piRecipesRequire(import.meta.url);' },
  plugins: [moduleUrl, esModules, lazyLibraries, lazyOwnModules(false)],
  define: { __PI_RECIPES_BUILD_ID__: JSON.stringify(buildIdentity) },
  logLevel: "warning",
  legalComments: "none",
  metafile: metafile !== undefined,
});
/** `entry.in` bundled as the one file `entry.out`, no chunks. In a CommonJS file `import.meta.url`
 *  means the file's own URL (moduleUrl turns each module's use of it into its compiled path). */
const oneFile = (entry, format, plugins, more = {}) =>
  build({
    absWorkingDir: root,
    entryPoints: [entry.in],
    outfile: join(outdir, entry.out),
    bundle: true,
    format,
    platform: "node",
    target: "node20",
    plugins,
    ...(format === "cjs"
      ? {
          banner: { js: 'const __piRecipesSelfUrl = require("node:url").pathToFileURL(__filename).href;' },
          define: { __PI_RECIPES_BUILD_ID__: JSON.stringify(buildIdentity), "import.meta.url": "__piRecipesSelfUrl" },
        }
      : {}),
    logLevel: "warning",
    legalComments: "none",
    // Every command line reads, converts and hashes the whole text of these files before it runs
    // a line of them (V8's code cache holds the compiled code, but not the text), so their white
    // space and comments cost every process: minified, main.cjs is 1.05 MB instead of 1.46 and a
    // `call` about 12 ms of CPU less (docs/performance.md, "Whitespace"). Names are kept: a stack
    // trace still names its functions, and the modules' functions keep their paths as names.
    minifyWhitespace: format === "cjs",
    minifySyntax: format === "cjs",
    metafile: true,
    ...more,
  });

// The command (host-cli/main.ts) as one CommonJS file (see the top of this file).
const FULL_COMMAND = { in: "host-cli/main.ts", out: "host-cli/main.cjs" };
// Wrapped in node's module function by the build, in the form the code cache's loader recognises
// (SELF_WRAPPED, taken from this build's own host-cli/code-cache.js in the same folder), so that
// it compiles the text as it is instead of joining it to a wrapper, which made V8 copy it once more.
const { SELF_WRAPPED } = await import(pathToFileURL(join(outdir, "host-cli", "code-cache.js")).href);
const fullCommand = await oneFile(FULL_COMMAND, "cjs", [moduleUrl, esModules, lazyLibraries, lazyOwnModules(true)], {
  banner: { js: `${SELF_WRAPPED}\nconst __piRecipesSelfUrl = require("node:url").pathToFileURL(__filename).href;` },
  footer: { js: "\n});" },
});
// main.cjs in ASCII only, so that the code cache's loader makes its text without decoding UTF-8
// (host-cli/code-cache.ts). esbuild escapes every other character in strings, regular expressions
// and names; what it leaves are comments it keeps inside expressions (from libraries), where an
// escape reads as well.
{
  const file = join(outdir, FULL_COMMAND.out);
  const text = await readFile(file, "utf8");
  const ascii = text.replace(/[^\x00-\x7f]/gu, (c) => `\\u{${c.codePointAt(0).toString(16)}}`);
  if (ascii !== text) await writeFile(file, ascii);
}
// dist/host-cli/main.js: runs main.cjs with the code cache (host-cli/main-entry.ts)
const MAIN_ENTRY = { in: "host-cli/main-entry.ts", out: "host-cli/main.js" };
const mainEntry = await oneFile(MAIN_ENTRY, "esm", [moduleUrl]);
// the code a previous build's main.cjs kept (host-cli/code-cache.ts, both slots): it names that
// file, and is never used for this one
for (const slot of ["", ".flags"]) await rm(join(outdir, "host-cli", `.main.cjs${slot}.v8`), { force: true });

// The command as installed (host-cli/front-door.ts, the package's `bin`): one CommonJS file, no
// chunks, holding only what the answers it gives without the registry need, since node loads one
// CommonJS file faster than the ES module graph of the same code (docs/performance.md,
// "start-up"). Everything else it hands to main.cjs, which stays outside it. The build hash is
// the bundle's, so both read the same compile caches.
const FRONT_DOOR = { in: "host-cli/front-door.ts", out: "host-cli/pi-recipes.cjs" };
// (run from the sources, the front door imports host-cli/main.ts; the build has main.cjs for it)
const frontDoor = await oneFile(FRONT_DOOR, "cjs", [moduleUrl, esModules], { external: ["./main.js"] });
// the front door answers without the compile code, the libraries loaded lazily, or io-ts:
// one of them in its file would be loaded by every command (an import added to a module it uses)
const frontDoorInputs = Object.entries(Object.values(frontDoor.metafile.outputs)[0].inputs).filter(([, v]) => v.bytesInOutput > 0).map(([f]) => f);
const heavyModules = [...lazyModules.keys(), "io-ts"].map((m) => m.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|");
const heavy = frontDoorInputs.filter((f) => new RegExp(`(^|/)(compile-step|compile-recipe)\\.ts$|node_modules/(${heavyModules})/`).test(f));
if (heavy.length > 0) throw new Error(`bundle: ${FRONT_DOOR.out} would hold ${heavy.join(", ")}`);
if (metafile !== undefined) {
  const all = [bundled, fullCommand, mainEntry, frontDoor].map((b) => b.metafile);
  const outputs = Object.assign({}, ...all.map((m) => m.outputs));
  await writeFile(metafile, JSON.stringify({ inputs: Object.assign({}, ...all.map((m) => m.inputs)), outputs }));
}
// the command's files are run by their #! line (the package's `bin`): they must be executable
// whatever wrote them, since npm links an installed package's bin but not the bin of the project
// it builds in
for (const entry of ["host-cli/main.js", FRONT_DOOR.out]) await chmod(join(outdir, entry), 0o755);
// the libraries the stand-ins load (see LAZY_LIBRARIES above), each file one object of the
// modules it holds, so a first use reads one file rather than resolving a library's many
for (const lib of LAZY_LIBRARIES) {
  await build({
    absWorkingDir: root,
    stdin: {
      contents: `module.exports = {${Object.keys(lib.modules).map((m) => `${JSON.stringify(m)}: require(${JSON.stringify(m)})`).join(", ")}};`,
      resolveDir: root,
      loader: "js",
    },
    outfile: join(outdir, lib.file),
    ...(lib.mainFields === undefined ? {} : { mainFields: lib.mainFields }),
    bundle: true,
    format: "cjs",
    platform: "node",
    target: "node20",
    logLevel: "warning",
    legalComments: "none",
    // as main.cjs: a process compiles what it loads, and node 20 keeps no compiled code of these
    // files; js-yaml's 110 kB became 73 kB, about 1 ms less for each process that reads its first
    // Markdown recipe (names are kept, for stack traces)
    minifyWhitespace: true,
    minifySyntax: true,
  });
}

// The packaged component compiled once, here, rather than by every process that finds no compile
// cache to serve it (runtime/packaged-compiles.ts says when a prepared compile is used). It is
// compiled by this build's own code (the per-file output of `tsc` in the same folder) and named
// with the version the bundle's compile cache uses, so another build never uses it.
{
  const { preparePackagedCompiles, packagedCompilesFile } = await import(pathToFileURL(join(outdir, "runtime", "packaged-compiles.js")).href);
  const { compileRecipe } = await import(pathToFileURL(join(outdir, "core", "compile", "compile-recipe.js")).href);
  const { version } = JSON.parse(await readFile(join(root, "package.json"), "utf8"));
  const packagedRoot = join(root, "recipes");
  const files = [];
  for (const entry of (await readdir(packagedRoot, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1)))
    if (entry.isFile() && !entry.name.startsWith(".")) files.push({ name: entry.name, bytes: await readFile(join(packagedRoot, entry.name)) });
  // and what `list` shows for an agent dir without a recipe root (runtime/packaged-absent-list.ts)
  const { absentRootListOf } = await import(pathToFileURL(join(outdir, "runtime", "packaged-absent-list.js")).href);
  const { makeNodeScanPort } = await import(pathToFileURL(join(outdir, "adapters", "fs", "scan.js")).href);
  const absentRoot = absentRootListOf(packagedRoot, makeNodeScanPort(), join(root, ".cache", `no-agent-dir-${process.pid}`));
  await writeFile(packagedCompilesFile(outdir), preparePackagedCompiles(packagedRoot, files, compileRecipe, `${version}+${buildIdentity}`, absentRoot));
}
