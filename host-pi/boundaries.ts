// The safe boundaries automatic reviews hook into:
// - a step at session_start that runs before tool discovery (portfolio activation belongs there:
//   it may move recipe files, and the tool set must be read after it);
// - an event once the foreground turn has ended and no run is active (reviewer launches belong
//   there: never while the agent or another actor works).
// Both are also announced on Pi's shared event bus, so another extension can observe them.
import type { Lock } from "../adapters/lock/Lock.js";
import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import type { AgentPaths } from "../runtime/agent-paths.js";
import type { FileSystem } from "../adapters/fs/FileSystem.js";

export const BEFORE_DISCOVERY_EVENT = "pi-recipes:before-discovery";
export const IDLE_EVENT = "pi-recipes:idle";

export interface BoundaryContext {
  readonly paths: AgentPaths;
  /** the host's file system and lock, the ones its runtime session uses */
  readonly fs: FileSystem;
  readonly lock: Lock;
  /** the effective PI_ACTORS_AUTOMATIC_REVIEW policy at session start */
  readonly automaticReview: boolean;
  readonly pi: ExtensionAPI;
  readonly ctx: ExtensionContext;
}

export type BoundaryStep = (boundary: BoundaryContext) => void | Promise<void>;

export interface BoundaryHooks {
  /** run in order at session_start, before the recipe root is read */
  readonly beforeDiscovery?: readonly BoundaryStep[];
  /** run in order when the foreground turn has ended and no run is active */
  readonly onIdle?: readonly BoundaryStep[];
  /** runs (actors) active now; the idle boundary waits for zero. Default: none exist yet. */
  readonly activeRuns?: () => number;
}

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** A failing step is reported, not thrown: it must not cost the session its tools. */
export async function runSteps(steps: readonly BoundaryStep[], boundary: BoundaryContext): Promise<string[]> {
  const errors: string[] = [];
  for (const step of steps) {
    try {
      await step(boundary);
    } catch (e) {
      errors.push(message(e));
    }
  }
  return errors;
}

const POLL_MS = 10;

/**
 * Watches for the idle boundary after each foreground turn. Pi still counts the session as busy
 * inside `agent_end`, so idleness is polled briefly; while actors run, it waits for
 * `runsChanged()` instead of polling (the run store calls it when a run ends).
 */
export class IdleBoundary {
  private timer: NodeJS.Timeout | undefined;
  private armed = false;
  private closed = false;
  private ctx: ExtensionContext | undefined;

  constructor(
    private readonly hooks: BoundaryHooks,
    private readonly boundary: (ctx: ExtensionContext) => BoundaryContext,
    private readonly report: (errors: readonly string[]) => void,
  ) {}

  /** the foreground turn ended (agent_end) */
  turnEnded(ctx: ExtensionContext): void {
    if (this.closed) return;
    this.ctx = ctx;
    this.armed = true;
    this.poll();
  }

  /** a new run started: the turn goes on, the pending boundary is void */
  runStarted(): void {
    this.armed = false;
    this.stop();
  }

  runsChanged(): void {
    if (this.armed) this.poll();
  }

  close(): void {
    this.closed = true;
    this.armed = false;
    this.stop();
  }

  private stop(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private poll(): void {
    this.stop();
    this.timer = setTimeout(() => this.check(), POLL_MS);
    this.timer.unref?.();
  }

  private check(): void {
    this.timer = undefined;
    const ctx = this.ctx;
    if (!this.armed || this.closed || ctx === undefined) return;
    let busy: boolean;
    try {
      busy = !ctx.isIdle() || ctx.hasPendingMessages();
    } catch {
      // the session this context belonged to is gone
      this.close();
      return;
    }
    if (busy) return this.poll();
    if ((this.hooks.activeRuns?.() ?? 0) > 0) return; // runsChanged() resumes
    this.armed = false;
    const boundary = this.boundary(ctx);
    boundary.pi.events.emit(IDLE_EVENT, { automaticReview: boundary.automaticReview });
    void runSteps(this.hooks.onIdle ?? [], boundary).then((errors) => {
      if (errors.length > 0) this.report(errors);
    });
  }
}
