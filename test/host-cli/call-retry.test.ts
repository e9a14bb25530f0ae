// `pi-recipes call` when the recipe file changes between finding the tool and launching it: the
// launch refuses the tool it was given (it checks the bytes the tool was built from; nothing
// runs), and the command line, which has no tool list to reload, finds the tool again as it is
// now and calls it once more. Real files, the real one-shot session.
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeNodeFileSystem } from "../../adapters/fs/node.js";
import { makeNodeScanPort } from "../../adapters/fs/scan.js";
import { openSession, type RuntimeSession } from "../../runtime/session.js";
import { callIn } from "../../host-cli/verbs/call-command.js";

let dir: string;
let recipe: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "pi-call-retry-"));
  mkdirSync(join(dir, "agent", "recipes"), { recursive: true });
  recipe = join(dir, "agent", "recipes", "shared.json");
  writeFileSync(recipe, JSON.stringify({ description: "d0", template: "echo one" }));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** the session, with `edit` run once right after the tool is first found */
function editedAfterLookup(edit: () => void): RuntimeSession {
  const session = openSession({ env: { PI_CODING_AGENT_DIR: join(dir, "agent") }, cwd: dir, home: dir, packagedRoot: null, fs: makeNodeFileSystem(), scan: makeNodeScanPort() });
  let edited = false;
  return {
    ...session,
    toolNamed: (name, fresh) => {
      const found = session.toolNamed(name, fresh);
      if (!edited) {
        edited = true;
        edit();
      }
      return found;
    },
  };
}

describe("call of a recipe rewritten under it", () => {
  it("renamed away meanwhile: the refusal that says why is the answer", async () => {
    const session = editedAfterLookup(() => renameSync(recipe, join(dir, "agent", "recipes", "other.json")));
    try {
      const r = await callIn(session, "shared", {});
      expect(r).toMatchObject({ ok: false, details: { stale: true } });
      expect(r.text).toContain("Recipe launch rejected because its source changed");
    } finally {
      await session.close();
    }
  });

  it("runs the recipe as it is now, once", async () => {
    const session = editedAfterLookup(() => writeFileSync(recipe, JSON.stringify({ description: "d1, longer", template: "echo two" })));
    try {
      const r = await callIn(session, "shared", {});
      expect(r).toMatchObject({ ok: true });
      expect(r.text.trim()).toBe("two");
    } finally {
      await session.close();
    }
  });
});
