// `pi-recipes mcp` options: what is refused before any server starts.
import { describe, expect, it } from "vitest";
import { runMcp } from "../../host-cli/verbs/mcp-command.js";

const usage = async (words: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<string> => {
  const outcome = await runMcp(words, env);
  return outcome.kind === "usage" ? outcome.error : `not a usage error: ${JSON.stringify(outcome)}`;
};

describe("pi-recipes mcp options", () => {
  it("names the option that is wrong", async () => {
    expect(await usage(["--bogus"])).toBe("mcp: Unknown option '--bogus'");
    expect(await usage(["--http", "--prot", "8000"])).toBe(`mcp: Unknown option '--prot'. Did you mean "--port"?`);
    expect(await usage(["--port", "8000"])).toBe("mcp: --port needs --http");
    expect(await usage(["--http", "--port", "http"])).toBe('mcp: --port must be a whole number >= 0, got "http"');
    expect(await usage(["--http", "--port", "70000"])).toBe('mcp: --port must be at most 65535, got "70000"');
    expect(await usage(["--http", "--max-calls", "0"])).toBe('mcp: --max-calls must be a whole number >= 1, got "0"');
  });

  it("never takes the token on the command line", async () => {
    for (const words of [["--http", "--token", "x".repeat(40)], ["--http", `--token=${"x".repeat(40)}`]])
      expect(await usage(words)).toBe("mcp: never pass the token on the command line (other users see it in the process list); set PI_RECIPES_MCP_TOKEN or use --token-file PATH");
  });
});
