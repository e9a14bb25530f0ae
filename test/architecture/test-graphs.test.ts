// Test files share their worker's module graph unless vitest.config.ts lists them in OWN_GRAPH: a
// file that changes the process (an environment variable, fake timers or modules, a process
// listener, the exit code, the working directory) or loads the Pi SDK into it would otherwise
// reach the files that run after it in the same worker. This keeps the list complete.
import { existsSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { filesUnder } from "../support/files-under.js";
import { OWN_GRAPH } from "../../vitest.config.js";

const REPO = resolve(import.meta.dirname, "../..");

/** what leaves something behind in the process that runs the file */
const CHANGES_THE_PROCESS = new RegExp(
  [
    String.raw`process\.env(\.[A-Za-z_$][\w$]*|\[[^\]]+\])\s*=(?!=)`,
    String.raw`delete process\.env`,
    String.raw`Object\.assign\(process\.env`,
    String.raw`vi\.(stubEnv|stubGlobal|useFakeTimers|mock|doMock|spyOn)\b`,
    String.raw`\bspyOn\(`,
    String.raw`process\.chdir\(`,
    String.raw`process\.(on|once|addListener|prependListener)\(`,
    String.raw`process\.exitCode\s*=`,
    String.raw`process\.umask\(`,
    // the Pi SDK in this process, directly or through the harness
    String.raw`pi-coding-agent|sdk-harness`,
  ].join("|"),
);

const testFiles = (dir: string): string[] => filesUnder(join(REPO, dir), (n) => n.endsWith(".test.ts")).map((f) => relative(REPO, f));

describe("which test files keep a module graph of their own", () => {
  // (this file names the patterns, and changes nothing)
  const files = [...testFiles("test"), ...testFiles("props")].filter((f) => f !== "test/architecture/test-graphs.test.ts");

  it("every file that changes its process is listed", () => {
    const changing = files.filter((f) => CHANGES_THE_PROCESS.test(readFileSync(join(REPO, f), "utf8")));
    expect(changing.length).toBeGreaterThan(10);
    expect(changing.filter((f) => !OWN_GRAPH.includes(f))).toEqual([]);
  });

  it("every listed file exists", () => {
    expect(OWN_GRAPH.filter((f) => !existsSync(join(REPO, f)))).toEqual([]);
  });
});
