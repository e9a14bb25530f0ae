// The line reporter behind `call --stream`, MCP progress and the Pi host's live output: each line of
// each stream once, cut at MAX_LINE_CHARS, the run's own result unchanged, and output without line
// breaks handled in one pass over it however long the line grows.
import { describe, expect, it } from "vitest";
import { makeProcessRunner, type Invocation, type ProcessResult } from "../../../adapters/process/ProcessRunner.js";
import { MAX_LINE_CHARS, withOutputLines, type OutputLine } from "../../../runtime/execute/output-lines.js";

const RESULT: ProcessResult = {
  code: 0,
  killed: false,
  timedOut: false,
  stdout: new Uint8Array(),
  stderr: new Uint8Array(),
  stdoutBytes: 0,
  stderrBytes: 0,
} as unknown as ProcessResult;

/** a runner that prints `chunks` (stream, bytes) in order and returns RESULT */
const printing = (chunks: () => Iterable<readonly ["stdout" | "stderr", Uint8Array]>) =>
  makeProcessRunner("printing", async (invocation: Invocation) => {
    for (const [stream, bytes] of chunks()) invocation.onOutput?.(stream, bytes);
    return RESULT;
  });

const INVOCATION: Invocation = { command: "printer", args: [], cwd: "/" };
const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

async function linesOf(chunks: () => Iterable<readonly ["stdout" | "stderr", Uint8Array]>): Promise<{ lines: OutputLine[]; result: ProcessResult; raw: number }> {
  const lines: OutputLine[] = [];
  let raw = 0;
  const runner = withOutputLines(printing(chunks), (line) => lines.push(line));
  const result = await runner.run({ ...INVOCATION, onOutput: (_stream, chunk) => (raw += chunk.length) });
  return { lines, result, raw };
}

describe("output lines", () => {
  it("reports each line of each stream once, split anywhere, carriage returns and a last unended line included", async () => {
    const euro = bytes("€");
    const { lines, result } = await linesOf(() => [
      ["stdout", bytes("one\r\ntw")],
      ["stderr", bytes("warn")],
      ["stdout", bytes("o\n")],
      // a character split between two chunks
      ["stdout", euro.subarray(0, 1)],
      ["stdout", euro.subarray(1)],
      ["stdout", bytes("\n\nlast")],
      ["stderr", bytes("ing\n")],
    ]);
    expect(result).toBe(RESULT);
    expect(lines.filter((l) => l.stream === "stdout").map((l) => l.line)).toEqual(["one", "two", "€", "", "last"]);
    expect(lines.filter((l) => l.stream === "stderr").map((l) => l.line)).toEqual(["warning"]);
    expect(lines.every((l) => l.command === "printer")).toBe(true);
  });

  it("cuts a line longer than the limit, and only such a line", async () => {
    const exact = "x".repeat(MAX_LINE_CHARS);
    const { lines } = await linesOf(() => [
      ["stdout", bytes(`${exact}\n`)],
      ["stdout", bytes(`${exact}\r\n`)],
      ["stdout", bytes(`${exact}y\n`)],
      // the long line in pieces smaller than the limit
      ...Array.from({ length: 30 }, () => ["stdout", bytes("z".repeat(100))] as const),
      ["stdout", bytes("\nafter\n")],
      ["stdout", bytes(`${exact}yy`)],
    ]);
    expect(lines.map((l) => l.line)).toEqual([exact, exact, `${exact}…`, `${"z".repeat(MAX_LINE_CHARS)}…`, "after", `${exact}…`]);
  });

  it("takes output without line breaks in one pass: 128 MB of one line is one cut line, and every byte still reaches the run", async () => {
    // before, each chunk joined everything pending since the last line break and split it again:
    // 25 MB took 29 s and 50 MB 108 s (quadratic); this is five times 25 MB
    const chunk = bytes("a".repeat(64 * 1024));
    const count = 2048;
    const { lines, raw } = await linesOf(function* () {
      for (let i = 0; i < count; i++) yield ["stdout", chunk] as const;
      yield ["stdout", bytes("\nend")];
    });
    expect(raw).toBe(count * chunk.length + 4);
    expect(lines.map((l) => l.line)).toEqual([`${"a".repeat(MAX_LINE_CHARS)}…`, "end"]);
  });
});
