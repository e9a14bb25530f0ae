// The physical floor every discovery row is measured against: a plain node process (or loop)
// that reads and JSON-parses the same recipe files, and does nothing else.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

export function floorRead(root: string): number {
  let n = 0;
  for (const name of readdirSync(root)) {
    if (!name.endsWith(".json") && !name.endsWith(".md")) continue;
    const text = readFileSync(join(root, name), "utf8");
    if (name.endsWith(".json")) n += Object.keys(JSON.parse(text) as object).length;
    else n += text.length;
  }
  return n;
}

/** floorRead as a `node -e` script: argv[1] is the root */
export const FLOOR_SCRIPT = `const fs=require("fs"),p=require("path");const r=process.argv[1];let n=0;for(const f of fs.readdirSync(r)){if(!f.endsWith(".json")&&!f.endsWith(".md"))continue;const t=fs.readFileSync(p.join(r,f),"utf8");n+=f.endsWith(".json")?Object.keys(JSON.parse(t)).length:t.length}console.log(n)`;
