// A child process for the register_tool concurrency test. argv[2] is a JSON job; one JSON line
// per completed operation goes to stdout.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { makeNodeFileSystem } from "../../adapters/fs/node.js";
import { makeFileLock } from "../../adapters/lock/file-lock.js";
import { agentPaths } from "../../runtime/agent-paths.js";
import { registerTool } from "../../runtime/register.js";

export interface WorkerOp {
  readonly kind: "create" | "update" | "merge" | "delete";
  readonly name: string;
  readonly template?: string;
  readonly description?: string;
}

export interface WorkerJob {
  readonly agentDir: string;
  readonly lockRoot: string;
  readonly ops: readonly WorkerOp[];
}

export interface OpLog {
  readonly worker: number;
  readonly index: number;
  readonly op: WorkerOp;
  readonly ok: boolean;
  readonly text: string;
  /** CLOCK_MONOTONIC (shared by every process of the host) read inside the lock window, after the
   * write or delete: present exactly when the operation changed the file */
  readonly stamp?: string;
  /** the file as it was at that moment (null: absent) */
  readonly content?: string | null;
}

const job = JSON.parse(process.argv[2] ?? "{}") as WorkerJob & { worker: number };
const paths = agentPaths({ PI_CODING_AGENT_DIR: job.agentDir }, process.cwd());
const fs = makeNodeFileSystem();
const lock = makeFileLock({ lockRoot: job.lockRoot });

function paramsOf(op: WorkerOp): Record<string, unknown> {
  switch (op.kind) {
    case "create":
      return { name: op.name, description: op.description, template: op.template };
    case "update":
      return { name: op.name, description: op.description, template: op.template, update: true };
    case "merge":
      return { name: op.name, description: op.description, update: true };
    case "delete":
      return { name: op.name, template: null };
  }
}

async function main(): Promise<void> {
  for (const [index, op] of job.ops.entries()) {
    let stamp: string | undefined;
    let content: string | null | undefined;
    const result = await registerTool(paramsOf(op), {
      paths,
      fs,
      lock,
      lockOptions: { timeoutMs: 20_000, pollMs: 5 },
      refresh: () => {
        stamp = process.hrtime.bigint().toString();
        try {
          content = readFileSync(join(paths.recipeRoot, `${op.name}.json`), "utf8");
        } catch {
          content = null;
        }
      },
    });
    const log: OpLog = { worker: job.worker, index, op, ok: result.ok, text: result.text, ...(stamp === undefined ? {} : { stamp, content: content ?? null }) };
    process.stdout.write(`${JSON.stringify(log)}\n`);
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`worker crashed: ${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
