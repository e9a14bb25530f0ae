// The server's own gate in front of every recipe call. MCP clients may keep a tool list long after
// `notifications/tools/list_changed` (some ignore it), so a call can name a recipe that is gone or
// carry arguments built from a definition that no longer holds.
//
// Policy (the safer reading of "calls to a changed tool are rejected"): a call runs only against
// an executable definition the client has been shown. The live registry's `fence` tells whether a
// tool's executable content changed since a generation; the client is shown a generation by
// `tools/list` (every tool in it) and, for one tool, by the rejection itself, which carries the new
// description and input schema. So a changed tool is rejected once per change: the model sees
// what changed and retries on purpose, and a client that never lists again is not locked out.
// Arguments that happen to validate against the new schema are not enough: a new template may do
// something else with them. A description-only edit does not change what runs and is not rejected
// (the list_changed notification still goes out). A tool the client was never shown (registered
// after its last list) cannot be stale and runs. A rejection shows the new definition only to the
// calls that reach the server after it was answered: calls that had arrived by then (sent
// together with the rejected one) carry arguments made for the old one, and are rejected the same
// way. (Calls sent together but read after the rejection was answered cannot be told from a
// retry made from it, and run.) A rejection whose request the client cancelled is never sent, so
// it shows nothing: the next call is rejected again. A tools/list answer, likewise, is the
// client's list for the calls that arrive after it was answered, not for those that came with it,
// and a cancelled one is not its list at all.
import { join } from "node:path";
import type * as E from "fp-ts/lib/Either.js";
import type { Discovery } from "../core/discovery/discovery-result.js";
import type { ToolSpec } from "../core/tool/tool-spec.js";
import { whyNotATool } from "../runtime/verbs/schema.js";

export type GateVerdict =
  | { readonly kind: "run"; readonly tool: ToolSpec }
  /** gone since the client saw it, or never a tool: not run */
  | { readonly kind: "missing"; readonly text: string }
  /** changed since the client saw it: not run, and now counted as shown */
  | { readonly kind: "changed"; readonly tool: ToolSpec; readonly text: string };

/** The part of the live registry the gate reads. */
export interface GateRegistry {
  /** brings the tool set up to date with the files outside the watched roots it was built from */
  recheck(): unknown;
  current(): { readonly discovery: Discovery; readonly generation: number };
  fence(toolName: string, generationSeen: number): E.Either<string, ToolSpec>;
  /** reads these recipe files again now, whatever the watcher has reported */
  refresh?(changed: readonly string[]): unknown;
  /** where the user's recipe files are: a name no tool has is looked for there before it is refused */
  readonly paths?: { readonly recipeRoot: string };
}

/** The files a recipe of this name would be in (none for a name that is no plain file name). */
function recipeFilesOf(root: string, name: string): string[] {
  if (name === "" || name.includes("/") || name.includes("\\") || name.includes("\0") || name.startsWith(".")) return [];
  return [join(root, `${name}.json`), join(root, `${name}.md`)];
}

export const removedText = (name: string): string =>
  `Tool "${name}" is no longer registered (its recipe was deleted or renamed). List tools again.`;

export const changedText = (tool: ToolSpec): string =>
  [
    `Tool "${tool.name}" changed since your last tools/list (its recipe ${tool.path}, or a file it imports or delegates to, was edited), so the call was not run.`,
    "Check the new definition below (or list tools again) and retry.",
    `description: ${tool.description}`,
    `input schema: ${JSON.stringify(tool.schema)}`,
  ].join("\n");

export interface CallGate {
  /** the client is being shown this tool set (a tools/list answer), which counts for the calls
   *  arriving after `listAnswered` */
  shown(discovery: Discovery, generation: number): void;
  /** brings the registry up to date for this name, as a call of it would (a `message` to a tool
   *  finds it before the call goes through `check`) */
  lookFor(name: string): void;
  /** the last tools/list was answered */
  listAnswered(): void;
  /** the last tools/list was never sent (the client cancelled it): the client's list stays the
   *  one before */
  listWithdrawn(): void;
  /** a call reached the server: its place in the order of arrival, for `check` */
  arrived(): number;
  /** decides one call (that arrived `arrival`-th; one arriving now when not given) against the
   *  registry as it is now */
  check(name: string, arrival?: number): GateVerdict;
  /** the rejections of these tools, made for the call that arrived `arrival`-th (every pending
   *  one of the tool when not given), were answered: calls arriving from now on may have been
   *  made from the definitions they showed */
  answered(names: readonly string[], arrival?: number): void;
  /** those rejections were never sent (the client cancelled the request): they showed the client
   *  nothing, and the tool counts as shown what it was shown before them */
  withdrawn(names: readonly string[], arrival?: number): void;
}

