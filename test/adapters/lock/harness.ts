// Spawns lock workers (worker.ts, built for this test run: test/support/cli.ts) and collects their JSON-line events.
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { nodeArgsFor } from "../../support/cli.js";

export interface WorkerEvent {
  readonly ev: string;
  readonly t: number;
  readonly pid: number;
  readonly name?: string;
  readonly message?: string;
}

export interface Worker {
  readonly child: ChildProcess;
  readonly pid: number;
  readonly events: WorkerEvent[];
  /** the first event named `ev`, waiting up to `ms` for it */
  next(ev: string, ms?: number): Promise<WorkerEvent>;
  readonly exited: Promise<number | null>;
  send(line: string): void;
}

const WORKER = fileURLToPath(new URL("./worker.ts", import.meta.url));
const REPO = fileURLToPath(new URL("../../../", import.meta.url));

/** `as` runs the worker as another user (needs root). */
export function spawnWorker(job: Record<string, unknown>, as: { readonly uid: number; readonly gid: number } | undefined = undefined): Worker {
  const child = spawn(process.execPath, [...nodeArgsFor(WORKER), JSON.stringify(job)], { cwd: REPO, stdio: ["pipe", "pipe", "pipe"], ...as });
  const events: WorkerEvent[] = [];
  const waiters: Array<() => void> = [];
  let stderr = "";
  let buffer = "";
  child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  child.stdout!.on("data", (d: Buffer) => {
    buffer += d.toString();
    for (let nl = buffer.indexOf("\n"); nl >= 0; nl = buffer.indexOf("\n")) {
      events.push(JSON.parse(buffer.slice(0, nl)) as WorkerEvent);
      buffer = buffer.slice(nl + 1);
    }
    waiters.splice(0).forEach((wake) => wake());
  });
  let gone = false;
  const exited = new Promise<number | null>((done) =>
    child.on("close", (code) => {
      gone = true;
      waiters.splice(0).forEach((wake) => wake());
      done(code);
    }),
  );
  const next = (ev: string, ms = 15_000): Promise<WorkerEvent> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`worker ${child.pid}: no "${ev}" within ${ms} ms; events ${JSON.stringify(events)}; stderr ${stderr}`)), ms);
      const check = (): void => {
        const found = events.find((e) => e.ev === ev);
        if (found !== undefined) {
          clearTimeout(timer);
          resolve(found);
        } else if (gone) {
          clearTimeout(timer);
          reject(new Error(`worker ${child.pid} exited without "${ev}"; events ${JSON.stringify(events)}; stderr ${stderr}`));
        } else waiters.push(check);
      };
      check();
    });
  return { child, pid: child.pid!, events, next, exited, send: (line) => void child.stdin!.write(`${line}\n`) };
}

/** Ends a worker whatever state it is in; SIGKILL ends a stopped process too. */
export function killWorker(w: Worker): void {
  if (w.child.exitCode !== null || w.child.signalCode !== null) return;
  w.child.kill("SIGKILL");
}

export const delay = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));
