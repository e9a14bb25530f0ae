// Real scripts in a temp dir, and a one-call runner of templates through the real executor.
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Json } from "../../../core/model.js";
import type { CommandResult } from "../../../core/result.js";
import type { Values } from "../../../core/template/substitute.js";
import { nodeProcessRunner } from "../../../adapters/process/node-runner.js";
import { executeTemplate, type Execution } from "../../../runtime/execute/execute.js";
import { reportExecution } from "../../../runtime/execute/execution-report.js";
import type { ExecuteOptions } from "../../../runtime/execute/run-state.js";
import { programOf } from "../../../core/tool/program.js";
import { makeNodeFileSystem } from "../../../adapters/fs/node.js";

const nodeFs = makeNodeFileSystem();

export interface Sandbox {
  readonly dir: string;
  readonly agent: string;
  /** writes an executable `#!/bin/sh` script named `name` in the sandbox */
  script(name: string, body: string): string;
  /** lines the scripts appended to `log` */
  log(): string[];
  cleanup(): void;
}

export function sandbox(): Sandbox {
  const dir = mkdtempSync(join(tmpdir(), "pi-recipes-exec-"));
  const agent = join(dir, "agent");
  mkdirSync(join(agent, "recipes"), { recursive: true });
  return {
    dir,
    agent,
    script(name, body) {
      const path = join(dir, name);
      writeFileSync(path, `#!/bin/sh\n${body}\n`);
      chmodSync(path, 0o755);
      return path;
    },
    log: () => (existsSync(join(dir, "log")) ? readFileSync(join(dir, "log"), "utf8").split("\n").filter((l) => l !== "") : []),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A script body that logs `<name> <args> | <stdin>` and prints `out` (exit `code`). */
export const recorder = (name: string, out: string, code = 0): string =>
  `in=$(cat); printf '%s\\n' "${name} $* | $in" >> "$(dirname "$0")/log"; printf '%s' '${out.replace(/'/g, `'\\''`)}'; exit ${code}`;

export const options = (box: Sandbox, extra: Partial<ExecuteOptions> = {}): ExecuteOptions => ({
  runner: nodeProcessRunner,
  fs: nodeFs,
  place: { cwd: box.dir, home: box.dir },
  killGraceMs: 200,
  ...extra,
});

export async function run(box: Sandbox, template: Json, values: Values = {}, extra: Partial<ExecuteOptions> = {}): Promise<{ execution: Execution; result: CommandResult }> {
  const execution = await executeTemplate(programOf(template), values, options(box, extra));
  const result = await reportExecution(execution, { tool: "my-tool", template, graph: template, tmpRoot: join(box.agent, "tmp", "pi-recipes"), fs: nodeFs });
  return { execution, result };
}
