import { readFileSync } from "node:fs";
import { afterEach, beforeEach, expect, it } from "vitest";
import { run, sandbox, type Sandbox } from "./support.js";

let box: Sandbox;
beforeEach(() => {
  box = sandbox();
});
afterEach(() => box.cleanup());

it("a 2500-line stdout is truncated and the full output saved under <agent>/tmp/pi-recipes/outputs", async () => {
  const { result } = await run(box, "sh -c 'i=1; while [ $i -le 2500 ]; do echo \"line $i\"; i=$((i+1)); done'");
  const m = /\n\n\[Output truncated: 2000 of 2500 lines \(19\.0KB of 23\.3KB\)\. Full output saved to: (.+)\]$/.exec(result.text);
  expect(m).not.toBeNull();
  const saved = m?.[1] ?? "";
  expect(saved).toMatch(new RegExp(`^${box.agent}/tmp/pi-recipes/outputs/tool-output-[^/]+/my_tool-stdout\\.txt$`));
  expect(readFileSync(saved, "utf8").split("\n")).toHaveLength(2500);
  expect(result.text.startsWith("line 501\n")).toBe(true);
  expect(result.details).toMatchObject({ truncated: true, fullOutputPath: saved, tool: "my-tool", code: 0 });
});

it("a long stdout past the capture (4 MB spilled) is shown by its end, and saved as the body it is: blank lines around it left out, every byte between kept", async () => {
  const script = box.script("long", `printf '\\n  \\n'; i=0; while [ $i -lt 4000 ]; do printf 'é%01000d€\\n' $i; i=$((i+1)); done; printf 'last 😀\\n \\n\\n'`);
  const { result } = await run(box, script);
  expect(result.ok).toBe(true);
  const saved = result.details["fullOutputPath"] as string;
  const lines = Array.from({ length: 4000 }, (_u, i) => `é${String(i).padStart(1000, "0")}€`);
  expect(readFileSync(saved, "utf8")).toBe(`${lines.join("\n")}\nlast 😀`);
  const m = /\n\n\[Output truncated: \d+ of 4001 lines \(50\.0KB of 3\.8MB\); the first line shown is only the last \d+B of a 1005B line\. Full output saved to: (.+)\]$/.exec(result.text);
  expect(m?.[1], result.text.slice(-200).replace(/0{20,}/g, "0…")).toBe(saved);
  expect(result.text).toContain(`${lines[3999]}\nlast 😀\n\n[Output truncated`);
});

it("a failure with a long stdout (4 MB spilled) shows its exit, stderr and the end of stdout, and saves the whole body", async () => {
  const script = box.script("longfail", `i=0; while [ $i -lt 4000 ]; do printf 'é%01000d€\\n' $i; i=$((i+1)); done; echo oops >&2; exit 3`);
  const { result } = await run(box, script);
  expect(result.ok).toBe(false);
  const lines = Array.from({ length: 4000 }, (_u, i) => `é${String(i).padStart(1000, "0")}€`);
  expect(result.text.startsWith("Exit code 3\n\nstderr:\noops\n\nstdout:\n")).toBe(true);
  expect(result.text).toContain(`${lines[3999]}\n\n[Output truncated`);
  const saved = result.details["fullOutputPath"] as string;
  expect(readFileSync(saved, "utf8")).toBe(`Exit code 3\n\nstderr:\noops\n\nstdout:\n${lines.join("\n")}`);
});

it("details of a success name the command, byte counts and trusted-boundary warnings", async () => {
  const { result } = await run(box, "sh -c 'printf hi'");
  expect(result.details).toMatchObject({ code: 0, command: "sh -c 'printf hi'", killed: false, stdoutBytes: 2, stdoutCapturedBytes: 2, stderrBytes: 0, truncated: false });
  expect((result.details["templateWarnings"] as string[])[0]).toMatch(/^sh: invokes sh; shell command strings are trusted/);
});

it("a stream kept only in part is never called the full output: 3 MB of stderr, then a failure", async () => {
  const { result } = await run(box, "sh -c 'yes errline | head -c 3000000 >&2; exit 5'");
  expect(result.ok).toBe(false);
  expect(result.text.startsWith("Exit code 5\n\nstderr:\n")).toBe(true);
  const m = /\. Output saved to: (.+), not in full: stderr was 2\.9MB, only its last 1\.0MB is in it \(all of it: (.+)\)\]$/.exec(result.text);
  expect(m, result.text.slice(-400)).not.toBeNull();
  expect(readFileSync(m![2]!).length).toBe(3_000_000);
  expect(result.text).not.toContain("Full output saved to");
});
