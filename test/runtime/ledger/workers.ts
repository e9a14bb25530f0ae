// Spawns launch-worker.ts (built for this test run: test/support/cli.ts) and collects its JSON-line events.
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { nodeArgsFor } from "../../support/cli.js";

export interface Event {
  readonly ev: string;
  readonly [k: string]: unknown;
}

export interface Worker {
  readonly child: ChildProcess;
  next(ev: string, ms?: number): Promise<Event>;
  readonly exited: Promise<number | null>;
  send(line: string): void;
  kill(): void;
}

const WORKER = fileURLToPath(new URL("./launch-worker.ts", import.meta.url));
const REPO = fileURLToPath(new URL("../../../", import.meta.url));

export function spawnWorker(job: Record<string, unknown>): Worker {
  const child = spawn(process.execPath, [...nodeArgsFor(WORKER), JSON.stringify(job)], { cwd: REPO, stdio: ["pipe", "pipe", "pipe"] });
  const events: Event[] = [];
  const waiters: Array<() => void> = [];
  let stderr = "";
  let buffer = "";
  let gone = false;
  const wake = (): void => waiters.splice(0).forEach((w) => w());
  child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  child.stdout!.on("data", (d: Buffer) => {
    buffer += d.toString();
    for (let nl = buffer.indexOf("\n"); nl >= 0; nl = buffer.indexOf("\n")) {
      events.push(JSON.parse(buffer.slice(0, nl)) as Event);
      buffer = buffer.slice(nl + 1);
    }
    wake();
  });
  const exited = new Promise<number | null>((done) =>
    child.on("close", (code) => {
      gone = true;
      wake();
      done(code);
    }),
  );
  const next = (ev: string, ms = 30_000): Promise<Event> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`worker ${child.pid}: no "${ev}" within ${ms} ms; events ${JSON.stringify(events.slice(-5))}; stderr ${stderr}`)), ms);
      const check = (): void => {
        const crash = events.find((e) => e.ev === "crash");
        const found = events.find((e) => e.ev === ev);
        if (found !== undefined || crash !== undefined || gone) {
          clearTimeout(timer);
          if (found !== undefined) resolve(found);
          else reject(new Error(`worker ${child.pid} ended without "${ev}": ${JSON.stringify(crash ?? events.slice(-5))}; stderr ${stderr}`));
        } else waiters.push(check);
      };
      check();
    });
  return {
    child,
    next,
    exited,
    send: (line) => void child.stdin!.write(`${line}\n`),
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    },
  };
}
