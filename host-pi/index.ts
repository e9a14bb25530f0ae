// The pi-recipes Pi extension: at session_start, one tool per active recipe plus register_tool,
// inspect, message and spawn; the tool set follows the recipe root while the session runs.
// Load it with `pi -e <this file>`, or `pi install <this folder>` (package.json "pi.extensions").
import { fileURLToPath } from "node:url";
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { agentTools } from "./agent-tools.js";
import { publishTool } from "./pi-tool.js";
import { openHostSession, type HostOptions, type HostSession } from "./pi-session.js";

export { BEFORE_DISCOVERY_EVENT, IDLE_EVENT, type BoundaryContext, type BoundaryHooks, type BoundaryStep } from "./boundaries.js";
export { TOOLS_CHANGED_EVENT } from "./pi-session.js";
export { TOOLS_CHANGED_MESSAGE } from "./next-run.js";

export type PiRecipesOptions = Partial<HostOptions>;

export const NOT_STARTED = "pi-recipes has not started yet: its tools work once the session has started (session_start).";

export function createPiRecipesExtension(options: PiRecipesOptions = {}): (pi: ExtensionAPI) => void {
  const entrypoint = options.entrypoint ?? fileURLToPath(import.meta.url);
  return (pi) => {
    let session: HostSession | undefined;
    const current = (): HostSession => {
      if (session === undefined) throw new Error(NOT_STARTED);
      return session;
    };
    for (const tool of agentTools(current)) publishTool(pi, tool);

    pi.on("session_start", async (_event, ctx) => {
      const previous = session;
      session = undefined;
      await previous?.close();
      session = await openHostSession(pi, ctx, { ...options, entrypoint });
    });
    pi.on("session_shutdown", async () => {
      const closing = session;
      session = undefined;
      await closing?.close();
    });
    pi.on("agent_start", () => {
      session?.nextRun.runStarted();
      session?.idle.runStarted();
    });
    pi.on("agent_end", (_event, ctx) => {
      const s = session;
      if (s === undefined) return;
      // a run the extension starts for a tool change continues the foreground turn
      if (!s.nextRun.runEnded(ctx)) s.idle.turnEnded(ctx);
    });
  };
}

export default createPiRecipesExtension();
