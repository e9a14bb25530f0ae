// A process that runs the CommonJS file named by its first argument the way dist/host-cli/main.js
// runs the command (host-cli/main-entry.ts): node's own code cache turned on where there is one,
// then host-cli/code-cache.ts. Used by test/host-cli/code-cache.test.ts.
import { requireWithCodeCache } from "../../host-cli/code-cache.js";
import { enableCompileCache } from "../../host-cli/node-compile-cache.js";

enableCompileCache();
requireWithCodeCache(process.argv[2]!);
