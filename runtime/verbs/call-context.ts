// What a recipe-tool call is given: the context a host passes to runtime/verbs/call.ts, and what
// an `async: true` call hands to its starter (runtime/runs/start.ts). A module of its own so that
// the starter can name these types without importing call.ts, which imports the starter.
import type { FileSystem } from "../../adapters/fs/FileSystem.js";
import type { ProcessRunner } from "../../adapters/process/ProcessRunner.js";
import type { ToolSpec } from "../../core/tool/tool-spec.js";
import type { CommandResult } from "../../core/result.js";
import type { Values } from "../../core/template/substitute.js";
import type { PreparedSandbox } from "../../adapters/process/bwrap.js";
import type { Accounted, LaunchCheck } from "../accounting.js";
import type { SandboxMode } from "../../core/sandbox/policy.js";

export interface AsyncLaunch {
  readonly tool: ToolSpec;
  /** the call's parameters as given */
  readonly params: Readonly<Record<string, unknown>>;
  /** the merged, normalized values a run would start with */
  readonly values: Readonly<Record<string, unknown>>;
  /** the same values with their origin kept (recipe-authored ones may hold placeholders) */
  readonly runtime: Values;
  /** the sandbox every step of the run must run in (the recipe's policy, resolved for this call) */
  readonly sandbox?: PreparedSandbox;
  /** the proof that the launch was accounted; the run's record keeps how */
  readonly accounted: Accounted;
}

export interface CallContext {
  /** where commands run and where truncated outputs are saved */
  readonly paths: { readonly cwd: string; readonly home: string; readonly tmpRoot: string };
  /** the registry's own folders (the agent dir, the packaged recipes): read-only inside every
   *  sandbox (runtime/session.ts sets them; absent: none) */
  readonly registryFolders?: readonly string[];
  /** files of the host's hidden inside every sandbox (the HTTP server's token file; the session sets
   *  them; absent: none) */
  readonly hiddenPaths?: readonly string[];
  /** the host's file system: spilled outputs, saved outputs, the run store */
  readonly fs: FileSystem;
  readonly runner?: ProcessRunner;
  readonly env?: Readonly<Record<string, string>>;
  /** the operator's PI_RECIPES_SANDBOX as the host read it from its own environment (a session
   *  sets it, so that a call is judged by the same setting as register_tool and the views); absent:
   *  read from `env`, else this process's */
  readonly sandboxMode?: SandboxMode;
  readonly signal?: AbortSignal;
  /** values the session injects over the call's (`current_model`, `current_thinking`) */
  readonly injected?: Readonly<Record<string, unknown>>;
  /** starts an `async: true` recipe; absent: a detached run under `<tmpRoot>/runs` (runtime/runs) */
  readonly startAsync?: (launch: AsyncLaunch) => Promise<CommandResult>;
  readonly maxParallelBranches?: number;
  readonly killGraceMs?: number;
  /** launch accounting: called once the arguments are valid, before anything runs; a rejection
   * (the source changed since the tool was loaded) stops the call. Required, so that no launch
   * path can forget the accounting: a host without a ledger says so with `unaccountedLaunch`
   * (runtime/accounting.ts). Its proof is what runtime/launch.ts requires to run anything. */
  readonly launch: (tool: ToolSpec) => Promise<LaunchCheck>;
}

export type { LaunchCheck } from "../accounting.js";
