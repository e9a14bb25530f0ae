// The input file Pi's reviewer reads (the projection of the drafts to review) is this user's alone, as the outputs under `<agent>/tmp/pi-recipes` are: a file 0600
// in a folder 0700, under the umask most users have (022), and a folder left wider is narrowed.
// The host's reviewer runs in a node process of its own, started through `sh` only to set its
// umask; the `pi` it starts is a script on PATH that reports the modes of the file it was handed.
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { repoRoot } from "../support/cli.js";

const tsxLoader = pathToFileURL(join(repoRoot, "node_modules", "tsx", "dist", "loader.mjs")).href;
const reviews = pathToFileURL(join(repoRoot, "host-pi", "reviews.ts")).href;

let dir: string;
let agent: string;
let bin: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "pi-recipes-review-input-"));
  agent = join(dir, "agent");
  bin = join(dir, "bin");
  mkdirSync(bin);
  // prints where the `@file` it was given is, with its mode and its folder's, and its text
  writeFileSync(
    join(bin, "pi"),
    '#!/bin/sh\nfor a in "$@"; do case "$a" in @*) f="${a#@}";; esac; done\necho "$f"\nstat -c %a "$f" "$(dirname "$f")"\ncat "$f"\necho\necho "$1 $2 $3 $4"\n',
    { mode: 0o755 },
  );
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Pi's reviewer given `input`, in a process with umask 022: what the stand-in `pi` printed. */
function review(input: string): string[] {
  const script = `const { piReviewer } = await import(${JSON.stringify(reviews)});
const paths = { tmpRoot: ${JSON.stringify(join(agent, "tmp", "pi-recipes"))} };
process.stdout.write(await piReviewer(paths, () => undefined).review(${JSON.stringify(input)}));`;
  const r = spawnSync("sh", ["-c", 'umask 022 && exec "$@"', "sh", process.execPath, "--import", tsxLoader, "--input-type=module", "-e", script], {
    cwd: dir,
    env: { ...process.env, PATH: `${bin}:${process.env["PATH"] ?? ""}` },
    encoding: "utf8",
    timeout: 60_000,
  });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout.split("\n");
}

const modeOf = (path: string): string => (statSync(path).mode & 0o777).toString(8);

describe("the draft review input Pi's reviewer reads", () => {
  it("is a file 0600 in a folder 0700 under tmp/pi-recipes, removed after the review", () => {
    const [file, fileMode, folderMode, text] = review("REVIEW ME token=s3cr3t");
    const inputs = join(agent, "tmp", "pi-recipes", "review-inputs");
    expect(file).toMatch(new RegExp(`^${inputs}/draft-review-input-\\d+-\\d+\\.md$`));
    expect(text).toBe("REVIEW ME token=s3cr3t");
    expect({ file: fileMode, folder: folderMode }).toEqual({ file: "600", folder: "700" });
    expect(modeOf(inputs)).toBe("700");
    expect(statSync(inputs).isDirectory()).toBe(true);
    expect(() => statSync(file!)).toThrow();
  });

  it("runs pi in print mode, without tools or a session", () => {
    const lines = review("flags");
    expect(lines.at(-1) === "" ? lines.at(-2) : lines.at(-1)).toBe("-p --no-tools --no-session -ne");
  });

  it("a folder left readable by others is narrowed by the next review", () => {
    const inputs = join(agent, "tmp", "pi-recipes", "review-inputs");
    mkdirSync(inputs, { recursive: true });
    chmodSync(inputs, 0o755);
    const [, fileMode, folderMode] = review("again");
    expect({ file: fileMode, folder: folderMode }).toEqual({ file: "600", folder: "700" });
  });
});
