// Adapters are built by the hosts (docs/ARCHITECTURE.md, "Adapters are built by the session"): the
// node file system and the node scan port are constructed only in a process's entry file (the
// CLI's front door and main, the MCP servers' stdio and HTTP entries, the Pi session, the async run worker) and
// handed down through the runtime session; no runtime module builds its own behind its caller's
// back. A registry opened without a session (a test, a bench) is given the scan port its opener
// built. The installed package's own manifest is read from the real disk by an adapter
// (adapters/fs/package-root.ts): adapters are not scanned here, since building a node port is
// what they are for.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const SOURCE_DIRS = ["core", "runtime", "host-cli", "host-mcp", "host-pi"];

/** The entry files of the processes: each is its own composition root. */
const ENTRIES: readonly string[] = ["host-cli/front-door.ts", "host-cli/main.ts", "host-mcp/http-serve.ts", "host-mcp/stdio.ts", "host-pi/pi-session.ts", "runtime/runs/run-worker.ts"];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? sources(join(dir, d.name)) : d.name.endsWith(".ts") ? [join(dir, d.name)] : [],
  );
}

/** The files (relative) whose code calls a node adapter constructor. */
export function builders(files: readonly { readonly name: string; readonly text: string }[]): string[] {
  return files
    .filter((f) => /\bmakeNode(FileSystem|ScanPort)\s*\(/.test(f.text.replace(/\/\/.*$/gm, "").replace(/\/\*[\s\S]*?\*\//g, "")))
    .map((f) => f.name)
    .sort();
}

describe("node adapters", () => {
  it("are built only in the processes' entry files", () => {
    const files = SOURCE_DIRS.flatMap((d) => sources(join(repo, d))).map((f) => ({ name: relative(repo, f), text: readFileSync(f, "utf8") }));
    expect(files.length).toBeGreaterThan(100);
    expect(builders(files)).toEqual([...ENTRIES].sort());
  });

  it("catches a module that builds its own (the check itself can fail)", () => {
    const own = { name: "runtime/review/host.ts", text: "const fs = makeNodeFileSystem();" };
    const typed = { name: "runtime/session.ts", text: 'import type { ScanPort } from "../adapters/fs/scan.js"; // makeNodeScanPort() lives there' };
    expect(builders([own, typed])).toEqual(["runtime/review/host.ts"]);
  });
});
