// Which files of the package a process loads, however it loads them: a `-r` preload that appends
// to a log file every file `require` is asked for, every script compiled through `vm.Script` with
// a file name (host-cli/code-cache.ts runs the command's CommonJS file so), and at exit what
// `require` has cached, every ES module the process loaded and the node built-ins loaded
// (`builtin:<name>` lines).
//
// The ES modules are read at exit from node's own ES module loader (its load cache, reached with
// `--expose-internals`) rather than logged by a loader hook: on Node 20 `module.register` starts a
// thread for the hooks in every process and `--import` sends a CommonJS entry through the ES loader
// (which scans its exports), and the two cost about 0.2 s of CPU per process, most of what the
// files that log every process they start spent (docs/testing.md). Where those internals are not
// there (another Node), the preload registers the hook instead.
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** the node arguments that make a process log what it loads to `log` (`requireBase`: a file in the
 *  folder whose require cache is listed at exit); the preload is written beside the log */
export function loadLogArgs(log: string, requireBase: string): string[] {
  const hook = `import { appendFileSync } from "node:fs";
export async function load(url, context, next) { appendFileSync(${JSON.stringify(log)}, url + "\\n"); return next(url, context); }`;
  const preload = `"use strict";
const Module = require("node:module");
const { appendFileSync } = require("node:fs");
const { pathToFileURL } = require("node:url");
const vm = require("node:vm");
const log = ${JSON.stringify(log)};
/** node's loader of ES modules, when its internals can be reached (--expose-internals) */
let esmLoader;
try {
  esmLoader = require("internal/modules/esm/loader");
  if (typeof esmLoader.getOrInitializeCascadedLoader !== "function") esmLoader = undefined;
} catch {}
if (esmLoader === undefined) {
  Module.register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hook)}`)});
}
const load = Module._load;
Module._load = function (request, parent, isMain) {
  try {
    appendFileSync(log, pathToFileURL(Module._resolveFilename(request, parent, isMain)).href + "\\n");
  } catch {}
  return load.apply(this, arguments);
};
const Script = vm.Script;
vm.Script = class extends Script {
  constructor(code, options) {
    if (typeof options?.filename === "string") appendFileSync(log, pathToFileURL(options.filename).href + "\\n");
    super(code, options);
  }
};
Module.syncBuiltinESMExports();
process.on("exit", () => {
  const esm = esmLoader === undefined ? [] : [...esmLoader.getOrInitializeCascadedLoader().loadCache.keys()];
  appendFileSync(log, esm.map((u) => u + "\\n").join("")
    + Object.keys(Module.createRequire(${JSON.stringify(requireBase)}).cache).map((f) => pathToFileURL(f).href + "\\n").join("")
    + process.moduleLoadList.filter((m) => m.startsWith("NativeModule ")).map((m) => "builtin:" + m.slice(13) + "\\n").join(""));
});
`;
  writeFileSync(log, "");
  const file = `${log}.preload.cjs`;
  writeFileSync(file, preload);
  return ["--expose-internals", "-r", file];
}

/** What the log says: the files (paths) and the built-ins; the log is removed. */
export function readLoadLog(log: string): { readonly files: string[]; readonly builtins: string[] } {
  const lines = readFileSync(log, "utf8").split("\n");
  rmSync(log);
  const preload = `${log}.preload.cjs`;
  rmSync(preload, { force: true });
  return {
    files: [...new Set(lines.filter((u) => u.startsWith("file:")).map((u) => fileURLToPath(u)))].filter((f) => f !== preload),
    builtins: lines.filter((u) => u.startsWith("builtin:")).map((u) => u.slice("builtin:".length)),
  };
}
