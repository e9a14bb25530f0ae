import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import {
  boundedCommand, collapseFailures, continuedFailureLine, MAX_COMMAND_CHARS, renderCommands, failureBody, failureReason, finalText, formatSize, renderInvocation, renderWord, successBody, truncateBody, truncateFailure, truncateFailureBytes, truncateSuccessBytes,
  MAX_OUTPUT_BYTES, MAX_OUTPUT_LINES, partialStreams, listedCommands, MAX_LISTED_COMMANDS,
} from "../../../core/template/report.js";

describe("a failure's body over the limits", () => {
  const lines = (n: number, word: string): string => Array.from({ length: n }, (_u, i) => `${word} ${i + 1}`).join("\n");
  test.prop([fc.nat(6000), fc.nat(3000), fc.integer({ min: 1, max: 255 }), fc.boolean(), fc.constantFrom("", "\n\nstep: deploy"), fc.constantFrom("x", "é")])(
    "keeps its exit line, the end of stderr, the end of stdout and the step, within the limits",
    (outLines, errLines, code, killed, tail, letter) => {
      const stdout = lines(outLines, `out${letter}`);
      const stderr = lines(errLines, `err${letter}`);
      const t = truncateFailure(code, killed, stderr, stdout, tail);
      const full = `${failureBody(code, killed, stderr, stdout)}${tail}`;
      if (!t.truncated) return void expect(t.text).toBe(full);
      expect(t.text.startsWith(`Exit code ${code}${killed ? " (killed)" : ""}`)).toBe(true);
      if (errLines > 0) expect(t.text).toMatch(new RegExp(`err${letter} ${errLines}(\n|$)`));
      if (outLines > 0) expect(t.text).toContain(`out${letter} ${outLines}`);
      expect(t.text.endsWith(outLines > 0 ? `out${letter} ${outLines}${tail}` : `err${letter} ${errLines}${tail}`)).toBe(true);
      expect(t.outLines).toBe(t.text.split("\n").length);
      expect(t.outLines).toBeLessThanOrEqual(MAX_OUTPUT_LINES);
      expect(t.outBytes).toBe(Buffer.byteLength(t.text));
      expect(t.outBytes).toBeLessThanOrEqual(MAX_OUTPUT_BYTES);
      expect(t.totalBytes).toBe(Buffer.byteLength(full));
    },
  );

  test.prop([fc.array(fc.string({ unit: fc.constantFrom("a", "é", "\r", ""), maxLength: 5 }), { minLength: 1, maxLength: 60 }), fc.integer({ min: 1, max: 70 })])(
    "keeps the last lines as splitting the body into lines would",
    (lineList, maxLines) => {
      const body = lineList.join("\n");
      const t = truncateBody(body, maxLines, Number.MAX_SAFE_INTEGER);
      expect(t.text).toBe(lineList.slice(-maxLines).join("\n"));
      expect(t.totalLines).toBe(lineList.length);
      expect(t.outLines).toBe(Math.min(maxLines, lineList.length));
    },
  );

  // characters the trims and the cuts treat apart: newlines, carriage returns, blanks, a
  // no-break space and a line separator (white space to trimEnd only), and one to four UTF-8 bytes
  const piece = fc.constantFrom("a", "\n", "\r", " ", "\t", "\f", "\u00a0", "\u2028", "é", "€", "😀", "\n\n", " \n");
  test.prop([fc.array(piece, { maxLength: 400 }), fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 120 })], { numRuns: 300 })(
    "a successful stdout reported from its bytes is reported as its decoded text is, and its body is those bytes",
    (pieces, maxLines, maxBytes) => {
      const text = pieces.join("");
      const bytes = new TextEncoder().encode(text);
      const { truncated, body } = truncateSuccessBytes(bytes, maxLines, maxBytes);
      const whole = successBody(text);
      expect(truncated).toEqual(truncateBody(whole, maxLines, maxBytes));
      if (whole !== "(no output)") expect(new TextDecoder().decode(bytes.subarray(body.start, body.end))).toBe(whole);
    },
  );

  test.prop([fc.array(piece, { minLength: 1, maxLength: 60 }), fc.integer({ min: 1, max: 3000 }), fc.constantFrom("", "boom\n", "e\u00e9\n".repeat(3000)), fc.constantFrom("", "\n\nstep: deploy"), fc.boolean()], { numRuns: 60 })(
    "a failed run's long stdout reported from its bytes is reported as its decoded text is, and `full` is that text's bytes",
    (pieces, times, stderr, tail, killed) => {
      const text = pieces.join("").repeat(times);
      const bytes = new TextEncoder().encode(text);
      const t = truncateFailureBytes(1, killed, stderr, bytes, tail);
      const expected = truncateFailure(1, killed, stderr, text, tail);
      // (undefined: short enough once trimmed to be shown whole)
      if (t === undefined) return void expect(expected.truncated).toBe(false);
      const { full, ...shown } = t;
      const { full: fullText, ...shownText } = expected;
      expect(shown).toEqual(shownText);
      expect(new TextDecoder().decode(full)).toBe(fullText);
    },
  );

  it("a notice over a stream kept only in part says what is missing, never 'Full output'", () => {
    const t = truncateBody("x\n".repeat(3000));
    const partial = partialStreams([
      { name: "stdout", truncated: true, bytes: 268_435_457, kept: 1_048_576 },
      { name: "stderr", truncated: false, bytes: 10, kept: 10 },
    ]);
    expect(finalText(t, "/o/out.txt", partial).endsWith("Output saved to: /o/out.txt, not in full: stdout was 256.0MB, only its last 1.0MB is in it]")).toBe(true);
    expect(partialStreams([{ name: "stdout", truncated: false, bytes: 1, kept: 1 }])).toBeUndefined();
    expect(finalText(t, "/o/out.txt", undefined).endsWith("Full output saved to: /o/out.txt]")).toBe(true);
  });

  it("the red team's case: 5000 lines of stdout, then the error on stderr and exit 2", () => {
    const t = truncateFailure(2, false, "FATAL: disk full\n", `${lines(5000, "n")}\n`, "");
    expect(t.text.startsWith("Exit code 2\n\nstderr:\nFATAL: disk full\n\nstdout:\n")).toBe(true);
    expect(t.text.endsWith("n 5000")).toBe(true);
  });
});

