import { describe, expect, it } from "vitest";
import { splitWords, splitWordsDetailed } from "../../../core/template/split.js";

describe("splitWords", () => {
  it("quotes and escaped spaces", () => {
    expect(splitWords("tool 'literal words' --name hello\\ world")).toEqual(["tool", "literal words", "--name", "hello world"]);
  });

  it("empty quoted words, escapes, trailing backslash", () => {
    expect(splitWords(`a '' b "x y"z`)).toEqual(["a", "", "b", "x yz"]);
    expect(splitWords(`a "b \\" c" 'd \\ e' f\\\\g h\\n "" '' x\\`)).toEqual(["a", 'b " c', "d \\ e", "f\\g", "h\\n", "", "", "x\\"]);
    expect(splitWords("  lead   trail  ")).toEqual(["lead", "trail"]);
    expect(splitWords("  lead  'q'   trail  ")).toEqual(["lead", "q", "trail"]);
    // a text of quotes alone is one empty word each
    expect(splitWords("''")).toEqual([""]);
    expect(splitWords(`'' ""`)).toEqual(["", ""]);
    expect(splitWords(`it\\'s a\\"b \\\\`)).toEqual(["it's", 'a"b', "\\"]);
    expect(splitWords("unterminated 'quote here")).toEqual(["unterminated", "quote here"]);
  });

  it("every white space character separates words and can be escaped, with or without quotes in the text", () => {
    for (const sp of [" ", "\t", "\n", "\r", "\f", "\v"]) {
      expect(splitWords(`a${sp}b`)).toEqual(["a", "b"]);
      expect(splitWords(`a${sp}'b c'`)).toEqual(["a", "b c"]);
      expect(splitWords(`a\\${sp}b${sp}c`)).toEqual([`a${sp}b`, "c"]);
    }
    // other characters are no separators
    expect(splitWords("a\u0000b\u0008c\u000ed")).toEqual(["a\u0000b\u0008c\u000ed"]);
    expect(splitWords("a\u00a0b\u0000c 'd'")).toEqual(["a\u00a0b\u0000c", "d"]);
  });

  it("reports an unterminated quote", () => {
    expect(splitWordsDetailed("say 'oops").unterminatedQuote).toBe("'");
    expect(splitWordsDetailed('say "fine"').unterminatedQuote).toBeUndefined();
  });

  it("tells which words were written with a quote or a backslash", () => {
    expect(splitWordsDetailed("ls -l | wc").quoted).toBeUndefined();
    expect(splitWordsDetailed(`grep -E "a|b" x 'y'z \\; | ''`).quoted).toEqual([2, 4, 5, 7]);
    expect(splitWordsDetailed("a\\").quoted).toEqual([0]);
  });

  it("keeps shell syntax literal", () => {
    expect(splitWords("echo $(rm -rf /); `id` *.ts")).toEqual(["echo", "$(rm", "-rf", "/);", "`id`", "*.ts"]);
  });

  it("keeps Windows-style backslashes", () => {
    expect(splitWords("C:\\Program\\x")).toEqual(["C:\\Program\\x"]);
  });

  it("a backslash outside quotes escapes `;` (find's -exec), and stays before a regex's | < >", () => {
    expect(splitWords("find . -exec ls {} \\;")).toEqual(["find", ".", "-exec", "ls", "{}", ";"]);
    expect(splitWords("grep a\\|b \\<ba")).toEqual(["grep", "a\\|b", "\\<ba"]);
    // inside double quotes it stays, as in a shell
    expect(splitWords('echo "a\\;b"')).toEqual(["echo", "a\\;b"]);
    expect(splitWordsDetailed("ls {} \\;").quoted).toEqual([2]);
  });
});
