import { describe, expect, it } from "vitest";
import {
  collapseFailures, failureBody, failureReason, finalText, formatSize, renderInvocation, renderWord, successBody, truncateBody,
} from "../../../core/template/report.js";

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

  it("keeps the last 50 KiB on a character boundary", () => {
    const t = truncateBody("é".repeat(40_000));
    expect(t.truncated).toBe(true);
    expect(t.outBytes).toBeLessThanOrEqual(50 * 1024);
    expect(t.text).toBe("é".repeat(t.text.length));
  });

  it("bodies are trimmed; empty is (no output)", () => {
    expect(finalText(truncateBody(successBody("\n\nabc\n\n  ")), undefined)).toBe("abc");
    expect(finalText(truncateBody(successBody(" \n\t ")), undefined)).toBe("(no output)");
  });

  it("failure bodies: exit line, killed, stderr and stdout sections", () => {
    expect(failureBody(1, true, "", "")).toBe("Exit code 1 (killed)");
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
