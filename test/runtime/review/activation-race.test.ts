// A launch racing activation, with real processes: activation (in this process, on the real file
// system and the real file locks) is held inside the recipe-root fence, just before it reads the
// reviewed tools, while a separate `pi-recipes call tool_00` process resolves tool_00 and tries to
// count its launch. That launch must wait for the activation and then be refused with the
// reload-and-retry text (tool_00 has become renamed_tool): it never runs, and nothing is counted.
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FileSystem } from "../../../adapters/fs/FileSystem.js";
import { makeNodeFileSystem } from "../../../adapters/fs/node.js";
import { makeFileLock } from "../../../adapters/lock/file-lock.js";
import { agentPaths, lockRootOf } from "../../../runtime/agent-paths.js";
import { closeLedger } from "../../../runtime/ledger/index.js";
import { activatePortfolio } from "../../../runtime/review/activate.js";
import { openReviews } from "../../../runtime/review/review-context.js";
import { cliNodeArgs, repoRoot, runCli, runCliJson } from "../../support/cli.js";
import { approvedPortfolio } from "../../support/portfolio.js";

let agent: string;
beforeAll(() => void (agent = mkdtempSync(join(tmpdir(), "pi-recipes-race-"))));
afterAll(() => rmSync(agent, { recursive: true, force: true }));

interface Racer {
  readonly result: Promise<{ status: number | null; out: string }>;
  /** what the process has printed so far, and whether it has ended */
  readonly seen: () => { out: string; ended: boolean };
}

/** `pi-recipes call <tool>` as a child process that runs alongside this one */
function callAsync(tool: string, env: NodeJS.ProcessEnv): Racer {
  let out = "";
  let ended = false;
  const result = new Promise<{ status: number | null; out: string }>((done, fail) => {
    const child = spawn(process.execPath, [...cliNodeArgs(), "call", tool], { cwd: repoRoot, env: { ...process.env, ...env } });
    child.stdout.on("data", (b: Buffer) => (out += b.toString()));
    child.stderr.on("data", (b: Buffer) => (out += b.toString()));
    child.on("error", fail);
    child.on("close", (status) => {
      ended = true;
      done({ status, out });
    });
  });
  return { result, seen: () => ({ out, ended }) };
}

/** waits for `ok`; a racing process that ends first fails at once, with what it printed */
const until = async (what: string, ok: () => boolean, racer?: Racer, ms = 90_000): Promise<void> => {
  for (const end = Date.now() + ms; !ok(); ) {
    const seen = racer?.seen();
    if (seen?.ended === true) throw new Error(`the racing launch ended before ${what}: ${seen.out}`);
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe("a launch racing activation", () => {
  it("waits for the fence, then is refused with the reload-and-retry text: the tool does not run and nothing is counted", async () => {
    expect(await approvedPortfolio(agent)).toBe("approved");
    const env = { PI_CODING_AGENT_DIR: agent, PI_RECIPES_REVIEWER: "" };
    const paths = agentPaths({ PI_CODING_AGENT_DIR: agent }, agent);
    const node = makeNodeFileSystem();
    const tool00 = join(paths.recipeRoot, "tool_00.json");
    const fence = join(paths.usageRoot, "fence.json");
    const launches = join(paths.usageRoot, "launches");

    // activation pauses the first time it reads tool_00 inside the closed fence
    let paused = false;
    let resume: () => void = () => undefined;
    const gate = new Promise<void>((r) => (resume = r));
    const fs: FileSystem = new Proxy(node, {
      get: (target, p) =>
        p === "readFile"
          ? async (path: string) => {
              if (path === tool00 && !paused && (await target.stat(fence).then((s) => s.size > 0, () => false))) {
                paused = true;
                await gate;
              }
              return target.readFile(path);
            }
          : Reflect.get(target, p),
    });
    const ctx = openReviews({ fs, lock: makeFileLock({ fs: node, lockRoot: lockRootOf(paths.recipeRoot) }), paths, lockTimeoutMs: 30_000 });
    const activation = activatePortfolio(ctx).finally(() => closeLedger(ctx.ledger));
    await until("activation inside the fence", () => paused);

    const call = callAsync("tool_00", env);
    // the other process has begun its launch, seen the fence closed and withdrawn: it now waits
    const withdrawn = (): boolean => {
      try {
        return readdirSync(launches).some((f) => /"x":/.test(readFileSync(join(launches, f), "utf8")));
      } catch {
        return false;
      }
    };
    await until("the racing launch to withdraw behind the fence", withdrawn, call);
    resume();

    expect(await activation).toMatchObject({ outcome: "activated", phase: "completed" });
    const raced = await call.result;
    expect(raced.out).toContain(`Recipe launch rejected because its source changed during activation: ${tool00}. Reload recipe tools and retry.`);
    expect(raced.out).not.toContain("t0");
    expect(raced.status).not.toBe(0);

    // nothing was counted for it; the renamed tool runs and counts from there
    const usageOf = (id: string): Record<string, unknown> =>
      ((runCliJson(["inspect", "target=recipes", "view=summary", "verbose=true"], env).body.details["active"] as { id: string; usage?: Record<string, unknown> }[]).find((a) => a.id === id)?.usage ?? {});
    expect(usageOf("renamed_tool")).toMatchObject({ lifetime_calls: 0 });
    expect(runCli(["call", "renamed_tool"], env).stdout).toBe("t0\n");
    expect(usageOf("renamed_tool")).toMatchObject({ lifetime_calls: 1 });
  }, 120_000);
});
