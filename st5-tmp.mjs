import { readdirSync } from "node:fs";
const { makeNodeScanPort } = await import("/work/main/dist/adapters/fs/scan.js");
const { toId } = await import("/work/main/dist/runtime/compile-cache-file.js");
const scan = makeNodeScanPort();
const r = "/tmp/fx10k/agent-10000/recipes";
const names = readdirSync(r).filter((n) => n.endsWith(".json") || n.endsWith(".md"));
const t = performance.now(); let k = 0;
for (let i = 0; i < names.length; i++) { const s = scan.identity(r + "/" + names[i]); if (s.ok && toId(s.value).length > 5) k++; }
console.log("identity+toId", (performance.now() - t).toFixed(1), k);
