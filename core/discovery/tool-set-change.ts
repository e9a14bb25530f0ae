// What changed between two discoveries, as a live registry reports it to its listeners.
import type { Discovery } from "./discovery-result.js";
import type { ToolSpec } from "../tool/tool-spec.js";
import { toolFingerprint } from "./fingerprint.js";

export interface ToolSetDiff {
  /** tool names, each list sorted */
  readonly added: readonly string[];
  /** tools whose definition as the agent sees it changed (executable content, description, path) */
  readonly changed: readonly string[];
  readonly removed: readonly string[];
  /** the subset of `changed` that executes differently: another fingerprint or another file */
  readonly executableChanged: readonly string[];
  readonly diagnosticsChanged: boolean;
  readonly draftsChanged: boolean;
}

/** Whether two tools execute the same: the same file and the same executable content. */
export const sameExecutable = (a: ToolSpec, b: ToolSpec): boolean => a.path === b.path && toolFingerprint(a) === toolFingerprint(b);

// the schema and prompt snippet follow from the executable content; the description does not
// (nor does the format: it is the path's extension)
const sameDefinition = (a: ToolSpec, b: ToolSpec): boolean => a === b || (sameExecutable(a, b) && a.description === b.description);

const sameList = <T>(a: readonly T[], b: readonly T[], eq: (x: T, y: T) => boolean): boolean =>
  a === b || (a.length === b.length && a.every((x, i) => eq(x, b[i]!)));

/** Both tool lists are sorted by name (as discovery returns them): one merge walk. */
export function diffDiscoveries(before: Discovery, after: Discovery): ToolSetDiff {
  const added: string[] = [];
  const changed: string[] = [];
  const removed: string[] = [];
  const executableChanged: string[] = [];
  const a = before.tools;
  const b = after.tools;
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const x = a[i];
    const y = b[j];
    if (y === undefined || (x !== undefined && x.name < y.name)) {
      removed.push(x!.name);
      i++;
    } else if (x === undefined || y.name < x.name) {
      added.push(y.name);
      j++;
    } else {
      if (!sameDefinition(x, y)) {
        changed.push(y.name);
        if (!sameExecutable(x, y)) executableChanged.push(y.name);
      }
      i++;
      j++;
    }
  }
  return {
    added,
    changed,
    removed,
    executableChanged,
    diagnosticsChanged: !sameList(before.diagnostics, after.diagnostics, (p, q) => p === q),
    draftsChanged: !sameList(before.drafts, after.drafts, (p, q) => p === q || JSON.stringify(p) === JSON.stringify(q)),
  };
}
