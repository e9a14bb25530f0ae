// Drives `pi-recipes mcp` as a client would: the SDK's real Client over stdio, against a fresh
// agent dir per test.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { cliNodeArgs } from "../support/cli.js";

export const REPO = resolve(fileURLToPath(new URL("../..", import.meta.url)));
/** `pi-recipes mcp`: the build of the current sources made for this test run (test/support/cli.ts) */
export const SERVER_ARGS = [...cliNodeArgs(), "mcp"];

export interface AgentDir {
  readonly dir: string;
  readonly recipes: string;
  write(name: string, recipe: unknown): string;
  remove(name: string): void;
  cleanup(): void;
}

export function makeAgentDir(): AgentDir {
  const dir = mkdtempSync(join(tmpdir(), "pi-recipes-mcp-"));
  const recipes = join(dir, "recipes");
  mkdirSync(recipes, { recursive: true });
  return {
    dir,
    recipes,
    write(name, recipe) {
      const path = join(recipes, `${name}.json`);
      writeFileSync(path, JSON.stringify(recipe, null, 2));
      return path;
    },
    remove(name) {
      rmSync(join(recipes, `${name}.json`), { force: true });
    },
    cleanup() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const serverEnv = (agentDir: string): Record<string, string> => {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  env["PI_CODING_AGENT_DIR"] = agentDir;
  return env;
};

export interface Connected {
  readonly client: Client;
  readonly transport: StdioClientTransport;
  /** list_changed notifications received so far */
  listChanged(): number;
  /** resolves at the next list_changed after `seen` of them */
  nextListChanged(seen: number, timeoutMs?: number): Promise<void>;
  stderr(): string;
  close(): Promise<void>;
}

export async function connect(agent: AgentDir): Promise<Connected> {
  const transport = new StdioClientTransport({ command: process.execPath, args: SERVER_ARGS, cwd: REPO, env: serverEnv(agent.dir), stderr: "pipe" });
  let err = "";
  transport.stderr?.on("data", (chunk: Buffer) => (err += chunk.toString()));
  const client = new Client({ name: "pi-recipes-test", version: "1.0.0" });
  let count = 0;
  const waiters: (() => void)[] = [];
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    count++;
    for (const w of waiters.splice(0)) w();
  });
  await client.connect(transport);
  return {
    client,
    transport,
    listChanged: () => count,
    async nextListChanged(seen, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (count <= seen) {
        if (Date.now() > deadline) throw new Error(`no tools/list_changed within ${timeoutMs} ms; stderr:\n${err}`);
        await new Promise<void>((done) => {
          waiters.push(done);
          setTimeout(done, 50);
        });
      }
    },
    stderr: () => err,
    close: () => client.close(),
  };
}

/** The text of a tool result's single text block. */
export function textOf(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content.map((c) => c.text ?? "").join("\n");
}

export const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));
