// docs/ARCHITECTURE.md walks a reader from a recipe file to the schema a model sees and from a
// host's call to the spawned argv, file by file: every file it names by its path must exist, and each walk
// stays within the twelve steps it promises.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const doc = readFileSync(join(root, "docs", "ARCHITECTURE.md"), "utf8");
const section = doc.slice(doc.indexOf("## Two walks"), doc.indexOf("## Layer rules"));
const walks = section.split(/\n\*\*/).slice(1);

describe("the two walks of docs/ARCHITECTURE.md", () => {
  it("there are two, each of at most twelve numbered steps", () => {
    expect(walks).toHaveLength(2);
    for (const walk of walks) {
      const steps = walk.match(/^\d+\. /gm) ?? [];
      expect(steps.length).toBeGreaterThan(0);
      expect(steps.length).toBeLessThanOrEqual(12);
    }
  });

  it("every file a walk names exists", () => {
    const named = [...section.matchAll(/`([a-z-]+\/[a-z/-]+\.ts)`/g)].map((m) => m[1]!);
    expect(named.length).toBeGreaterThan(10);
    expect(named.filter((p) => !existsSync(join(root, p)))).toEqual([]);
  });
});