describe("a command's text in a result", () => {
  test.prop([fc.string({ unit: fc.constantFrom("a", "é", "😀", " ", "'"), maxLength: 3000 })])("is whole when short; else its start and end, the marker counting what was left out", (command) => {
    const shown = boundedCommand(command);
    if (command.length <= MAX_COMMAND_CHARS) return void expect(shown).toBe(command);
    const m = /^([^]*)…\[(\d+) characters left out\]…([^]*)$/.exec(shown)!;
    expect(command.startsWith(m[1]!) && command.endsWith(m[3]!)).toBe(true);
    expect(m[1]!.length + Number(m[2]) + m[3]!.length).toBe(command.length);
    expect(m[1]!.length + m[3]!.length).toBeLessThanOrEqual(MAX_COMMAND_CHARS + 1);
    expect(/[\ud800-\udbff]$|^[\udc00-\udfff]/.test(m[1]!) || /^[\udc00-\udfff]/.test(m[3]!)).toBe(false);
  });

  it("lists several commands one by one, the first MAX_LISTED_COMMANDS, and counts the rest", () => {
    expect(listedCommands(["a", "b"])).toEqual({ steps: ["a", "b"], more: 0 });
    const many = Array.from({ length: MAX_LISTED_COMMANDS + 7 }, (_u, i) => `echo ${i}`);
    expect(listedCommands(many)).toEqual({ steps: many.slice(0, MAX_LISTED_COMMANDS), more: 7 });
  });

  it("bounds a line of several commands as one", () => {
    expect(renderCommands(["a", "b"])).toBe("a && b");
    expect(renderCommands(["a".repeat(1500), "b".repeat(1500)])).toBe(`${"a".repeat(1500)}…[1004 characters left out]…${"b".repeat(500)}`);
  });
});

