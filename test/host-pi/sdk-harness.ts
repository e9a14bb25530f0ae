// A real Pi 0.73.1 agent session in-process (the SDK's createAgentSession): the extension is
// loaded from its path by Pi's own loader, the model is the scripted faux provider, nothing
// touches the network.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import {
  fauxAssistantMessage, fauxText, fauxToolCall, registerFauxProvider,
  type AssistantMessage, type FauxProviderRegistration, type FauxResponseStep,
} from "@mariozechner/pi-ai";
import {
  AuthStorage, createAgentSession, DefaultResourceLoader, ModelRegistry, SessionManager, SettingsManager,
  type AgentSession, type ExtensionAPI, type ExtensionFactory,
} from "@mariozechner/pi-coding-agent";

import piRecipes from "../../host-pi/index.js";

export const EXTENSION_DIR = resolve(import.meta.dirname, "../../host-pi");

export interface ToolOutcome {
  readonly tool: string;
  readonly isError: boolean;
  readonly text: string;
}

export interface PiSandbox {
  readonly root: string;
  readonly agentDir: string;
  readonly recipeRoot: string;
  readonly cwd: string;
  cleanup(): void;
}

export function makeSandbox(): PiSandbox {
  const root = mkdtempSync(join(tmpdir(), "pi-recipes-host-"));
  const agentDir = join(root, "agent");
  const cwd = join(root, "project");
  mkdirSync(join(agentDir, "recipes"), { recursive: true });
  mkdirSync(cwd, { recursive: true });
  return { root, agentDir, recipeRoot: join(agentDir, "recipes"), cwd, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

export interface PiRun {
  readonly session: AgentSession;
  readonly faux: FauxProviderRegistration;
  /** tool results in order, as Pi reported them */
  readonly outcomes: ToolOutcome[];
  /** event-bus events seen, in order (channel names) */
  readonly bus: { channel: string; data: unknown }[];
  /** number of finished agent runs */
  agentEnds(): number;
  /** waits until `n` runs have ended and the session is idle */
  waitForRuns(n: number, timeoutMs?: number): Promise<void>;
  waitFor(predicate: () => boolean, timeoutMs?: number, what?: string): Promise<void>;
  close(): Promise<void>;
}

const textOf = (result: unknown): string => {
  const content = (result as { content?: { type: string; text?: string }[] } | undefined)?.content ?? [];
  return content.map((c) => c.text ?? "").join("");
};

export async function waitUntil(predicate: () => boolean, timeoutMs = 10_000, what = "condition"): Promise<void> {
  const start = Date.now();
  while (!predicate()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

export interface StartOptions {
  readonly sandbox: PiSandbox;
  readonly responses: FauxResponseStep[];
  /** "path": Pi's own loader reads the host-pi package folder (slow in source mode: jiti resolves
   *  every `.js` specifier to its `.ts` file); "factory": the module this test imported (fast) */
  readonly load?: "path" | "factory" | "none";
  /** with load "path": the extension folder or file to load (default: this repository's host-pi) */
  readonly extensionPath?: string;
  readonly extensionFactories?: ExtensionFactory[];
  readonly bus?: readonly string[];
}

export async function startPi(options: StartOptions): Promise<PiRun> {
  const { sandbox } = options;
  const faux = registerFauxProvider();
  faux.setResponses(options.responses);
  const authStorage = AuthStorage.inMemory();
  authStorage.setRuntimeApiKey("faux", "dummy");
  const settingsManager = SettingsManager.inMemory({ compaction: { enabled: false } });
  const outcomes: ToolOutcome[] = [];
  const bus: { channel: string; data: unknown }[] = [];
  let ends = 0;
  const observer = (pi: ExtensionAPI): void => {
    pi.on("tool_execution_end", (e) => {
      outcomes.push({ tool: e.toolName, isError: e.isError, text: textOf(e.result) });
    });
    pi.on("agent_end", () => {
      ends++;
    });
    for (const channel of options.bus ?? []) pi.events.on(channel, (data) => bus.push({ channel, data }));
  };
  const loader = new DefaultResourceLoader({
    cwd: sandbox.cwd,
    agentDir: sandbox.agentDir,
    settingsManager,
    additionalExtensionPaths: options.load === "path" ? [options.extensionPath ?? EXTENSION_DIR] : [],
    extensionFactories: [observer, ...(options.load === "path" || options.load === "none" ? [] : [piRecipes]), ...(options.extensionFactories ?? [])],
  });
  await loader.reload();
  const errors = loader.getExtensions().errors;
  if (errors.length > 0) throw new Error(`extension load failed: ${JSON.stringify(errors)}`);
  const { session } = await createAgentSession({
    cwd: sandbox.cwd,
    agentDir: sandbox.agentDir,
    model: faux.getModel(),
    thinkingLevel: "off",
    authStorage,
    modelRegistry: ModelRegistry.inMemory(authStorage),
    settingsManager,
    resourceLoader: loader,
    sessionManager: SessionManager.inMemory(sandbox.cwd),
    noTools: "builtin",
  });
  await session.bindExtensions({ onError: (e) => bus.push({ channel: "extension-error", data: e }) });
  const waitFor = (predicate: () => boolean, timeoutMs?: number, what?: string): Promise<void> => waitUntil(predicate, timeoutMs, what);
  return {
    session,
    faux,
    outcomes,
    bus,
    agentEnds: () => ends,
    waitFor,
    waitForRuns: async (n, timeoutMs = 10_000) => {
      await waitFor(() => ends >= n && !session.isStreaming, timeoutMs, `${n} agent runs`);
    },
    async close() {
      await session.extensionRunner.emit({ type: "session_shutdown", reason: "quit" });
      session.dispose();
      faux.unregister();
    },
  };
}

export const say = (text: string): AssistantMessage => fauxAssistantMessage([fauxText(text)]);
export const call = (tool: string, args: Record<string, unknown>): AssistantMessage =>
  fauxAssistantMessage([fauxToolCall(tool, args)], { stopReason: "toolUse" });
/** a final answer quoting the last tool result, so a test can read what the model saw */
export const echoLast = (prefix: string): FauxResponseStep => (context) => {
  const last = context.messages.at(-1) as { role?: string; content?: { text?: string }[] } | undefined;
  const text = last?.role === "toolResult" ? (last.content ?? []).map((c) => c.text ?? "").join("") : "";
  return fauxAssistantMessage([fauxText(`${prefix}${text}`)]);
};
/** asserts what tools the model is offered at this step, then calls one */
export const offeredThenCall = (seen: string[][], tool: string, args: Record<string, unknown>): FauxResponseStep => (context) => {
  seen.push((context.tools ?? []).map((t) => t.name).sort());
  return fauxAssistantMessage([fauxToolCall(tool, args)], { stopReason: "toolUse" });
};
