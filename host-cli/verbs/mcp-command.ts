// `pi-recipes mcp`: the MCP server over stdio (one client, the default), or with --http over
// Streamable HTTP for many clients. Its --options are read with node:util parseArgs from the raw
// words (main.ts hands them over), since the key=value command line has no options.
import * as E from "fp-ts/lib/Either.js";
import { parseArgs } from "node:util";
import { loadToken } from "../../host-mcp/auth.js";
import { TOKEN_ENV } from "../../host-mcp/token-env.js";
import { DEFAULT_MAX_BODY_BYTES } from "../../host-mcp/http-body.js";
import { didYouMean } from "../../core/suggest.js";
import { usageError, type CliVerb, type VerbOutcome } from "./cli-verb.js";
import { verbHelp } from "../help.js";

const OPTIONS = {
  http: { type: "boolean" },
  host: { type: "string" },
  port: { type: "string" },
  "token-file": { type: "string" },
  "allowed-host": { type: "string", multiple: true },
  "allowed-origin": { type: "string", multiple: true },
  "max-calls": { type: "string" },
  "max-sessions": { type: "string" },
  "max-body-bytes": { type: "string" },
  "idle-timeout": { type: "string" },
} as const;

function count(name: string, text: string | undefined, fallback: number, min: number): number | string {
  if (text === undefined) return fallback;
  const n = Number(text);
  return Number.isInteger(n) && n >= min ? n : `--${name} must be a whole number >= ${min}, got "${text}"`;
}

const exitAfter = (code: number): VerbOutcome => {
  // Everything the server opened is closed by now; a handle some library forgot must not keep
  // an orphaned server alive after its client is gone.
  setTimeout(() => process.exit(code), 1000).unref();
  return { kind: "exit", code };
};

/** parseArgs' complaint; an unknown option gets the nearest known one (`--prot` → `--port`). */
function optionError(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  const unknown = /^Unknown option '(--?[^']*)'/.exec(message)?.[1];
  if (unknown === undefined) return message;
  const near = didYouMean(unknown, [...Object.keys(OPTIONS).map((o) => `--${o}`), "--help"]);
  return near === "" ? `Unknown option '${unknown}'` : `Unknown option '${unknown}'.${near}`;
}

/** `pi-recipes mcp [--http ...]` from the words after the verb. */
export async function runMcp(words: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<VerbOutcome> {
  if (words.includes("--help") || words.includes("-h")) {
    // the same text as `pi-recipes help mcp`
    process.stdout.write((await verbHelp("mcp"))!);
    return { kind: "exit", code: 0 };
  }
  if (words.some((w) => w === "--token" || w.startsWith("--token=")))
    return usageError(`mcp: never pass the token on the command line (other users see it in the process list); set ${TOKEN_ENV} or use --token-file PATH`);
  let values: ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: false }>>["values"];
  try {
    values = parseArgs({ args: [...words], options: OPTIONS, allowPositionals: false, strict: true }).values;
  } catch (e) {
    return usageError(`mcp: ${optionError(e)}`);
  }
  if (values.http !== true) {
    const extra = Object.keys(values);
    if (extra.length > 0) return usageError(`mcp: --${extra[0]} needs --http`);
    const { serveStdio } = await import("../../host-mcp/stdio.js");
    return exitAfter(await serveStdio());
  }
  const port = count("port", values.port, 8765, 0);
  const maxCalls = count("max-calls", values["max-calls"], 64, 1);
  const maxSessions = count("max-sessions", values["max-sessions"], 256, 1);
  const maxBodyBytes = count("max-body-bytes", values["max-body-bytes"], DEFAULT_MAX_BODY_BYTES, 1024);
  const idleSeconds = count("idle-timeout", values["idle-timeout"], 30 * 60, 1);
  for (const v of [port, maxCalls, maxSessions, maxBodyBytes, idleSeconds]) if (typeof v === "string") return usageError(`mcp: ${v}`);
  if ((port as number) > 65535) return usageError(`mcp: --port must be at most 65535, got "${values.port}"`);
  const loaded = loadToken(env, values["token-file"]);
  if (E.isLeft(loaded)) {
    process.stderr.write(`pi-recipes mcp: ${loaded.left}\n`);
    return { kind: "exit", code: 2 };
  }
  const token = loaded.right;
  if (token.warning !== undefined) process.stderr.write(`pi-recipes mcp: warning: ${token.warning}\n`);
  const { serveHttp } = await import("../../host-mcp/http-serve.js");
  const code = await serveHttp({
    host: values.host ?? "127.0.0.1",
    port: port as number,
    token: token.token,
    ...(token.file === undefined ? {} : { tokenFile: token.file }),
    allowedHosts: values["allowed-host"] ?? [],
    allowedOrigins: values["allowed-origin"] ?? [],
    limits: { maxCalls: maxCalls as number, maxSessions: maxSessions as number, maxBodyBytes: maxBodyBytes as number, idleMs: (idleSeconds as number) * 1000 },
    env,
  });
  return exitAfter(code);
}

export const mcpVerb: CliVerb = {
  name: "mcp",
  // reached only without --options (main.ts hands `mcp ...` words to runMcp)
  run: async (cmd) => {
    if (cmd.positional.length > 0 || Object.keys(cmd.params).length > 0 || cmd.json) return usageError("mcp takes only --options (see usage)");
    return runMcp([]);
  },
};
