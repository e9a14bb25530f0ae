// Preloaded into measured processes (node --import): reports the peak resident set size and the
// CPU time used (user + system, which a busy machine inflates far less than wall time) at exit on
// stderr, after everything the process itself wrote.
import { writeSync } from "node:fs";

process.on("exit", () => {
  const u = process.resourceUsage();
  writeSync(2, `\u0000pi-recipes-bench maxrss ${u.maxRSS} cpu ${u.userCPUTime + u.systemCPUTime}\n`);
});
