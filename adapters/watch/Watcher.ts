// The Watcher port: tells the runtime that the recipe root changed, so it can reload the tool set.
//
// Events are hints, not a journal: the consumer reloads from the files, so a batch only has to be
// sufficient to notice that something changed. Two guarantees make that safe:
// - after `ready`, no change to a recipe file in the root or in `drafts/` goes unreported;
// - "root-added" is reported only once the new root watch is live, so a reload triggered by it
//   sees every file that the watch did not report itself.
// "root-removed" stands for every file under the root: no separate unlinks are promised for them.

export type WatchEventKind = "add" | "change" | "unlink" | "root-added" | "root-removed";

export interface WatchEvent {
  readonly kind: WatchEventKind;
  /** absolute; for root-added/root-removed, the root itself */
  readonly path: string;
}

export interface WatchOptions {
  /** the coalescing window in ms (default 25): a batch is delivered this long after its last event */
  readonly debounceMs?: number;
  /** failures the watch cannot recover from alone (the root's parent is missing, a watch error
   *  while the root exists) and exceptions thrown by `onChange` */
  readonly onError?: (error: Error) => void;
}

/** what is watched now: the root, its parent (root missing), nothing (failed or closed) */
export type WatchMode = "root" | "parent" | "failed" | "closed";

export interface RecipeRootWatch {
  /** settles once the first watch (root, or parent when the root is missing) is live; load after it */
  readonly ready: Promise<void>;
  mode(): WatchMode;
  /** stops watching; no callback runs after it resolves, pending events are dropped */
  close(): Promise<void>;
}

export type ChangeListener = (events: readonly WatchEvent[]) => void;

export interface Watcher {
  watchRecipeRoot(root: string, onChange: ChangeListener, options?: WatchOptions): RecipeRootWatch;
}

export const DEFAULT_DEBOUNCE_MS = 25;

// Within one batch only the latest meaning of a path matters, with two exceptions that keep the
// consumer's view right: a file that came and went is reported as gone (harmless, and the consumer
// may have seen it through a root rescan), and a file that went and came back is a change.
function merge(previous: WatchEventKind | undefined, next: WatchEventKind): WatchEventKind {
  if (previous === "add" && next === "change") return "add";
  if (previous === "unlink" && next === "add") return "change";
  return next;
}

export interface Batcher {
  push(event: WatchEvent): void;
  /** drops the pending batch and stops the timers */
  cancel(): void;
}

/**
 * Coalesces events: one delivery `debounceMs` after the last event of a burst, but never later
 * than `maxWaitMs` after its first, so a steady trickle of events cannot starve the consumer.
 */
export function makeBatcher(deliver: (events: readonly WatchEvent[]) => void, debounceMs: number, maxWaitMs = Math.max(10 * debounceMs, 100)): Batcher {
  let pending = new Map<string, WatchEventKind>();
  let quiet: NodeJS.Timeout | undefined;
  let deadline: NodeJS.Timeout | undefined;
  const stop = (): void => {
    if (quiet !== undefined) clearTimeout(quiet);
    if (deadline !== undefined) clearTimeout(deadline);
    quiet = deadline = undefined;
  };
  const flush = (): void => {
    stop();
    if (pending.size === 0) return;
    const events = [...pending].map(([path, kind]): WatchEvent => ({ kind, path }));
    pending = new Map();
    deliver(events);
  };
  return {
    push(event) {
      const kind = merge(pending.get(event.path), event.kind);
      // re-inserting moves the path to the end: the batch lists paths in order of their last event
      pending.delete(event.path);
      pending.set(event.path, kind);
      if (quiet !== undefined) clearTimeout(quiet);
      quiet = setTimeout(flush, debounceMs);
      deadline ??= setTimeout(flush, maxWaitMs);
    },
    cancel() {
      stop();
      pending = new Map();
    },
  };
}