export function makeCallGate(registry: GateRegistry): CallGate {
  let listed = new Set<string>();
  let listedAt = 0;
  let arrivals = 0;
  // a tools/list answer not yet the client's list: after = the last call that had arrived when it
  // was answered (Infinity until then)
  // (`before`: an answered list not yet the client's when this one was made, restored if this one
  // is withdrawn)
  interface PendingList {
    readonly listed: Set<string>;
    readonly listedAt: number;
    after: number;
    before: PendingList | undefined;
  }
  let pendingList: PendingList | undefined;
  // tools shown one by one in a rejection: the generation shown, and the last call that had
  // arrived when it was answered (only calls after it can have been made from it)
  const acknowledged = new Map<string, { readonly generation: number; readonly after: number }>();
  // rejections not answered yet, by tool: the arrival of the call refused → the generation it shows
  const pending = new Map<string, Map<number, number>>();
  /** takes the pending rejections of `name` (the one of `arrival`, or all): the newest generation
   *  they show, if any */
  const settle = (name: string, arrival: number | undefined): number | undefined => {
    const waiting = pending.get(name);
    if (waiting === undefined) return undefined;
    let newest: number | undefined;
    for (const [at, generation] of waiting) {
      if (arrival !== undefined && at !== arrival) continue;
      waiting.delete(at);
      newest = Math.max(newest ?? generation, generation);
    }
    if (waiting.size === 0) pending.delete(name);
    return newest;
  };
  /** The registry as it is now, and its tool of this name. An import outside the recipe root
   *  raises no watcher event: looked at before every call. A recipe of that name that is no tool
   *  (it failed to load) may have been read by the watcher while an editor was still writing it
   *  (an in-place save truncates the file, then writes it), the event of the finished write not
   *  yet handled: it is read again before the call is refused for it. And a name no recipe has
   *  may be a file renamed or written a moment ago, its event not yet handled either: its files
   *  are looked for before the call is refused as unknown. */
  const lookUp = (name: string): { readonly discovery: Discovery; readonly generation: number; readonly tool: ToolSpec | undefined } => {
    registry.recheck();
    let { discovery, generation } = registry.current();
    let tool = discovery.tools.find((t) => t.name === name);
    const entry = tool === undefined ? discovery.active.get(name) : undefined;
    const look = tool !== undefined ? [] : entry !== undefined ? [entry.path] : registry.paths === undefined ? [] : recipeFilesOf(registry.paths.recipeRoot, name);
    if (look.length > 0 && registry.refresh !== undefined) {
      registry.refresh(look);
      ({ discovery, generation } = registry.current());
      tool = discovery.tools.find((t) => t.name === name);
    }
    return { discovery, generation, tool };
  };
  const gate: CallGate = {
    lookFor: (name) => void lookUp(name),
    shown(discovery, generation) {
      const before = pendingList !== undefined && pendingList.after !== Number.POSITIVE_INFINITY ? pendingList : pendingList?.before;
      pendingList = { listed: new Set(discovery.tools.map((t) => t.name)), listedAt: generation, after: Number.POSITIVE_INFINITY, before };
    },
    listAnswered() {
      if (pendingList !== undefined && pendingList.after === Number.POSITIVE_INFINITY) pendingList.after = arrivals;
    },
    listWithdrawn() {
      if (pendingList !== undefined && pendingList.after === Number.POSITIVE_INFINITY) pendingList = pendingList.before;
    },
    arrived: () => ++arrivals,
    answered(names, arrival) {
      for (const name of names) {
        const generation = settle(name, arrival);
        if (generation !== undefined) acknowledged.set(name, { generation, after: arrivals });
      }
    },
    withdrawn(names, arrival) {
      for (const name of names) settle(name, arrival);
    },
    // a call checked without its place arrives now
    check(name, arrival = ++arrivals) {
      // a list answered before this call arrived is the one the call was made from
      // (or the answered one before a list still being answered)
      const answeredBefore = (list: PendingList | undefined): boolean => list !== undefined && arrival > list.after;
      const ready = answeredBefore(pendingList) ? pendingList : answeredBefore(pendingList?.before) ? pendingList?.before : undefined;
      if (ready !== undefined) {
        ({ listed, listedAt } = ready);
        acknowledged.clear();
        pending.clear();
        if (ready === pendingList) pendingList = undefined;
        else pendingList!.before = undefined;
      }
      const { discovery, generation, tool } = lookUp(name);
      const ack = acknowledged.get(name);
      const known = listed.has(name) || ack !== undefined;
      // gone from the tools: "deleted or renamed" only when no recipe has the name any more; a
      // recipe that no longer loads, or is disabled, is said as such
      if (tool === undefined) return { kind: "missing", text: known && !discovery.active.has(name) ? removedText(name) : whyNotATool(discovery, name) };
      if (!known) return { kind: "run", tool };
      const fromShown = ack !== undefined && arrival > ack.after;
      const fenced = registry.fence(name, fromShown ? ack.generation : listedAt);
      if (fenced._tag === "Right") return { kind: "run", tool: fenced.right };
      let waiting = pending.get(name);
      if (waiting === undefined) pending.set(name, (waiting = new Map()));
      waiting.set(arrival, generation);
      return { kind: "changed", tool, text: changedText(tool) };
    },
  };
  // Some clients reuse a cached list without asking: what this server started with counts as shown.
  const { discovery, generation } = registry.current();
  listed = new Set(discovery.tools.map((t) => t.name));
  listedAt = generation;
  return gate;
}
