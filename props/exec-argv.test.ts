// End to end: whatever a caller passes as a value reaches the real process as exactly one argv
// item, through discovery, callTool, substitution and the process runner; no shell anywhere.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { fc, test } from "@fast-check/vitest";
import type { Discovery } from "../core/discovery/discovery-result.js";
import { openRegistry } from "../runtime/registry.js";
import { makeNodeScanPort } from "../adapters/fs/scan.js";
import { callTool, type CallContext } from "../runtime/verbs/call.js";
import { numRuns } from "./support/runs.js";
import { unaccountedLaunch } from "../runtime/verbs/call.js";
import { makeNodeFileSystem } from "../adapters/fs/node.js";

const nasty = fc.constantFrom(
  " ", "\t", "\n", "'", '"', "\\", ";", "$", "`", "|", "&", "*", "~", "-", "--flag", "{", "}", "{secret}", "{x}", "$(id)", "${HOME}", "é", "😀", "日本",
);
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
// NUL cannot be in argv and lone surrogates are not text; everything else must arrive as is
const valueArb = fc
  .oneof(fc.string({ unit: "grapheme", maxLength: 16 }), fc.array(nasty, { maxLength: 8 }).map((a) => a.join("")), fc.constant(""))
  .filter((s) => !s.includes("\u0000") && !LONE_SURROGATE.test(s));

let dir: string;
let discovery: Discovery;
let ctx: CallContext;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "pi-recipes-argv-"));
  const recipes = join(dir, "agent", "recipes");
  mkdirSync(recipes, { recursive: true });
  // each argument followed by a NUL, which no argument can contain: an exact, unambiguous record
  writeFileSync(join(dir, "argv"), "#!/bin/sh\nprintf '%s\\0' \"$@\"\n", { mode: 0o755 });
  writeFileSync(join(recipes, "echo_argv.json"), JSON.stringify({ defaults: { secret: "s3cr3t" }, template: `${join(dir, "argv")} %s\\n {x}` }));
  const registry = openRegistry({ env: { PI_CODING_AGENT_DIR: join(dir, "agent") }, cwd: dir, home: dir, packagedRoot: null, scan: makeNodeScanPort() });
  discovery = registry.discover();
  ctx = { paths: registry.paths, fs: makeNodeFileSystem(), launch: unaccountedLaunch };
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a call value is exactly one argv item of the real process", () => {
  test.prop([valueArb], { numRuns: numRuns(40) })("printf-style %s\\n {x}", async (x) => {
    const r = await callTool(discovery, "echo_argv", { x }, ctx);
    expect(r.ok).toBe(true);
    // an empty substituted word is dropped from argv
    expect(r.text.split("\0").slice(0, -1)).toEqual(x === "" ? ["%s\\n"] : ["%s\\n", x]);
  });
});
