// What `npm run build` was made from: a SHA-256 over every file the build reads (the sources of
// tsconfig.build.json's folders, the packaged recipes it compiles, the build's configs and
// scripts, package.json and the lock file that pins the compiler and the bundler), kept in dist/build-inputs.sha256 by a build that ended.
// `npm pack` runs the build again (the `prepare` script); a test run that packs the package skips
// that when dist/ says it was built from exactly the files there are now (test/support/packed-package.ts).
//
//   node scripts/build-stamp.mjs clear   before a build: a build that fails leaves no stamp
//   node scripts/build-stamp.mjs write   after a build that ended
//   node scripts/build-stamp.mjs check   exit 0 when dist/ was built from the current files
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const STAMP = join(root, "dist", "build-inputs.sha256");

/** the build's inputs, as paths relative to the package root, sorted */
export function buildInputs(repoRoot = root) {
  const { include } = JSON.parse(readFileSync(join(repoRoot, "tsconfig.build.json"), "utf8"));
  const files = ["package.json", "package-lock.json", "tsconfig.json", "tsconfig.build.json", "scripts/bundle.mjs", "scripts/copy-assets.mjs", "scripts/build-stamp.mjs"];
  const walk = (rel) => {
    for (const d of readdirSync(join(repoRoot, rel), { withFileTypes: true })) {
      const path = `${rel}/${d.name}`;
      if (d.isDirectory()) {
        if (d.name !== "node_modules" && !d.name.startsWith(".")) walk(path);
      } else files.push(path);
    }
  };
  // the build also compiles the packaged recipes (scripts/bundle.mjs)
  for (const dir of [...include, "recipes"]) walk(dir);
  return files.sort();
}

/** the digest of the build's inputs as they are now */
export function inputsDigest(repoRoot = root) {
  const hash = createHash("sha256");
  for (const rel of buildInputs(repoRoot)) {
    const bytes = readFileSync(join(repoRoot, rel));
    hash.update(`${rel}\0${bytes.length}\0`);
    hash.update(bytes);
  }
  return hash.digest("hex");
}

/** true when dist/ holds a finished build of the current inputs */
export function distIsCurrent(repoRoot = root) {
  let kept;
  try {
    kept = readFileSync(join(repoRoot, "dist", "build-inputs.sha256"), "utf8").trim();
  } catch {
    return false;
  }
  return kept === inputsDigest(repoRoot);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const verb = process.argv[2];
  if (verb === "clear") rmSync(STAMP, { force: true });
  else if (verb === "write") writeFileSync(STAMP, `${inputsDigest()}\n`);
  else if (verb === "check") process.exitCode = distIsCurrent() ? 0 : 1;
  else {
    process.stderr.write(`build-stamp: expected clear, write or check, got ${verb === undefined ? "nothing" : JSON.stringify(verb)}\n`);
    process.exitCode = 2;
  }
}
