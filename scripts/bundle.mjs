// The shipped entry points as bundles: one file per entry, with the code each verb needs split
// into chunks that load on demand. A process then reads a handful of files instead of resolving
// a few hundred modules (fp-ts alone is dozens of CommonJS files), which is most of start-up.
// The per-file output of `tsc` stays beside the bundles: the bench, the run worker and the
// supervisor run from it, and module-relative paths point into it (see `moduleUrl` below).
import { createHash } from "node:crypto";
import { readdir, readFile, rm } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const ENTRIES = ["host-cli/main.ts", "host-pi/index.ts"];
// `node scripts/bundle.mjs [outdir]`: dist/ unless told (the bundle test builds elsewhere)
const outdir = resolve(root, process.argv[2] ?? "dist");

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

// `yaml` is only needed to read the frontmatter of a Markdown recipe, yet it is most of the code a
// discovery would load (300 kB of its 400): bundled in, every `list` would pay for compiling it,
// even on a root without a single `.md` file. Discovery is synchronous, so the library cannot be
// an `import()` at the point of use. Instead the bundles see a stand-in for "yaml" that loads
// the library, bundled on its own as one CommonJS file (chunks/yaml.cjs), with a synchronous
// require the first time a frontmatter is parsed. The stand-in offers only the names listed
// here: a new `import { x } from "yaml"` fails the build ("No matching export") until x is
// added, so no import can silently skip the lazy path. Classes are called through a function
// that constructs the real class (`new LineCounter()` then yields the library's own object).
const LAZY_YAML = { functions: ["parseDocument"], classes: ["LineCounter"] };
const YAML_FILE = "chunks/yaml.cjs";
const lazyYaml = {
  name: "lazy-yaml",
  setup(b) {
    b.onResolve({ filter: /^yaml$/ }, () => ({ path: "yaml", namespace: "lazy-yaml" }));
    b.onLoad({ filter: /.*/, namespace: "lazy-yaml" }, () => ({
      loader: "js",
      resolveDir: root,
      contents: [
        'import { createRequire } from "node:module";',
        "let lib;",
        // every entry and chunk sits two folders below the package root (see moduleUrl)
        `const yaml = () => (lib ??= createRequire(import.meta.url)(${JSON.stringify(`../${YAML_FILE}`)}));`,
        ...LAZY_YAML.functions.map((f) => `export function ${f}(...args) { return yaml().${f}(...args); }`),
        ...LAZY_YAML.classes.map((c) => `export function ${c}(...args) { return new (yaml().${c})(...args); }`),
      ].join("\n"),
    }));
  },
};

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

// chunk names carry content hashes: drop the previous build's before writing this one's
await rm(join(outdir, "chunks"), { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: ENTRIES,
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
  plugins: [moduleUrl, esModules, lazyYaml],
  define: { __PI_RECIPES_BUILD_ID__: JSON.stringify(await buildId()) },
  logLevel: "warning",
  legalComments: "none",
});
// the library the "yaml" stand-in loads (see lazyYaml above): one file, so a first frontmatter
// reads one file rather than resolving the library's eighty
await build({
  absWorkingDir: root,
  entryPoints: ["yaml"],
  outfile: join(outdir, YAML_FILE),
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20",
  logLevel: "warning",
  legalComments: "none",
});
