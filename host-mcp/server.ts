// The MCP server over the live registry: tools/list answers the current tool set (one tool per
// active recipe, plus register_tool and inspect), tools/call goes through the gate, launch
// accounting and the same runTool every host uses, and every change of the tool set (file edits,
// register_tool, reviews) is announced with notifications/tools/list_changed.
//
// The low-level Server is used on purpose: McpServer wants zod schemas fixed at registration,
// while our tools come and go and carry plain JSON Schema from the core.
import { inspectWithUsage } from "../runtime/usage-view.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { ToolSpec } from "../core/discovery/types.js";
import type { CommandResult } from "../core/result.js";
import type { LiveRegistry } from "../runtime/live-registry.js";
import { runTool, type CallContext } from "../runtime/verbs/call.js";
import { nodeProcessRunner } from "../adapters/process/node-runner.js";
import { makeCallGate } from "./gate.js";
import type { LaunchAccounting } from "./launch-accounting.js";
import { progressReporter } from "./progress.js";
import { errorResult, toToolResult } from "./results.js";
import { BUILTIN_TOOLS, INSPECT, MESSAGE, recipeTool, REGISTER_TOOL } from "./tool-list.js";
import { message } from "../runtime/verbs/message.js";
import { runsRootOf } from "../runtime/runs/store.js";

export interface RecipeServerOptions {
  readonly live: LiveRegistry;
  /** register_tool; it refreshes the live registry itself (its `refresh` hook) */
  readonly register: (params: Readonly<Record<string, unknown>>) => Promise<CommandResult>;
  /** absent: launches are not counted (tests of the protocol alone) */
  readonly accounting?: LaunchAccounting;
  /** where commands run, the runner, async runs; the signal is each call's own */
  readonly call: Omit<CallContext, "signal">;
  readonly name?: string;
  readonly version?: string;
  readonly heartbeatMs?: number;
  /** diagnostics for the operator (stderr); never the protocol stream */
  readonly log?: (line: string) => void;
}

export interface RecipeServer {
  readonly server: Server;
  /** settles when every call in progress has finished (its processes ended) */
  drain(): Promise<void>;
  /** stops announcing changes and closes the connection, aborting calls in progress */
  close(): Promise<void>;
}

const argumentsOf = (args: unknown): Readonly<Record<string, unknown>> =>
  typeof args === "object" && args !== null && !Array.isArray(args) ? (args as Record<string, unknown>) : {};

const internal = (e: unknown): string => (e instanceof Error ? e.message : String(e));

export function createRecipeServer(options: RecipeServerOptions): RecipeServer {
  const { live, accounting } = options;
  const log = options.log ?? ((): void => undefined);
  const gate = makeCallGate(live);
  const inflight = new Set<Promise<unknown>>();
  let initialized = false;
  accounting?.track(live.current().discovery);

  const server = new Server(
    { name: options.name ?? "pi-recipes", version: options.version ?? "0.0.0" },
    {
      capabilities: { tools: { listChanged: true } },
      instructions:
        "Recipe tools of the pi-recipes registry. The tool list changes while you work (recipe edits, register_tool): " +
        "list tools again after notifications/tools/list_changed. A call to a changed tool is refused once with its new schema.",
    },
  );
  server.oninitialized = () => {
    initialized = true;
  };

  const unsubscribe = live.subscribe((change) => {
    accounting?.track(live.current().discovery);
    if (change.added.length + change.changed.length + change.removed.length === 0 || !initialized) return;
    server.sendToolListChanged().catch((e: unknown) => log(`list_changed not sent: ${internal(e)}`));
  });

  server.setRequestHandler(ListToolsRequestSchema, () => {
    const { discovery, generation } = live.current();
    gate.shown(discovery, generation);
    return { tools: [...BUILTIN_TOOLS, ...discovery.tools.map(recipeTool)] };
  });

  async function callRecipe(tool: ToolSpec, args: Readonly<Record<string, unknown>>, extra: CallExtra): Promise<CallToolResult> {
    if (accounting !== undefined) {
      const launched = await accounting.launch(tool);
      if (!launched.ok) {
        // the file moved under us: make sure the next list shows what is there now
        live.refresh([tool.path]);
        return errorResult(launched.rejected, { tool: tool.name, path: tool.path, stale: true });
      }
      if (launched.diagnostic !== undefined) log(launched.diagnostic);
    }
    const token = extra._meta?.progressToken;
    const base = options.call.runner ?? nodeProcessRunner;
    const reporter =
      token === undefined || tool.async
        ? undefined
        : progressReporter(tool.name, base, (update) => {
            extra
              .sendNotification({ method: "notifications/progress", params: { progressToken: token, ...update } })
              .catch(() => undefined);
          }, options.heartbeatMs === undefined ? {} : { heartbeatMs: options.heartbeatMs });
    try {
      const ctx: CallContext = { ...options.call, runner: reporter?.runner ?? base, signal: extra.signal };
      return toToolResult(await runTool(tool, args, ctx));
    } finally {
      reporter?.stop();
    }
  }

  async function call(name: string, args: Readonly<Record<string, unknown>>, extra: CallExtra): Promise<CallToolResult> {
    if (name === REGISTER_TOOL) return toToolResult(await options.register(args));
    if (name === INSPECT) return toToolResult(await inspectWithUsage(live.current().discovery, args, { paths: live.paths }));
    if (name === MESSAGE) {
      return toToolResult(
        await message(args, {
          discovery: () => live.current().discovery,
          // a tool reached by message runs as a direct call would: through the gate and accounting
          invokeTool: async (tool, params) => {
            const found = live.current().discovery.tools.find((t) => t.name === tool);
            if (found === undefined) return { ok: false, text: `Unknown tool: ${tool}`, details: { tool } };
            const r = await callRecipe(found, params, extra);
            return { ok: r.isError !== true, text: r.content.map((c) => (c.type === "text" ? c.text : "")).join("\n"), details: (r.structuredContent ?? {}) as Record<string, unknown> };
          },
          runsRoot: runsRootOf(live.paths.tmpRoot),
        }),
      );
    }
    const verdict = gate.check(name);
    switch (verdict.kind) {
      case "missing":
        return errorResult(verdict.text, { tool: name, stale: true });
      case "changed":
        return errorResult(verdict.text, { tool: name, stale: true, description: verdict.tool.description, parameters: verdict.tool.parameters });
      case "run":
        return callRecipe(verdict.tool, args, extra);
    }
  }

  server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    const { name } = request.params;
    const running = call(name, argumentsOf(request.params.arguments), extra).catch((e: unknown) => {
      log(`tool ${name} failed: ${e instanceof Error ? e.stack ?? e.message : String(e)}`);
      return errorResult(`Internal error while running tool "${name}": ${internal(e)}`, { tool: name });
    });
    inflight.add(running);
    void running.finally(() => inflight.delete(running));
    return running;
  });

  return {
    server,
    async drain() {
      while (inflight.size > 0) await Promise.allSettled([...inflight]);
    },
    async close() {
      unsubscribe();
      await server.close();
    },
  };
}

type CallExtra = Parameters<Parameters<Server["setRequestHandler"]>[1]>[1];
