// Which files of the package a process loads, however it loads them: an `--import` preload that
// appends to a log file each ES module's URL (a loader hook), every file `require` is asked for
// (an ES module a stand-in requires: on Node 20 neither the hook nor the require cache sees it),
// every script compiled through `vm.Script` with a file name (host-cli/code-cache.ts runs the
// command's CommonJS file so), and at exit what `require` has cached and the node built-ins loaded
// (`builtin:<name>` lines).
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** the node arguments that make a process log what it loads to `log` (`requireBase`: a file in the
 *  folder whose require cache is listed at exit) */
export function loadLogArgs(log: string, requireBase: string): string[] {
  const hook = `import { appendFileSync } from "node:fs";
export async function load(url, context, next) { appendFileSync(${JSON.stringify(log)}, url + "\\n"); return next(url, context); }`;
  const preload = `import Module, { register, createRequire, syncBuiltinESMExports } from "node:module";
import { appendFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import vm from "node:vm";
register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hook)}`)});
const load = Module._load;
Module._load = function (request, parent, isMain) {
  try {
    appendFileSync(${JSON.stringify(log)}, pathToFileURL(Module._resolveFilename(request, parent, isMain)).href + "\\n");
  } catch {}
  return load.apply(this, arguments);
};
const Script = vm.Script;
vm.Script = class extends Script {
  constructor(code, options) {
    if (typeof options?.filename === "string") appendFileSync(${JSON.stringify(log)}, pathToFileURL(options.filename).href + "\\n");
    super(code, options);
  }
};
syncBuiltinESMExports();
process.on("exit", () => appendFileSync(${JSON.stringify(log)}, Object.keys(createRequire(${JSON.stringify(requireBase)}).cache).map((f) => pathToFileURL(f).href + "\\n").join("")
  + process.moduleLoadList.filter((m) => m.startsWith("NativeModule ")).map((m) => "builtin:" + m.slice(13) + "\\n").join("")));`;
  writeFileSync(log, "");
  return ["--import", `data:text/javascript,${encodeURIComponent(preload)}`];
}

/** What the log says: the files (paths) and the built-ins; the log is removed. */
export function readLoadLog(log: string): { readonly files: string[]; readonly builtins: string[] } {
  const lines = readFileSync(log, "utf8").split("\n");
  rmSync(log);
  return {
    files: [...new Set(lines.filter((u) => u.startsWith("file:")).map((u) => fileURLToPath(u)))],
    builtins: lines.filter((u) => u.startsWith("builtin:")).map((u) => u.slice("builtin:".length)),
  };
}
