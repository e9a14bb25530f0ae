// Pi freezes the tool list for a whole run (the agent snapshots its tools when a run starts): a
// tool the agent registers during a run can only be called in the next one. When the agent asked
// for a change, the extension starts that next run itself, once the session is idle (inside
// agent_end it is still busy, and a message sent then would only join the finished run's
// follow-up queue).
import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";

export const TOOLS_CHANGED_MESSAGE = "pi-recipes-tools-changed";

const POLL_MS = 10;
/** give up when the session never becomes idle (it was disposed, or another run holds it) */
const MAX_WAIT_MS = 10_000;

export class NextRun {
  private readonly requests: string[] = [];
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly pi: ExtensionAPI) {}

  /** the agent changed the tool set during the current run */
  request(summary: string): void {
    if (!this.requests.includes(summary)) this.requests.push(summary);
  }

  pending(): boolean {
    return this.requests.length > 0 || this.timer !== undefined;
  }

  /** a run started: its snapshot already holds the current tools, nothing is owed any more */
  runStarted(): void {
    this.requests.length = 0;
    this.stop();
  }

  /** the run ended (agent_end): start the next one if a change was asked for; true when it will */
  runEnded(ctx: ExtensionContext): boolean {
    if (this.closed || this.requests.length === 0) return false;
    const text =
      // each request is a sentence of its own, its stop included: joined without doubling it
      `Recipe tools changed: ${this.requests.map((r) => r.trim().replace(/\.$/, "")).join("; ")}. ` +
      "The updated tool set is active from this turn on; continue with the task.";
    this.requests.length = 0;
    const started = Date.now();
    const attempt = (): void => {
      this.timer = undefined;
      if (this.closed) return;
      let idle: boolean;
      try {
        idle = ctx.isIdle();
      } catch {
        return; // the session is gone
      }
      if (!idle) {
        if (Date.now() - started < MAX_WAIT_MS) this.schedule(attempt);
        return;
      }
      try {
        this.pi.sendMessage({ customType: TOOLS_CHANGED_MESSAGE, content: text, display: false }, { triggerTurn: true });
      } catch {
        // the session was disposed between the check and the send: nobody is left to continue
      }
    };
    this.schedule(attempt);
    return true;
  }

  close(): void {
    this.closed = true;
    this.stop();
  }

  private schedule(fn: () => void): void {
    this.timer = setTimeout(fn, POLL_MS);
    this.timer.unref?.();
  }

  private stop(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
