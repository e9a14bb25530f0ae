// stdout that is no UTF-8 text (a binary file, another encoding) reaches the agent with U+FFFD in
// place of the bytes that are not: the result says so, and flags it, on success and on failure.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { NOT_UTF8, notUtf8Sizes } from "../../../runtime/execute/execution-report.js";
import { run, sandbox, type Sandbox } from "./support.js";

let box: Sandbox;
beforeEach(() => void (box = sandbox()));
afterEach(() => box.cleanup());

describe("stdout that is not UTF-8", () => {
  it("is said and flagged; UTF-8 text (accents included) is not", async () => {
    const binary = await run(box, "printf 'ab\\377cd'");
    expect(binary.result.ok).toBe(true);
    expect(binary.result.text).toBe(`ab\uFFFDcd\n\n${NOT_UTF8}`);
    expect(binary.result.details["stdoutNotUtf8"]).toBe(true);
    const failing = await run(box, "sh -c \"printf 'x\\377'; exit 3\"");
    expect(failing.result.ok).toBe(false);
    expect(failing.result.text.endsWith(NOT_UTF8)).toBe(true);
    const text = await run(box, "printf 'h\\303\\251llo'");
    expect(text.result.text).toBe("héllo");
    expect(text.result.details).not.toHaveProperty("stdoutNotUtf8");
  });

  it("cut, it is saved as the bytes the command printed, and the note says the sizes shown are of the text", async () => {
    // 300,000 bytes of 0xff: 900,000 bytes once decoded (U+FFFD is three bytes in UTF-8)
    const binary = await run(box, "node -e 'process.stdout.write(Buffer.alloc(300000,255))'");
    expect(binary.result.ok).toBe(true);
    const saved = binary.result.details["fullOutputPath"];
    expect(typeof saved).toBe("string");
    expect(readFileSync(saved as string).equals(Buffer.alloc(300_000, 0xff))).toBe(true);
    expect(binary.result.text.endsWith(`${NOT_UTF8}\n${notUtf8Sizes(300_000)}`)).toBe(true);
  });
});
