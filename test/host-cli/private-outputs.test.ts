// What a call leaves under `<agent>/tmp/pi-recipes` holds whatever its commands printed, secrets
// included: a saved full output and a spilled stream are this user's alone, folders 0700 and
// files 0600, under the umask most users have (022), and folders an earlier version left wider
// are narrowed. The real command, run through `sh` only to set its umask.
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cliNodeArgs, repoRoot } from "../support/cli.js";

let dir: string;
let agent: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "pi-recipes-private-"));
  agent = join(dir, "agent");
  mkdirSync(join(agent, "recipes"), { recursive: true });
  // past the report's 2000 lines (a saved output) and the capture's 1 MiB (a spill); the secret
  // comes first, so it is in both files
  writeFileSync(join(agent, "recipes", "long.json"), JSON.stringify({ description: "Long", template: "sh -c 'echo MY_API_KEY=$MY_API_KEY; seq 300000'" }));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** `pi-recipes call long --json` with umask 022: its details (and its text, for the last test). */
function callLong(): Record<string, unknown> {
  return callLongAnswer().details;
}

function callLongAnswer(): { text: string; details: Record<string, unknown> } {
  const r = spawnSync("sh", ["-c", 'umask 022 && exec "$@"', "sh", process.execPath, ...cliNodeArgs(), "call", "long", "--json"], {
    cwd: repoRoot,
    env: { ...process.env, PI_CODING_AGENT_DIR: agent, MY_API_KEY: "s3cr3t" },
    encoding: "utf8",
    timeout: 60_000,
  });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as { text: string; details: Record<string, unknown> };
}

const modeOf = (path: string): string => (statSync(path).mode & 0o777).toString(8);

describe("the outputs a call leaves", () => {
  it("a saved full output and a spilled stream are private, their folders too", () => {
    const details = callLong();
    const saved = String(details["fullOutputPath"]);
    const spilled = String(details["stdoutFile"]);
    const tmp = join(agent, "tmp", "pi-recipes");
    expect(saved.startsWith(join(tmp, "outputs"))).toBe(true);
    expect(spilled.startsWith(join(tmp, "captures"))).toBe(true);
    expect(readFileSync(saved, "utf8")).toContain("MY_API_KEY=s3cr3t");
    expect({ file: modeOf(saved), folder: modeOf(dirname(saved)), outputs: modeOf(join(tmp, "outputs")) }).toEqual({ file: "600", folder: "700", outputs: "700" });
    expect({ file: modeOf(spilled), folder: modeOf(dirname(spilled)), captures: modeOf(join(tmp, "captures")) }).toEqual({ file: "600", folder: "700", captures: "700" });
  });

  it("outputs/ and captures/ left readable by others are narrowed by the next call", () => {
    const tmp = join(agent, "tmp", "pi-recipes");
    for (const name of ["outputs", "captures"]) {
      mkdirSync(join(tmp, name), { recursive: true });
      chmodSync(join(tmp, name), 0o755);
    }
    const details = callLong();
    expect({ outputs: modeOf(join(tmp, "outputs")), captures: modeOf(join(tmp, "captures")) }).toEqual({ outputs: "700", captures: "700" });
    expect(modeOf(String(details["fullOutputPath"]))).toBe("600");
    expect(modeOf(String(details["stdoutFile"]))).toBe("600");
  });

  it("outputs/ and captures/ that are symbolic links: the folders they point at keep their modes, the files are still private", () => {
    const tmp = join(agent, "tmp", "pi-recipes");
    mkdirSync(tmp, { recursive: true });
    const shared: Record<string, string> = {};
    for (const name of ["outputs", "captures"]) {
      shared[name] = join(dir, `shared-${name}`);
      mkdirSync(shared[name]!);
      chmodSync(shared[name]!, 0o2775);
      symlinkSync(shared[name]!, join(tmp, name));
    }
    const details = callLong();
    expect({ outputs: modeOf(shared["outputs"]!), captures: modeOf(shared["captures"]!) }).toEqual({ outputs: "775", captures: "775" });
    expect(statSync(shared["outputs"]!).mode & 0o7777).toBe(0o2775);
    expect(modeOf(String(details["fullOutputPath"]))).toBe("600");
    expect(modeOf(String(details["stdoutFile"]))).toBe("600");
  });

  it("a full output that cannot be saved (outputs/ is a file) says why, in the text and the details", () => {
    const tmp = join(agent, "tmp", "pi-recipes");
    mkdirSync(tmp, { recursive: true });
    writeFileSync(join(tmp, "outputs"), "in the way");
    const { text, details } = callLongAnswer();
    expect(details["fullOutputPath"]).toBeUndefined();
    const why = String(details["fullOutputNotSaved"]);
    expect(why).toContain(join(tmp, "outputs"));
    expect(text).toContain(`Full output could not be saved (${why}).]`);
  });
});
