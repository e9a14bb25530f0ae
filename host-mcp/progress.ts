// Progress of a long synchronous recipe, for clients that ask for it (a `progressToken` in the
// call's `_meta`). The graph interpreter knows nothing of MCP; the reporter wraps the process
// runner it is given, so every command that starts or ends, and every line it prints, is a step
// the client hears about. A
// heartbeat covers a single long command, and lets clients that reset their request timeout on
// progress (`resetTimeoutOnProgress`) wait for it.
import type { ProcessRunner } from "../adapters/process/ProcessRunner.js";
import { makeProcessRunner } from "../adapters/process/ProcessRunner.js";
import { withOutputLines } from "../runtime/execute/output-lines.js";

export interface ProgressUpdate {
  /** strictly increasing, as MCP requires; no total, since a graph's length is not known ahead */
  readonly progress: number;
  readonly message: string;
}

export interface ProgressReporter {
  readonly runner: ProcessRunner;
  /** no update is sent after it */
  stop(): void;
}

export const DEFAULT_HEARTBEAT_MS = 5000;

const commandName = (command: string): string => command.slice(command.lastIndexOf("/") + 1) || command;

export function progressReporter(
  tool: string,
  base: ProcessRunner,
  send: (update: ProgressUpdate) => void,
  options: { readonly heartbeatMs?: number; readonly now?: () => number } = {},
): ProgressReporter {
  const now = options.now ?? Date.now;
  const started = now();
  let progress = 0;
  let running = 0;
  let finished = 0;
  let stopped = false;
  const emit = (message: string): void => {
    if (stopped) return;
    progress += 1;
    send({ progress, message: `${tool}: ${message}` });
  };
  const elapsed = (): string => `${Math.round((now() - started) / 1000)}s elapsed`;
  const heartbeat = setInterval(() => emit(`${running} running, ${finished} finished, ${elapsed()}`), options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS);
  heartbeat.unref();
  // each line a command prints is a progress message too, so a client sees the work as it happens
  const lines = withOutputLines(base, ({ command, line }) => emit(`${commandName(command)}: ${line}`));
  const runner = makeProcessRunner(`${base.name}+progress`, async (invocation) => {
    running += 1;
    emit(`started ${commandName(invocation.command)}`);
    try {
      const result = await lines.run(invocation);
      finished += 1;
      emit(`finished ${commandName(invocation.command)} (exit ${result.code}), ${elapsed()}`);
      return result;
    } finally {
      running -= 1;
    }
  });
  return {
    runner,
    stop() {
      stopped = true;
      clearInterval(heartbeat);
    },
  };
}
