// `message to=<address> type=<type> [body=...]`: one typed, addressed message. Routes here:
// `tool:<name>` invokes the tool the current registry has under that name (a deleted or broken
// recipe is no route, even if a host still shows its stale definition) when the type is one the
// tool takes: a call (`call`, `invoke`, `run`) or a type its recipe lists in `mailbox.accepts`;
// any other type (a run's `control.kill`, a review control, a typo) runs nothing. `tool:pi-actors`
// takes the automatic-review controls: `review.retry` gives a parked batch fresh attempts,
// `review.reset` forgets a finished one (see `control` in core/review/admission.ts).
import type { Discovery } from "../../core/discovery/discovery-result.js";
import { RESERVED_TOOL_NAMES } from "../../core/model.js";
import { failure, success, type CommandResult } from "../../core/result.js";
import type { ToolSpec } from "../../core/tool/tool-spec.js";
import { isRuntimeActor } from "../../core/views/tool-status.js";
import { isError, optionalBool, unknownKeys, type Params } from "./verb-params.js";
import { whyNotATool } from "./schema.js";
import { automaticReviewPolicy } from "./status.js";
import { messageRun } from "../runs/control.js";
import type { FileSystem } from "../../adapters/fs/FileSystem.js";

export type ReviewScope = "draft" | "tool";
export type ReviewAction = "review.retry" | "review.reset";

/** What a review control answers; `reason` set means nothing was delivered. */
export type ReviewControlResult = Readonly<Record<string, unknown>> & {
  readonly action: ReviewAction;
  readonly changed: boolean;
  readonly scope: ReviewScope;
  readonly phase?: string;
  readonly reason?: string;
};

export interface MessageContext {
  /** the registry as it is now */
  readonly discovery: () => Discovery;
  /** brings the registry up to date for a tool name it does not have (a recipe renamed or written
   *  a moment ago), before the message is refused for it */
  readonly lookFor?: (name: string) => void;
  /** runs a tool the way the host's own tool would (launch accounting included) */
  readonly invokeTool: (name: string, params: Readonly<Record<string, unknown>>) => Promise<CommandResult>;
  /** the review admission state; absent until automatic reviews exist: no state to control */
  readonly reviewControl?: (action: ReviewAction, scope: ReviewScope, options?: { readonly reviewer?: boolean }) => Promise<ReviewControlResult>;
  readonly env?: NodeJS.ProcessEnv;
  /** where async runs live (`run:<id>` destinations): `<agent>/tmp/pi-recipes/runs` */
  readonly runsRoot: string;
  /** the host's file system, the run store's */
  readonly fs: FileSystem;
}

// `from`, `summary`, `correlation_id`, `metadata` and `reply_to` are accepted from callers that
// send the full message envelope, but not offered in the tool schema: nothing here acts on them.
export const MESSAGE_PARAMS = ["to", "type", "body", "from", "summary", "correlation_id", "metadata", "reply_to", "verbose"] as const;

export const UNSUPPORTED_DESTINATION = (to: string): string =>
  `message supports tool:<name> and run:<id> destinations; unsupported destination: ${to}`;
export const RUNTIME_MESSAGE_TYPES = "tool:pi-actors accepts review.retry or review.reset messages.";
export const REVIEW_DISABLED = "Automatic recipe review is disabled by PI_ACTORS_AUTOMATIC_REVIEW.";
const RETRY_NEEDS_REVIEWER = (phase: string | undefined): string =>
  `This tool review (${phase ?? "unknown"}) has no approved plan to carry out again: retrying it would run the reviewer. Set PI_ACTORS_AUTOMATIC_REVIEW=1 to retry it, or send review.reset to start over.`;
export const REVIEW_SCOPE_REQUIRED = "review control requires body.scope=draft or body.scope=tool.";
const REVIEWS_ACTION = "inspect target=recipes view=reviews";

/** The types every recipe tool takes: each asks it to run with the body as its arguments. */
export const CALL_MESSAGE_TYPES: readonly string[] = ["call", "invoke", "run"];

/** The types `tool` takes: the call types, then those its recipe's `mailbox.accepts` lists. */
export function acceptedTypes(tool: ToolSpec): readonly string[] {
  const declared = (tool.config.mailbox?.accepts ?? []).map((entry) => (typeof entry === "string" ? entry : entry.type));
  return [...CALL_MESSAGE_TYPES, ...declared.filter((t) => !CALL_MESSAGE_TYPES.includes(t))];
}

