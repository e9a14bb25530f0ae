// Honest results at the edges of the command line: bare `pi-recipes`, mistyped mcp options.
import { describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";

describe("the command line without a verb or with a mistyped option", () => {
  it("bare pi-recipes prints the help and exits 0", () => {
    const r = runCli([]);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("usage: pi-recipes <verb>");
    expect(r.stdout).toContain("pi-recipes <verb> --help");
  });

  it("pi-recipes mcp --prot suggests --port, like other verbs' unknown options", () => {
    for (const words of [["mcp", "--prot", "8000"], ["mcp", "--http", "--prot", "8000"]]) {
      const r = runCli(words);
      expect(r.status).toBe(2);
      expect(r.stderr).toContain(`pi-recipes: mcp: Unknown option '--prot'. Did you mean "--port"?`);
    }
  });
});
