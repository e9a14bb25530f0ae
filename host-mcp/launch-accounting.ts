// Launch accounting for recipe calls: every launch is counted in the usage ledger, and a launch
// whose recipe file no longer holds what the tool was loaded from is rejected (reload and retry).
//
// The ledger compares the file with the sha256 of the bytes the tool was loaded from; discovery
// does not hand those bytes out, so the digest is taken as soon as the live registry publishes a
// tool revision (at start and in its change listener, right after the refresh read the file).
// ToolSpec objects are made once per file revision, so only new revisions are read again.
import { readFileSync } from "node:fs";
import type { Discovery, ToolSpec } from "../core/discovery/types.js";
import { executableFingerprint } from "../core/ledger/fingerprint.js";
import { recordLaunch, sha256Bytes, type LedgerContext, type LaunchOutcome } from "../runtime/ledger/index.js";

export interface LaunchAccounting {
  /** takes the digests of tool revisions not seen before */
  track(discovery: Discovery): void;
  /** counts one launch of `tool`, or answers why it must not run */
  launch(tool: ToolSpec): Promise<LaunchOutcome>;
}

export function launchAccounting(ledger: LedgerContext, readFile: (path: string) => Uint8Array = readFileSync): LaunchAccounting {
  const digests = new WeakMap<ToolSpec, string | null>();
  const digestOf = (tool: ToolSpec): string | null => {
    let known = digests.get(tool);
    if (known !== undefined) return known;
    try {
      known = sha256Bytes(readFile(tool.path));
    } catch {
      // gone already: the launch check will see that and reject
      known = null;
    }
    digests.set(tool, known);
    return known;
  };
  return {
    track(discovery) {
      for (const tool of discovery.tools) digestOf(tool);
    },
    async launch(tool) {
      const sourceSha256 = digestOf(tool) ?? "";
      return recordLaunch(ledger, { path: tool.path, name: tool.name, fingerprint: executableFingerprint(tool.config), sourceSha256 });
    },
  };
}
