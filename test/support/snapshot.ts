// Building registry snapshots in memory for pure discovery tests.
import type { RegistrySnapshot, SnapshotFile, SourceListing } from "../../core/model.js";

const enc = new TextEncoder();

export function file(path: string, content: string | Uint8Array | object, extra: Partial<SnapshotFile> = {}): SnapshotFile {
  const bytes = typeof content === "string" ? enc.encode(content) : content instanceof Uint8Array ? content : enc.encode(JSON.stringify(content));
  return { path, size: bytes.length, mtimeMs: 1_700_000_000_000, birthtimeMs: 1_700_000_000_000, bytes, ...extra };
}

export function root(dir: string, files: Record<string, string | object>, options: Partial<SourceListing> = {}): SourceListing {
  return {
    kind: "root",
    root: dir,
    present: true,
    tool: false,
    mutableUsage: false,
    files: Object.entries(files).map(([name, content]) => file(`${dir}/${name}`, content)),
    ...options,
  };
}

export const userRoot = (files: Record<string, string | object>, options: Partial<SourceListing> = {}): SourceListing =>
  root("/A/recipes", files, { tool: true, mutableUsage: true, ...options });

export function snapshot(sources: SourceListing[], drafts: SnapshotFile[] = []): RegistrySnapshot {
  return { agentDir: "/A", recipeRoot: "/A/recipes", home: "/home/u", cwd: "/work", sources, drafts };
}
