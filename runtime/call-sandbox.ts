// The sandbox of one call: the recipe's policy (core/sandbox/policy.ts), with the operator's
// `PI_RECIPES_SANDBOX`, resolved against the call's values, then prepared for bubblewrap
// (adapters/process/bwrap.ts). A recipe that asks for confinement never runs without it: when
// bubblewrap is missing or cannot start, the call is refused with one line saying what to install.
import * as E from "fp-ts/lib/Either.js";
import { hostControlPaths, prepareSandbox, probeBubblewrap, type Availability, type PreparedSandbox } from "../adapters/process/bwrap.js";
import type { ToolSpec } from "../core/tool/tool-spec.js";
import { declaredPolicy, resolveSandbox, sandboxModeOf, type SandboxMode, type SandboxPolicy } from "../core/sandbox/policy.js";
import type { Place } from "../core/template/invocation.js";
import { EMPTY_VALUES, scopeOf, type Scope, type Values } from "../core/template/substitute.js";

/** `PI_RECIPES_SANDBOX` of the environment (core/sandbox/policy.ts sandboxModeOf). */
export const sandboxMode = (env: Readonly<Record<string, string | undefined>> = process.env): SandboxMode => sandboxModeOf(env);

/** The operator's setting a call runs under: the one its host's session read from the host's
 *  environment (the same register_tool judges by), else that of the call's environment. */
export const callSandboxMode = (ctx: { readonly sandboxMode?: SandboxMode; readonly env?: Readonly<Record<string, string | undefined>> }): SandboxMode =>
  ctx.sandboxMode ?? sandboxMode(ctx.env ?? process.env);

/** The policy a call of this tool runs under with the operator's setting `mode`; undefined:
 *  unconfined. */
export const toolPolicy = (tool: ToolSpec, mode: SandboxMode): SandboxPolicy | undefined => declaredPolicy(tool.config.sandbox, mode);

export type CallSandbox =
  | { readonly kind: "none" }
  | { readonly kind: "confined"; readonly sandbox: PreparedSandbox }
  /** nothing may run: `message` says why */
  | { readonly kind: "refused"; readonly message: string; readonly argument: boolean };

/** The sandbox of one call of `tool` under `policy` with these values (then the defaults declared
 *  with the arguments, `out:path=result.txt`); `env` is the children's environment (bwrap is
 *  looked up on its PATH). */
export const callSandbox = (
  tool: ToolSpec, policy: SandboxPolicy | undefined, runtime: Values, place: Place, env: Readonly<Record<string, string | undefined>>, session: SessionSandbox = {},
): CallSandbox => sandboxOf(tool.name, policy, scopeOf(runtime, EMPTY_VALUES, tool.surface.declaredDefaults ?? EMPTY_VALUES), place, env, session);

/** What a session's host adds to every sandbox of its launches (runtime/session.ts sets it). */
export interface SessionSandbox {
  /** the registry's own folders (the agent dir, the packaged recipes): read-only inside */
  readonly registryFolders?: readonly string[];
  /** files of the host's that no command may read (the HTTP server's token file): hidden */
  readonly hiddenPaths?: readonly string[];
}

/** The sandbox of one run of a command named `name` (a tool, or `spawn` of an inline template)
 *  under `policy` (undefined: unconfined), its paths resolved in `scope`, with what the session
 *  adds (`session`) and the host's command sockets (hostControlPaths) hidden. */
export function sandboxOf(
  name: string, policy: SandboxPolicy | undefined, scope: Scope, place: Place, env: Readonly<Record<string, string | undefined>>, session: SessionSandbox = {},
): CallSandbox {
  if (policy === undefined) return { kind: "none" };
  const resolved = resolveSandbox(policy, scope, place);
  if (E.isLeft(resolved)) return { kind: "refused", message: `${name}: ${resolved.left.message}`, argument: resolved.left.kind === "missing-value" };
  const available = probeBubblewrap(env);
  if (!available.ok) return { kind: "refused", message: refusal(name, available.reason), argument: false };
  try {
    return { kind: "confined", sandbox: prepareSandbox(available.path, resolved.right, place.cwd, place.home, session.registryFolders, [...hostControlPaths(env), ...(session.hiddenPaths ?? [])]) };
  } catch (e) {
    return { kind: "refused", message: `${name} is sandboxed and its sandbox could not be prepared: ${e instanceof Error ? e.message : String(e)}`, argument: false };
  }
}

export const refusal = (tool: string, reason: string): string => `${tool} is sandboxed and cannot run unconfined: ${reason}`;

/** `bubblewrap 0.8.0`, or `none (why)`, for the status view. */
export function sandboxInUse(env: Readonly<Record<string, string | undefined>> = process.env): string {
  const availability: Availability = probeBubblewrap(env);
  return availability.ok ? availability.version : `none (${availability.reason})`;
}
