// Preloaded into measured processes (node --import): reports the peak resident set size at exit
// on stderr, after everything the process itself wrote.
import { writeSync } from "node:fs";

process.on("exit", () => {
  writeSync(2, `\u0000pi-recipes-bench maxrss ${process.resourceUsage().maxRSS}\n`);
});
