// What a killed command may have left to settle (runtime/pending.ts): the installed command's
// `list` answers without the registry only when none of it holds, so each kind must be seen.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeNodeFileSystem } from "../../adapters/fs/node.js";
import { agentPaths, type AgentPaths } from "../../runtime/agent-paths.js";
import { anythingPending } from "../../runtime/pending.js";

let dir: string;
let paths: AgentPaths;
const fs = makeNodeFileSystem();

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "pi-pending-"));
  paths = agentPaths({ PI_CODING_AGENT_DIR: join(dir, "agent") }, dir, dir);
  mkdirSync(paths.usageRoot, { recursive: true });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const put = (path: string, text: string): void => {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
};
const reviewState = (phase: string): string => JSON.stringify({ phase, batchId: "b-1", batchSha256: "0", sources: [], updatedAt: "" });
const statePath = (): string => join(paths.usageRoot, "reviews", "draft", "state.json");

describe("anything pending", () => {
  it("is nothing for an empty usage folder, other files beside the journals, or a review not executing", async () => {
    expect(await anythingPending(fs, paths)).toBe(false);
    put(join(paths.usageRoot, "register-journal", "notes.json"), "{}");
    put(join(paths.usageRoot, "journal", "x.journal.json.tmp"), "{}");
    put(statePath(), reviewState("completed"));
    expect(await anythingPending(fs, paths)).toBe(false);
  });

  it("sees a register_tool journal, a ledger journal and a review stopped while executing, each alone", async () => {
    for (const [what, path, text] of [
      ["register journal", join(paths.usageRoot, "register-journal", "p1.journal.json"), "{}"],
      ["ledger journal", join(paths.usageRoot, "journal", "p2.journal.json"), "{}"],
      ["review executing", statePath(), reviewState("executing")],
    ] as const) {
      put(path, text);
      expect(await anythingPending(fs, paths), what).toBe(true);
      rmSync(path);
      expect(await anythingPending(fs, paths), `${what} gone`).toBe(false);
    }
  });
});
