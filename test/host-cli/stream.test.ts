// `pi-recipes call --stream`: the command's output shows while it runs, and the result is still
// printed whole. The command waits for the test to see its first line before it prints the next,
// so the test passes only if that line was shown before the command ended.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cliNodeArgs, repoRoot } from "../support/cli.js";

const dir = mkdtempSync(join(tmpdir(), "cli-stream-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const recipes = join(dir, "agent", "recipes");
mkdirSync(recipes, { recursive: true });
const gate = join(dir, "go");
const script = join(dir, "lines.sh");
writeFileSync(script, `echo first line\nwhile [ ! -e '${gate}' ]; do sleep 0.05; done\necho second line\n`);
writeFileSync(join(recipes, "lines.json"), JSON.stringify({ description: "Lines with a wait", template: `sh ${script}` }));

describe("pi-recipes call --stream", () => {
  it("shows the first line before the command ends, then prints the full result", async () => {
    const child = spawn(process.execPath, [...cliNodeArgs(), "call", "lines", "--stream"], {
      cwd: repoRoot,
      env: { ...process.env, PI_CODING_AGENT_DIR: join(dir, "agent") },
    });
    const events: string[] = [];
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => {
      stderr += c.toString();
      if (stderr.includes("first line\n") && !events.includes("saw first line")) {
        events.push("saw first line");
        writeFileSync(gate, "");
      }
    });
    const code = await new Promise<number | null>((done) => child.on("close", done));
    events.push("exited");
    expect(events).toEqual(["saw first line", "exited"]);
    expect(code).toBe(0);
    expect(stderr).toBe("first line\nsecond line\n");
    expect(stdout).toBe("first line\nsecond line\n");
  }, 90_000);
});
