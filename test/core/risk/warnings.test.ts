import { describe, expect, it } from "vitest";
import { trustedBoundaryWarnings } from "../../support/template-reads.js";

const SHELL_STRINGS = (who: string, cmd: string): string =>
  `${who}: invokes ${cmd}; shell command strings are trusted executable content and are not sandboxed by command-template argv splitting. Mitigation: keep scripts local, reviewed, and parameterized with explicit placeholders.`;
const SHELL_SCRIPTS = (who: string, cmd: string): string =>
  `${who}: invokes ${cmd}; shell scripts are trusted executable content and are not sandboxed by command-template argv splitting. Mitigation: keep scripts local, reviewed, and parameterized with explicit placeholders.`;
const JS_EVAL = (who: string, cmd: string): string =>
  `${who}: invokes ${cmd} eval mode; code strings are trusted executable content and are not sandboxed. Mitigation: prefer a checked-in script file or keep eval input fixed and reviewed.`;
const CODE_EVAL = (who: string, cmd: string): string =>
  `${who}: invokes ${cmd} code-eval mode; code strings are trusted executable content and are not sandboxed. Mitigation: prefer a checked-in script file or keep eval input fixed and reviewed.`;
const REMOVES = (who: string): string =>
  `${who}: removes filesystem paths; verify placeholders and paths before running trusted destructive commands. Mitigation: constrain path placeholders and consider dry-run or explicit confirmation.`;
const MUTATES = (who: string): string =>
  `${who}: mutates broad filesystem paths; verify placeholders and paths before running trusted commands. Mitigation: constrain path placeholders and prefer narrow source/destination paths.`;

describe("trustedBoundaryWarnings", () => {
  it("shell with -c (also combined, e.g. -lc) mentions shell command strings", () => {
    expect(trustedBoundaryWarnings("bash -c 'echo risky'")).toEqual([SHELL_STRINGS("bash", "bash")]);
    expect(trustedBoundaryWarnings("bash -lc {script}")).toEqual([SHELL_STRINGS("bash", "bash")]);
  });

  it("shell without -c mentions shell scripts; who is the lower-cased basename", () => {
    expect(trustedBoundaryWarnings("/bin/SH ./run.sh")).toEqual([SHELL_SCRIPTS("sh", "sh")]);
  });

  it("node/deno/bun eval mode", () => {
    expect(trustedBoundaryWarnings("node -e {code}")).toEqual([JS_EVAL("node", "node")]);
    expect(trustedBoundaryWarnings("deno --eval x")).toEqual([JS_EVAL("deno", "deno")]);
    expect(trustedBoundaryWarnings("node app.js")).toEqual([]);
  });

  it("python/perl/ruby code-eval mode, combined short flags count", () => {
    expect(trustedBoundaryWarnings("python3 -Ic {code}")).toEqual([CODE_EVAL("python3", "python3")]);
    expect(trustedBoundaryWarnings("ruby -e 'puts 1'")).toEqual([CODE_EVAL("ruby", "ruby")]);
  });

  it("rm with r/f flags or a risky path", () => {
    expect(trustedBoundaryWarnings("rm -rf {work_dir}")).toEqual([REMOVES("rm")]);
    expect(trustedBoundaryWarnings("rm ~/x")).toEqual([REMOVES("rm")]);
    expect(trustedBoundaryWarnings("rm out.txt")).toEqual([]);
  });

  it("mv/cp/rsync with a risky path", () => {
    expect(trustedBoundaryWarnings("mv {a} b")).toEqual([MUTATES("mv")]);
    expect(trustedBoundaryWarnings("rsync -a src/ /backup")).toEqual([MUTATES("rsync")]);
    expect(trustedBoundaryWarnings("cp a b")).toEqual([]);
  });

  it("uses the leaf label as <who>", () => {
    expect(trustedBoundaryWarnings({ label: "Cleanup", template: "rm -rf {dir}" })).toEqual([REMOVES("Cleanup")]);
    expect(trustedBoundaryWarnings({ template: [{ label: "run", template: "bash -c x" }, "bash -c x"] })).toEqual([
      SHELL_STRINGS("run", "bash"),
      SHELL_STRINGS("bash", "bash"),
    ]);
  });

  it("keeps document order across leaves (recover included) and drops duplicates", () => {
    const template = {
      template: ["bash -c {script}", "node -e {code}", "python3 -Ic {code}", "rm -rf {work_dir}", "bash -c other"],
      recover: "cp {x} /tmp",
    };
    expect(trustedBoundaryWarnings(template)).toEqual([
      SHELL_STRINGS("bash", "bash"),
      JS_EVAL("node", "node"),
      CODE_EVAL("python3", "python3"),
      REMOVES("rm"),
      MUTATES("cp"),
    ]);
  });

  it("safe leaves and non-string templates give no warning", () => {
    expect(trustedBoundaryWarnings("echo safe")).toEqual([]);
    expect(trustedBoundaryWarnings(null)).toEqual([]);
  });
});
