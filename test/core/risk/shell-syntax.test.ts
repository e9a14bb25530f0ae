// Which template words are shell syntax (core/risk/shell-syntax.ts): bare operators and
// redirections are, quoted or escaped text is not, nor find's `-exec … ;`; a word that is only
// quotes (`''`) passes nothing and is warned about.
import { describe, expect, it } from "vitest";
import { shellSyntaxWarnings } from "../../../core/risk/shell-syntax.js";
import { splitWordsDetailed } from "../../../core/template/split.js";

const operators = (leaf: string): string[] =>
  shellSyntaxWarnings(splitWordsDetailed(leaf), undefined).map((w) => /so "([^"]*)"/.exec(w.text)?.[1] ?? "?");

describe("shell syntax in a leaf", () => {
  it("finds bare operators, attached redirections and a word ending in ;", () => {
    expect(operators("ls -l | wc -l")).toEqual(["|"]);
    expect(operators("make && make install || echo no")).toEqual(["&&", "||"]);
    expect(operators("tr a b < {file}")).toEqual(["<"]);
    expect(operators("echo hi > out >> log")).toEqual([">", ">>"]);
    expect(operators("cmd 2>&1 2>/dev/null >out <in &>all >&2")).toEqual(["2>&1", "2>/dev/null", ">out", "<in", "&>all", ">&2"]);
    expect(operators("echo a; echo b")).toEqual(["a;"]);
    expect(operators("sleep 5 &")).toEqual(["&"]);
  });

  it("leaves quoted and escaped text, find's -exec terminator, and look-alikes alone", () => {
    expect(operators(`grep -E "a|b" {file}`)).toEqual([]);
    expect(operators(`awk -F '|' '{print $1}'`)).toEqual([]);
    expect(operators("echo '>' \\&& \\;")).toEqual([]);
    expect(operators("find . -name x -exec rm {} ;")).toEqual([]);
    expect(operators("find . -name x -exec rm {} \\;")).toEqual([]);
    expect(operators("seq 2024 1 | 2x")).toEqual(["|"]);
    expect(operators("curl http://x?a=1&b=2 a|b")).toEqual([]);
  });

  it("names the label, else the command, and says an operator in first place would be run", () => {
    const [labelled] = shellSyntaxWarnings(splitWordsDetailed("ls | wc"), "count");
    expect(labelled).toMatchObject({ kind: "authoring", text: expect.stringMatching(/^count: no shell runs a command template, so "\|" reaches ls as a plain argument/) });
    const [first] = shellSyntaxWarnings(splitWordsDetailed("| wc -l"), undefined);
    expect(first?.text).toMatch(/^\|: no shell runs a command template, so "\|" would be run as a program\. "\|" is a shell pipe: /);
  });

  it("warns of an argument word that is only quotes, naming its place, and of nothing else quoted", () => {
    const texts = (leaf: string, label?: string): string[] => shellSyntaxWarnings(splitWordsDetailed(leaf), label).map((w) => w.text);
    expect(texts("ssh-keygen -N '' -f {key}")).toEqual([
      `ssh-keygen: word 3 is an empty quoted string ('' or ""), which passes no argument: a command template drops every empty argument word, so ssh-keygen gets nothing after "-N". No command template can pass an empty argument: if ssh-keygen takes the value joined to its option (--option=), write that; otherwise remove the word.`,
    ]);
    expect(texts(`printf [%s] "" x`, "show")).toEqual([expect.stringMatching(/^show: word 3 is an empty quoted string .* so printf gets nothing after "\[%s\]"\./)]);
    expect(texts(`printf '' x`)[0]).toMatch(/so printf gets nothing as its first argument\./);
    // quotes around text, an empty value from a placeholder, and the command word are not this
    expect(texts(`echo ' ' "x" {flag?--flag:} \\ z`)).toEqual([]);
    expect(texts(`'' arg`)).toEqual([]);
  });
});
