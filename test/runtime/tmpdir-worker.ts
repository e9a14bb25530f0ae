// A child process for the TMPDIR isolation test: it updates and launches through runtime sessions,
// exactly as the hosts do (ports, locks and ledger from the agent paths of its environment), with
// its own TMPDIR. argv[2] is a JSON job; one JSON line per update and one summary line go to stdout.
import { makeNodeScanPort } from "../../adapters/fs/scan.js";
import { makeNodeFileSystem } from "../../adapters/fs/node.js";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as E from "fp-ts/lib/Either.js";
import { accountLaunch } from "../../runtime/accounting.js";
import { openSession } from "../../runtime/session.js";

export interface TmpdirJob {
  readonly worker: number;
  readonly rounds: number;
}

export interface UpdateLog {
  readonly kind: "update" | "merge";
  readonly tag: string;
  readonly ok: boolean;
  readonly text: string;
  /** CLOCK_MONOTONIC read inside the lock window after the write, and the file at that moment */
  readonly stamp?: string;
  readonly content?: string;
}

const job = JSON.parse(process.argv[2] ?? "{}") as TmpdirJob;
const session = openSession({ env: process.env, packagedRoot: null, fs: makeNodeFileSystem(), scan: makeNodeScanPort() });
const recipe = join(session.paths.recipeRoot, "shared.json");

async function update(kind: "update" | "merge", tag: string): Promise<void> {
  let stamp: string | undefined;
  let content: string | undefined;
  const params = kind === "update" ? { name: "shared", description: `set ${tag}`, template: `echo ${tag} {x}`, update: true } : { name: "shared", description: `merged ${tag}`, update: true };
  const result = await session.register(params, () => {
    stamp = process.hrtime.bigint().toString();
    content = readFileSync(recipe, "utf8");
  });
  const log: UpdateLog = { kind, tag, ok: result.ok, text: result.text, ...(stamp === undefined || content === undefined ? {} : { stamp, content }) };
  process.stdout.write(`${JSON.stringify(log)}\n`);
}

/** One counted launch, as the CLI does it: a fresh session discovers the tool (its digest taken
 *  from the bytes it compiled) and counts it; a launch rejected because the recipe changed in
 *  between is resolved again. */
async function launch(): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    const fresh = openSession({ env: process.env, packagedRoot: null, fs: makeNodeFileSystem(), scan: makeNodeScanPort() });
    try {
      const tool = fresh.discovery().tools.find((t) => t.name === "shared");
      if (tool === undefined) throw new Error("tool shared not discovered");
      const check = await accountLaunch(fresh.ledger, tool);
      if (E.isRight(check) && check.right.diagnostic !== undefined) throw new Error(check.right.diagnostic);
      if (E.isRight(check)) return attempt;
    } finally {
      await fresh.close();
    }
  }
}

async function main(): Promise<void> {
  let attempts = 0;
  for (let i = 0; i < job.rounds; i++) {
    await update(i % 2 === 0 ? "update" : "merge", `w${job.worker}r${i}`);
    attempts += await launch();
  }
  await session.close();
  process.stdout.write(`${JSON.stringify({ done: true, attempts })}\n`);
}

main().catch((e: unknown) => {
  process.stderr.write(`worker crashed: ${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