describe("report formatting", () => {
  it("renders words bare when safe, else single-quoted", () => {
    expect(renderWord("a/b:c=d.e,f@g%h+i-j_k")).toBe("a/b:c=d.e,f@g%h+i-j_k");
    expect(renderWord("")).toBe("''");
    expect(renderWord("two words")).toBe("'two words'");
    expect(renderWord("it's")).toBe(`'it'\\''s'`);
    expect(renderInvocation({ command: "/proj/scan", args: ["/tmp/a.ogg", "$x"] })).toBe("/proj/scan /tmp/a.ogg '$x'");
  });

  it("formats sizes as B, KB, MB", () => {
    expect(formatSize(1023)).toBe("1023B");
    expect(formatSize(19500)).toBe("19.0KB");
    expect(formatSize(23892)).toBe("23.3KB");
    expect(formatSize(10_000_000)).toBe("9.5MB");
  });

  it("2500 lines keep the last 2000 and say so", () => {
    const body = Array.from({ length: 2500 }, (_u, i) => `line ${i + 1}`).join("\n");
    const t = truncateBody(body);
    expect(t).toMatchObject({ truncated: true, outLines: 2000, totalLines: 2500 });
    expect(t.text.startsWith("line 501\n")).toBe(true);
    expect(finalText(t, "/A/out.txt").endsWith("\n\n[Output truncated: 2000 of 2500 lines (19.0KB of 23.3KB). Full output saved to: /A/out.txt]")).toBe(true);
    expect(finalText(t, undefined).endsWith("(19.0KB of 23.3KB). Full output could not be saved.]")).toBe(true);
  });

  it("a line the byte limit cut is said to be cut, after the counts tools read", () => {
    const line = "x".repeat(3_000_000);
    const alone = truncateBody(line);
    expect(alone).toMatchObject({ truncated: true, outLines: 1, totalLines: 1, outBytes: MAX_OUTPUT_BYTES, cutLine: { kept: MAX_OUTPUT_BYTES, bytes: 3_000_000 } });
    expect(finalText(alone, "/A/out.txt").endsWith("\n\n[Output truncated: 1 of 1 lines (50.0KB of 2.9MB); the first line shown is only the last 50.0KB of a 2.9MB line. Full output saved to: /A/out.txt]")).toBe(true);
    // the long line last after short ones
    const after = truncateBody(`1\n2\n3\n${line}`);
    expect(finalText(after, "/A/out.txt").endsWith("[Output truncated: 1 of 4 lines (50.0KB of 2.9MB); the first line shown is only the last 50.0KB of a 2.9MB line. Full output saved to: /A/out.txt]")).toBe(true);
    // several lines shown, the first of them cut: 1000 lines of 97 bytes and a newline each, the
    // last 51200 bytes begin 44 bytes before the end of a line
    const rows = truncateBody(Array.from({ length: 1000 }, () => "y".repeat(97)).join("\n"));
    expect(rows.cutLine).toEqual({ kept: 44, bytes: 97 });
    expect(rows.text.split("\n")[0]).toBe("y".repeat(44));
    expect(finalText(rows, undefined)).toContain(`[Output truncated: ${rows.outLines} of 1000 lines (50.0KB of 95.7KB); the first line shown is only the last 44B of a 97B line.`);
    // a cut right before a newline shows nothing of that line: the text keeps the last 50 KiB
    // exactly, beginning with the line break, and no line is said to be cut
    const edge = truncateBody(Array.from({ length: 1000 }, () => "w".repeat(99)).join("\n"));
    expect(edge.cutLine).toBeUndefined();
    expect(edge.text.startsWith(`\n${"w".repeat(99)}\n`)).toBe(true);
    expect(edge.outBytes).toBe(MAX_OUTPUT_BYTES);
    // 1024 lines of 99 bytes: the cut falls on a newline again, no line is cut, and the count takes
    // the empty start as a line, as the notice always counted
    const whole = truncateBody(Array.from({ length: 1024 }, () => "z".repeat(99)).join("\n"));
    expect(whole.cutLine).toBeUndefined();
    expect(finalText(whole, undefined)).toContain("[Output truncated: 513 of 1024 lines (50.0KB of 100.0KB).");
  });

  it("keeps the last 50 KiB on a character boundary", () => {
    const t = truncateBody("é".repeat(40_000));
    expect(t.truncated).toBe(true);
    expect(t.outBytes).toBeLessThanOrEqual(50 * 1024);
    expect(t.text).toBe("é".repeat(t.text.length));
  });

  it("bodies are trimmed; empty is (no output)", () => {
    expect(finalText(truncateBody(successBody("\n\nabc\n\n  ")), undefined)).toBe("abc");
    expect(finalText(truncateBody(successBody(" \n\t ")), undefined)).toBe("(no output)");
    // the first line keeps its indentation: columns stay aligned
    expect(successBody("\n      5 the\n     12 a\n")).toBe("      5 the\n     12 a");
  });

  it("failure bodies: exit line, killed, stderr and stdout sections", () => {
    expect(failureBody(1, true, "", "")).toBe("Exit code 1 (killed)");
    expect(failureBody(1, false, "", "", "SIGSEGV")).toBe("Killed by signal SIGSEGV (no exit code of its own)");
    expect(continuedFailureLine({ command: "x", code: 1, killed: false, stderr: "", signal: "SIGKILL" })).toBe("Step failed, the sequence went on: x (killed by signal SIGKILL)");
    // the run's own kill (a timeout) says killed, whatever signal did it
    expect(failureBody(1, true, "", "", "SIGTERM")).toBe("Exit code 1 (killed)");
    expect(failureBody(65, false, "why\n", "out\n\n")).toBe("Exit code 65\n\nstderr:\nwhy\n\nstdout:\nout");
    expect(failureBody(2, false, "  \n", "x")).toBe("Exit code 2\n\nstdout:\nx");
  });

  it("failure reasons and collapsed failures", () => {
    expect(failureReason("x\nparallel branch quorum not met: usable 1/3, minimum 2", [])).toBe("parallel_quorum_not_met");
    expect(failureReason("", [{ usable: false }])).toBe("all_branches_unusable");
    expect(failureReason("", [{ usable: true }])).toBe("command_failed");
    expect(failureReason("", [])).toBe("command_failed");
    const f = { code: 1, command: "a", killed: false };
    expect(collapseFailures([f, f, { ...f, command: "b" }, f])).toEqual([f, { ...f, command: "b" }, f]);
  });
});
