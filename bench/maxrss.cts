// Preloaded into measured processes (node --require): reports the peak resident set size and the
// CPU time used (user + system, which a busy machine inflates far less than wall time) at exit on
// stderr, after everything the process itself wrote. CommonJS, so that preloading it costs every
// measured process alike: an ES module preload would start node's ES module loader in each, which
// a process made of CommonJS (bare node, the command's front door) does not otherwise pay.
import fs = require("node:fs");

process.on("exit", () => {
  const u = process.resourceUsage();
  fs.writeSync(2, `\u0000pi-recipes-bench maxrss ${u.maxRSS} cpu ${u.userCPUTime + u.systemCPUTime}\n`);
});
