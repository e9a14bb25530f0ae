#!/usr/bin/env node
// dist/host-cli/main.js, the full command as a file of its own (what `node .../main.js mcp` runs;
// the installed command reaches it through the front door): it runs the build's one CommonJS file
// of the full command, dist/host-cli/main.cjs, with V8's cache of compiled code
// (host-cli/code-cache.ts). scripts/bundle.mjs builds both from host-cli/main.ts and this file.
import { builtFullCommand, requireWithCodeCache } from "./code-cache.js";
import { enableCompileCache } from "./node-compile-cache.js";

// Node 22.1 and later: node's own cache, which then serves main.cjs too
enableCompileCache();
requireWithCodeCache(builtFullCommand());