/** Whether `type` is one of `accepted`: the call types in any case (agents write `Call` or `RUN`,
 *  which ran the tool before types were checked), a declared type exactly as its recipe wrote it. */
const takes = (accepted: readonly string[], type: string): boolean =>
  accepted.includes(type) || CALL_MESSAGE_TYPES.includes(type.toLowerCase());

const NOT_ACCEPTED = (name: string, type: string, accepted: readonly string[]): string =>
  `tool actor ${name} does not accept message type ${JSON.stringify(type)}; it accepts ${accepted.join(", ")} ` +
  `(the call types, and what its recipe lists in mailbox.accepts). Nothing was run.`;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** A message body read once: an object is the tool's parameters; a string holding a JSON object
 *  is read as one (agents often send JSON as text); anything else is passed as `input`. A text
 *  that opens like a JSON object (`{"`) and does not parse is `broken`, with its parse error: it
 *  was meant as the tool's arguments, and run as a plain `input` it would run the tool with
 *  something else than was meant (a text that merely starts with `{` stays plain input). */
export function readBody(body: unknown): { readonly params: Record<string, unknown> } | { readonly broken: string } {
  if (body === undefined || body === null) return { params: {} };
  if (isRecord(body)) return { params: body };
  if (typeof body === "string" && body.trim().startsWith("{")) {
    try {
      const parsed = JSON.parse(body) as unknown;
      if (isRecord(parsed)) return { params: parsed };
    } catch (e) {
      if (/^\{\s*"/.test(body.trim())) return { broken: e instanceof Error ? e.message : String(e) };
    }
  }
  return { params: { input: body } };
}

/** The parse error of a body `readBody` finds broken, else undefined. */
export function brokenJsonBody(body: unknown): string | undefined {
  const read = readBody(body);
  return "broken" in read ? read.broken : undefined;
}

/** The parameters of a body; a broken one is passed as `input`, as any other text. */
export function bodyToParams(body: unknown): Record<string, unknown> {
  const read = readBody(body);
  return "params" in read ? read.params : { input: body };
}

function preview(value: unknown, max: number): string {
  const text = (JSON.stringify(value) ?? "").replace(/\s+/g, " ");
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The compact delivery line: `to=… type=… message=sent|not_sent …` */
export function deliveryLine(to: string, type: string, result: Readonly<Record<string, unknown>>): string {
  const tokens = [`to=${to}`, `type=${type}`, `message=${result["sent"] === true ? "sent" : "not_sent"}`];
  for (const key of ["delivered", "persisted", "consumer", "reason", "phase", "tool"] as const) {
    const v = result[key];
    if (v !== undefined && v !== null && v !== "") tokens.push(`${key}=${String(v)}`);
  }
  if (result["invoked"] === true) tokens.push("invoked=true");
  const next = result["next_actions"];
  if (Array.isArray(next) && next.length > 0) tokens.push(`next=${next.map((a) => String(a).replace(/\s+/g, "_")).join("|")}`);
  // why nothing could be done, in words (a review state file that does not read)
  return typeof result["error"] === "string" ? `${tokens.join(" ")}\n${result["error"]}` : tokens.join(" ");
}

const stripLead = (text: string): string => text.replace(/^\n+/, "");

async function messageTool(name: string, type: string, to: string, body: unknown, verbose: boolean, ctx: MessageContext): Promise<CommandResult> {
  let discovery = ctx.discovery();
  let tool = discovery.tools.find((t) => t.name === name);
  if (tool === undefined && ctx.lookFor !== undefined && !RESERVED_TOOL_NAMES.includes(name)) {
    ctx.lookFor(name);
    discovery = ctx.discovery();
    tool = discovery.tools.find((t) => t.name === name);
  }
  if (tool === undefined) {
    // the host's own tools are no recipes: a message reaches recipe tools only
    const why = RESERVED_TOOL_NAMES.includes(name) ? `${name} is one of the host's own tools, not a recipe tool: call it directly.` : whyNotATool(discovery, name);
    return failure(`tool actor not found or not executable: ${name}. ${why}`, { to, type, tool: name });
  }
  const accepted = acceptedTypes(tool);
  if (!takes(accepted, type)) return failure(NOT_ACCEPTED(name, type, accepted), { to, type, tool: name, accepts: accepted });
  const read = readBody(body);
  if ("broken" in read) {
    return failure(`body is not valid JSON: ${read.broken}. Send the arguments as a JSON object (or a plain text for the tool's input); nothing ran.`, { to, type, tool: name });
  }
  const params = read.params;
  const outcome = await ctx.invokeTool(name, params);
  if (!outcome.ok) {
    const text = `tool actor ${name} failed for message type ${type}: ${stripLead(outcome.text)}; params=${preview(params, 240)}`;
    return failure(text, { to, type, tool: name, original_error: outcome.text, tool_result: outcome.details });
  }
  const result = {
    sent: true,
    invoked: true,
    tool: name,
    consumer: "tool",
    delivered: true,
    persisted: false,
    reason: "tool_invoked",
    tool_result: { text: outcome.text, details: outcome.details },
  };
  const details = { message: { to, type, ...(body === undefined ? {} : { body }) }, result };
  const output = stripLead(outcome.text);
  const text = verbose ? JSON.stringify(details, null, 2) : [deliveryLine(to, type, result), ...(output === "" ? [] : [output])].join("\n");
  return success(text, details);
}

const unavailable = (action: ReviewAction, scope: ReviewScope): ReviewControlResult => ({
  action,
  changed: false,
  phase: "idle",
  reason: "review_state_unavailable",
  scope,
});

async function messageRuntime(to: string, type: string, body: unknown, verbose: boolean, ctx: MessageContext): Promise<CommandResult> {
  if (type !== "review.retry" && type !== "review.reset") return failure(RUNTIME_MESSAGE_TYPES, { to, type });
  const scope = isRecord(body) ? body["scope"] : bodyToParams(body)["scope"];
  if (scope !== "draft" && scope !== "tool") return failure(REVIEW_SCOPE_REQUIRED, { to, type });
  // with the automatic review off, a retry is refused unless it only carries out a tool review's
  // approved plan again: activation runs whatever the policy says (docs/lifecycle.md)
  const reviewer = type !== "review.retry" || automaticReviewPolicy(ctx.env);
  if (!reviewer && scope === "draft") return failure(REVIEW_DISABLED, { to, type });
  const control = await (ctx.reviewControl?.(type, scope, { reviewer }) ?? Promise.resolve(unavailable(type, scope)));
  if (control.reason === "review_disabled") return failure(`${REVIEW_DISABLED} ${RETRY_NEEDS_REVIEWER(control.phase)}`, { to, type, result: control });
  const decorated =
    control.reason === undefined ? { ...control, consumer: "tool", delivered: true, persisted: false, reason: "tool_invoked" } : control;
  const result = { ...decorated, next_actions: [REVIEWS_ACTION], sent: control.changed };
  const details = { message: { to, type, body }, result };
  const text = verbose ? JSON.stringify(details, null, 2) : deliveryLine(to, type, result);
  // a control that changed nothing (no state, a phase it does not apply to) did not do what was
  // asked: the answer says why, and is no success
  return control.changed ? success(text, details) : failure(text, details);
}

/** `message to=tool:<name> type=<type> [body=<json|text>] [verbose=true]` */
export async function message(params: Params, ctx: MessageContext): Promise<CommandResult> {
  const bad = unknownKeys("message", params, MESSAGE_PARAMS);
  if (bad !== undefined) return bad;
  const to = params["to"];
  const type = params["type"];
  if (typeof to !== "string" || to.trim() === "") return failure("message requires to=<actor address>, e.g. to=tool:<name>");
  if (typeof type !== "string" || type.trim() === "") return failure("message requires type=<message type>");
  const verbose = optionalBool(params, "verbose");
  if (isError(verbose)) return failure(verbose.error);
  const address = to.trim();
  if (address.startsWith("run:") && address.length > 4) {
    return messageRun(ctx.fs, ctx.runsRoot, address.slice(4), type.trim());
  }
  if (!address.startsWith("tool:") || address.length === 5) return failure(UNSUPPORTED_DESTINATION(address), { to: address, type });
  const name = address.slice(5);
  if (isRuntimeActor(name)) return messageRuntime(address, type.trim(), params["body"], verbose === true, ctx);
  return messageTool(name, type.trim(), address, params["body"], verbose === true, ctx);
}
