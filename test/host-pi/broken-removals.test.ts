// What the Pi extension tells the user when tools leave the tool set: a tool whose recipe broke or
// was disabled is named with the reason; one deleted or renamed is no news.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { brokenRemovals } from "../../host-pi/pi-session.js";
import { openRegistry } from "../../runtime/registry.js";
import { makeNodeScanPort } from "../../adapters/fs/scan.js";

let agent: string;
beforeEach(() => void (agent = mkdtempSync(join(tmpdir(), "pi-recipes-removals-"))));
afterEach(() => rmSync(agent, { recursive: true, force: true }));

describe("brokenRemovals", () => {
  it("names a broken tool with its diagnostic and a disabled one, and says nothing of a deleted one", () => {
    const root = join(agent, "recipes");
    mkdirSync(root);
    writeFileSync(join(root, "broken.json"), "{bad");
    writeFileSync(join(root, "off.json"), JSON.stringify({ disabled: true, template: "echo off" }));
    const discovery = openRegistry({ env: { PI_CODING_AGENT_DIR: agent }, packagedRoot: null, scan: makeNodeScanPort() }).discover();
    const notes = brokenRemovals(["broken", "off", "deleted"], discovery);
    expect(notes).toHaveLength(2);
    expect(notes[0]!.level).toBe("warning");
    expect(notes[0]!.text).toMatch(new RegExp(`^pi-recipes: tool "broken" was removed: .*${join(root, "broken.json").replace(/[.]/g, "\\.")}`));
    expect(notes[1]).toEqual({ level: "info", text: `pi-recipes: tool "off" was removed: ${join(root, "off.json")} is disabled` });
  });
});
