// A step that fails while its sequence goes on (`failure: continue`, the default) is named in the
// result, through the real `pi-recipes call`: the text says which command failed, with its exit
// code and first stderr line, and the CLI repeats it on stderr. A failure a retry recovered is not
// named.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, runCliJson } from "../support/cli.js";

let dir: string;
let env: NodeJS.ProcessEnv;
const recipe = (name: string, body: object): void => writeFileSync(join(dir, "agent", "recipes", `${name}.json`), JSON.stringify(body));

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "pi-recipes-step-failures-"));
  mkdirSync(join(dir, "agent", "recipes"), { recursive: true });
  writeFileSync(join(dir, "words.txt"), "pear\napple\n");
  recipe("sorted", { description: "Sort a file", args: ["file:path"], template: ["cat {file}", "sort"] });
  recipe("wide", { description: "Twenty branches at once", template: { parallel: true, repeat: 20, template: "true" } });
  recipe("wide_wait", { description: "Twenty waits at once", template: { parallel: true, repeat: 20, template: { delay: 1, template: "true" } } });
  // the first attempt's soft failure and its failed gate are both superseded by the second attempt
  const soft = join(dir, "soft-marker");
  recipe("group_retry", {
    description: "Retried as a group",
    template: {
      retry: 2,
      template: [
        `sh -c 'test -f ${soft} || (echo soft failure >&2; exit 4)'`,
        { template: `sh -c 'test -f ${soft} || (touch ${soft}; exit 5)'`, failure: "branch" },
        "echo group ok",
      ],
    },
  });
  const flaky = join(dir, "flaky-marker");
  recipe("leaf_retry", {
    description: "A flaky step retried",
    template: [{ template: `sh -c 'test -f ${flaky} || (touch ${flaky}; echo flaky >&2; exit 1)'`, retry: 2 }, "echo leaf ok"],
  });
  // a branch retried as a group beside a branch whose sequence goes on past a failure: the
  // retry drops only what its own attempt recorded
  const slow = join(dir, "slow-marker");
  recipe("side_by_side", {
    description: "Two branches",
    template: {
      parallel: true,
      template: [
        { label: "retried", retry: 2, template: [{ template: `sh -c 'sleep 0.5; test -f ${slow} || (touch ${slow}; exit 5)'`, failure: "branch" }, "echo retried ok"] },
        { label: "soft", template: ["sh -c 'echo oops >&2; exit 2'", "echo soft ok"] },
      ],
    },
  });
  env = { PI_CODING_AGENT_DIR: join(dir, "agent") };
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a failed step in a sequence that goes on", () => {
  it("is named in the text (command, exit code, first stderr line) and on stderr, and the call still succeeds", () => {
    const missing = join(dir, "missing.txt");
    const r = runCli(["call", "sorted", `file=${missing}`], env);
    expect(r.status).toBe(0);
    const line = `Step failed, the sequence went on: cat ${missing} (exit 1): cat: ${missing}: No such file or directory`;
    expect(r.stdout).toBe(`(no output)\n\n${line}\n`);
    expect(r.stderr).toBe(`${line}\n`);

    const json = runCliJson(["call", "sorted", `file=${missing}`], env);
    expect(json.status).toBe(0);
    expect(json.body).toMatchObject({ ok: true, text: `(no output)\n\n${line}` });
    expect(json.body.details["continuedFailures"]).toEqual([{ command: `cat ${missing}`, code: 1, killed: false, stderr: `cat: ${missing}: No such file or directory` }]);
  });

  it("adds nothing when every step succeeds", () => {
    const r = runCli(["call", "sorted", `file=${join(dir, "words.txt")}`], env);
    expect(r).toMatchObject({ status: 0, stdout: "apple\npear\n", stderr: "" });
  });

  it("twenty branches running at once print nothing on stderr (no listener warning from node)", () => {
    const r = runCli(["call", "wide"], env);
    expect(r.status).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.stdout.match(/status: done/g)).toHaveLength(20);
    const waits = runCli(["call", "wide_wait"], env);
    expect(waits).toMatchObject({ status: 0, stderr: "" });
  });

  it("adds nothing for a failure a retry later recovered (group retry and a retried step)", () => {
    const group = runCli(["call", "group_retry"], env);
    expect(group).toMatchObject({ status: 0, stdout: "group ok\n", stderr: "" });
    const leaf = runCli(["call", "leaf_retry"], env);
    expect(leaf).toMatchObject({ status: 0, stdout: "leaf ok\n", stderr: "" });
  });

  it("a retry beside another branch drops only its own attempt's failures", () => {
    const r = runCli(["call", "side_by_side"], env);
    expect(r.status).toBe(0);
    const line = "Step failed, the sequence went on: sh -c 'echo oops >&2; exit 2' (exit 2): oops";
    expect(r.stdout).toContain("--- branch: retried status: done ---\nretried ok");
    expect(r.stdout.endsWith(`\n\n${line}\n`)).toBe(true);
    expect(r.stderr).toBe(`${line}\n`);
  });
});
