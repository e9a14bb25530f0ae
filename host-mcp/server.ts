// The MCP server over a live runtime session: tools/list answers the current tool set (one tool
// per active recipe, plus register_tool and inspect), tools/call goes through the gate and then
// the one launch path every host uses (runtime/launch.ts: validation, accounting, execution), and
// every change of the tool set (file edits, register_tool, reviews) is announced with
// notifications/tools/list_changed.
//
// The low-level Server is used on purpose: McpServer wants zod schemas fixed at registration,
// while our tools come and go and carry plain JSON Schema from the core.
import { inspectWithUsage } from "../runtime/usage-view.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv-provider.js";
import type { jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";
import { CallToolRequestSchema, ListToolsRequestSchema, RootsListChangedNotificationSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { otherFormat } from "../core/ledger/keys.js";
import type { ToolSpec } from "../core/tool/tool-spec.js";
import type { LiveSession } from "../runtime/session.js";
import type { CallContext } from "../runtime/verbs/call.js";
import { nodeProcessRunner } from "../adapters/process/node-runner.js";
import { makeCallGate, type GateVerdict } from "./gate.js";
import { checkedRequest, methodOnly, requireInitialized } from "./request-checks.js";
import { progressReporter } from "./progress.js";
import { errorResult, toToolResult } from "./tool-result.js";
import { BUILTIN_TOOLS, INSPECT, MESSAGE, recipeTool, REGISTER_TOOL } from "./tool-list.js";
import { message } from "../runtime/verbs/message.js";
import { runsRootOf } from "../runtime/runs/store.js";
import { sandboxModeOf } from "../core/sandbox/policy.js";

export interface RecipeServerOptions {
  /** the registry, its ledger and its launch path; the caller opens and closes it */
  readonly session: LiveSession;
  /** the runner and limits of calls; the paths, the signal and the accounting are the server's */
  readonly call?: Omit<CallContext, "signal" | "paths" | "launch" | "fs">;
  readonly name?: string;
  readonly version?: string;
  readonly heartbeatMs?: number;
  /** diagnostics for the operator (stderr); never the protocol stream */
  readonly log?: (line: string) => void;
  /** called when the last tool call in flight has ended (the automatic review boundary) */
  readonly onIdle?: () => void;
  /** called when the tools/call of request `id` has ended, refused or run (its processes gone) */
  readonly onCallEnd?: (id: string | number) => void;
  /** the calls in flight over every server that shares one idle boundary (the HTTP server's
   *  sessions): onIdle waits until all of them have ended, not only this server's */
  readonly callsInFlight?: Set<Promise<unknown>>;
}

export interface RecipeServer {
  readonly server: Server;
  /** settles when every call in progress has finished (its processes ended) */
  drain(): Promise<void>;
  /** the tools/call of request `id` while it runs (until its processes have ended): a transport
   *  refuses a request that reuses its id (the SDK keys cancellation by id, so a second request of
   *  that id would leave the first one beyond any cancel or shutdown), and waits on it */
  running(id: string | number): Promise<unknown> | undefined;
  /** stops announcing changes and closes the connection, aborting calls in progress */
  close(): Promise<void>;
}

const argumentsOf = (args: unknown): Readonly<Record<string, unknown>> =>
  typeof args === "object" && args !== null && !Array.isArray(args) ? (args as Record<string, unknown>) : {};

const ROOTS_TIMEOUT_MS = 10_000;

const internal = (e: unknown): string => (e instanceof Error ? e.message : String(e));

export function createRecipeServer(options: RecipeServerOptions): RecipeServer {
  const { session } = options;
  const { live } = session;
  // the operator's PI_RECIPES_SANDBOX, as the session's calls are judged by it
  const sandboxMode = sandboxModeOf(session.env);
  const log = options.log ?? ((): void => undefined);
  const gate = makeCallGate(live);
  const inflight = new Set<Promise<unknown>>();
  const byId = new Map<string | number, Promise<unknown>>();
  let initialized = false;

  // The SDK builds an Ajv instance for every server (formats, meta-schemas: milliseconds of start-up,
  // and one per HTTP client) to check elicitation answers, which this server never asks for; it is
  // built on first use instead.
  let ajv: AjvJsonSchemaValidator | undefined;
  const jsonSchemaValidator: jsonSchemaValidator = { getValidator: (schema) => (ajv ??= new AjvJsonSchemaValidator()).getValidator(schema) };
  const server = new Server(
    { name: options.name ?? "pi-recipes", version: options.version ?? "0.0.0" },
    {
      capabilities: { tools: { listChanged: true } },
      jsonSchemaValidator,
      instructions:
        "Recipe tools of the pi-recipes registry. The tool list changes while you work (recipe edits, register_tool): " +
        "list tools again after notifications/tools/list_changed. A call to a changed tool is refused once with its new schema.",
    },
  );
  server.oninitialized = () => {
    initialized = true;
  };

  // Where a call runs, and so what a relative `path` value means: the client's first MCP root when
  // it offers roots (a file:// URI of a folder), else the server's working directory. Asked once,
  // and again after the client says its roots changed.
  let clientRoot: Promise<string | undefined> | undefined;
  const askRoot = async (): Promise<string | undefined> => {
    try {
      const { roots } = await server.listRoots(undefined, { timeout: ROOTS_TIMEOUT_MS });
      const first = roots[0];
      if (first === undefined) return undefined;
      const dir = first.uri.startsWith("file:") ? fileURLToPath(first.uri) : undefined;
      if (dir !== undefined && statSync(dir, { throwIfNoEntry: false })?.isDirectory() === true) return dir;
      log(`the client's first root ${first.uri} is not a local folder: calls run in ${session.paths.cwd}`);
    } catch (e) {
      // not asked again until the client says its roots changed: a client that never answers
      // must not hold every call up for the timeout
      log(`roots/list failed (${internal(e)}): calls run in ${session.paths.cwd}`);
    }
    return undefined;
  };
  const workingDir = async (): Promise<string> => {
    if (server.getClientCapabilities()?.roots === undefined) return session.paths.cwd;
    return (await (clientRoot ??= askRoot())) ?? session.paths.cwd;
  };
  server.setNotificationHandler(RootsListChangedNotificationSchema, () => {
    clientRoot = undefined;
  });

  const unsubscribe = live.subscribe((change) => {
    if (change.added.length + change.changed.length + change.removed.length === 0 || !initialized) return;
    server.sendToolListChanged().catch((e: unknown) => log(`list_changed not sent: ${internal(e)}`));
  });

  server.setRequestHandler(methodOnly(ListToolsRequestSchema), (request, extra) => {
    requireInitialized(server.getClientVersion(), "tools/list");
    checkedRequest(ListToolsRequestSchema, request, "tools/list");
    live.recheck();
    const { discovery, generation } = live.current();
    gate.shown(discovery, generation);
    // answered once this handler has returned: after the calls read with this request have been
    // judged against the list before it (see host-mcp/gate.ts). A list the client cancelled is
    // never sent, and shows it nothing
    queueMicrotask(() => (extra.signal.aborted ? gate.listWithdrawn() : gate.listAnswered()));
    return { tools: [...BUILTIN_TOOLS, ...discovery.tools.map((tool) => recipeTool(tool, sandboxMode))] };
  });

  async function callRecipe(tool: ToolSpec, args: Readonly<Record<string, unknown>>, extra: CallExtra): Promise<CallToolResult> {
    const token = extra._meta?.progressToken;
    const base = options.call?.runner ?? nodeProcessRunner;
    const reporter =
      token === undefined || tool.async
        ? undefined
        : progressReporter(tool.name, base, (update) => {
            extra
              .sendNotification({ method: "notifications/progress", params: { progressToken: token, ...update } })
              .catch(() => undefined);
          }, options.heartbeatMs === undefined ? {} : { heartbeatMs: options.heartbeatMs });
    try {
      // async recipes start detached runs under <tmpRoot>/runs (runtime/runs), runTool's default
      const cwd = await workingDir();
      const paths = cwd === session.paths.cwd ? session.paths : { ...session.paths, cwd };
      const ctx = { ...options.call, paths, runner: reporter?.runner ?? base, signal: extra.signal };
      const result = await session.launch(tool, args, ctx);
      const diagnostic = result.details["usage_diagnostic"];
      if (typeof diagnostic === "string") log(diagnostic);
      return toToolResult(result);
    } finally {
      reporter?.stop();
    }
  }

  /** `refused`: the tools this call was refused as changed for (their rejections are answered
   *  with the call's answer, see host-mcp/gate.ts) */
  async function call(name: string, args: Readonly<Record<string, unknown>>, extra: CallExtra, arrival: number, refused: string[]): Promise<CallToolResult> {
    // register_tool refreshes under its locks, so the list_changed goes out before it answers
    if (name === REGISTER_TOOL) return toToolResult(await session.register(args, () => void live.refresh()));
    if (name === INSPECT) return toToolResult(await inspectWithUsage(live.current().discovery, args, { paths: live.paths, fs: session.fs, ledger: session.ledger }));
    if (name === MESSAGE) {
      return toToolResult(
        await message(args, {
          discovery: () => live.current().discovery,
          lookFor: (tool) => gate.lookFor(tool),
          // a tool reached by message runs as a direct call would: through the gate and accounting
          invokeTool: async (tool, params) => {
            const gated = await gatedCall(tool, params, extra, arrival, refused);
            if ("refused" in gated) return { ok: false, ...gated.refused };
            const r = gated.result;
            return { ok: r.isError !== true, text: r.content.map((c) => (c.type === "text" ? c.text : "")).join("\n"), details: (r.structuredContent ?? {}) as Record<string, unknown> };
          },
          runsRoot: runsRootOf(live.paths.tmpRoot),
          fs: session.fs,
        }),
      );
    }
    const gated = await gatedCall(name, args, extra, arrival, refused);
    return "refused" in gated ? errorResult(gated.refused.text, gated.refused.details) : gated.result;
  }

  /** Why a gate verdict does not run: the tool is gone, or changed since the client saw it (with
   *  its new description and schema). */
  const refusalOf = (name: string, verdict: Exclude<GateVerdict, { kind: "run" }>): Refusal =>
    verdict.kind === "missing"
      ? { text: verdict.text, details: { tool: name, stale: true } }
      : { text: verdict.text, details: { tool: name, stale: true, description: verdict.tool.description, parameters: verdict.tool.schema } };

  /** A recipe tool's call through the gate, by `tools/call` or by `message`. When the launch finds
   *  the file changed under a call the watcher had not reported yet (it checks the bytes the tool
   *  was built from), or refuses an argument the file as it is now may take, the file is read now
   *  and the call judged again: one edit is refused once, with the new schema when its executable
   *  part changed, and a description-only edit runs. */
  async function gatedCall(
    name: string, args: Readonly<Record<string, unknown>>, extra: CallExtra, arrival: number, refused: string[],
  ): Promise<{ readonly refused: Refusal } | { readonly result: CallToolResult }> {
    const refusal = (verdict: Exclude<GateVerdict, { kind: "run" }>): { readonly refused: Refusal } => {
      if (verdict.kind === "changed") refused.push(name);
      return { refused: refusalOf(name, verdict) };
    };
    const verdict = gate.check(name, arrival);
    if (verdict.kind !== "run") return refusal(verdict);
    const result = await callRecipe(verdict.tool, args, extra);
    if (result.isError !== true) return { result };
    const said = result.structuredContent as { stale?: unknown; usageHint?: unknown; launched?: unknown } | undefined;
    // an argument refused by the tool as it was built, before its launch: the file may say
    // otherwise by now (an edit that adds a default, say, which the watcher has not reported yet),
    // and is read again below. Not one refused after the launch: that launch was counted, and
    // steps before the refusal may have run
    const refusedBefore = said?.usageHint === true && said.launched !== true;
    if (said?.stale !== true && !refusedBefore) return { result };
    // the file and its other format: a JSON twin written beside a Markdown tool makes the tool its
    live.refresh([verdict.tool.path, otherFormat(verdict.tool.path)]);
    const again = gate.check(name, arrival);
    if (again.kind !== "run") return refusal(again);
    // the same bytes: the refusal stands
    if (said.stale !== true && again.tool.sourceSha256 === verdict.tool.sourceSha256) return { result };
    return { result: await callRecipe(again.tool, args, extra) };
  }

  // registered under the method alone: the SDK's server checks a call's shape itself (-32602),
  // where the strict schema here would make a malformed call an internal error (-32603)
  server.setRequestHandler(methodOnly(CallToolRequestSchema), (request, extra) => {
    try {
      requireInitialized(server.getClientVersion(), "tools/call");
    } catch (e) {
      options.onCallEnd?.(extra.requestId);
      throw e;
    }
    const { name } = request.params;
    // its place in the order of arrival, taken before anything is awaited (see host-mcp/gate.ts)
    const arrival = gate.arrived();
    const refused: string[] = [];
    const running = call(name, argumentsOf(request.params.arguments), extra, arrival, refused).catch((e: unknown) => {
      log(`tool ${name} failed: ${e instanceof Error ? e.stack ?? e.message : String(e)}`);
      return errorResult(`Internal error while running tool "${name}": ${internal(e)}`, { tool: name });
    });
    const shared = options.callsInFlight ?? inflight;
    const id = extra.requestId;
    inflight.add(running);
    shared.add(running);
    byId.set(id, running);
    void running.finally(() => {
      // (before the answer is written: no other request is read in between). A cancelled
      // request gets no answer at all: its rejections showed the client nothing
      if (extra.signal.aborted) gate.withdrawn(refused, arrival);
      else gate.answered(refused, arrival);
      inflight.delete(running);
      shared.delete(running);
      if (byId.get(id) === running) byId.delete(id);
      options.onCallEnd?.(id);
      if (shared.size === 0) options.onIdle?.();
    });
    return running;
  });

  return {
    server,
    async drain() {
      while (inflight.size > 0) await Promise.allSettled([...inflight]);
    },
    running: (id) => byId.get(id),
    async close() {
      unsubscribe();
      await server.close();
    },
  };
}

type CallExtra = Parameters<Parameters<Server["setRequestHandler"]>[1]>[1];

interface Refusal {
  readonly text: string;
  readonly details: Readonly<Record<string, unknown>>;
}
