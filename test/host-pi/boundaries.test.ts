// The safe boundaries automatic reviews will hook into: a step at session_start before tool
// discovery, and an event once the foreground turn has ended and no run is active.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, expect, test } from "vitest";
import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import { createPiRecipesExtension, IDLE_EVENT, type BoundaryContext } from "../../host-pi/index.js";
import { IdleBoundary } from "../../host-pi/boundaries.js";
import { agentPaths } from "../../runtime/agent-paths.js";
import { call, makeSandbox, say, startPi, waitUntil, type PiRun, type PiSandbox } from "./sdk-harness.js";
import { makeMemFileSystem } from "../../adapters/fs/memfs.js";
import { makeFileLock } from "../../adapters/lock/file-lock.js";

let sandbox: PiSandbox;
let pi: PiRun | undefined;

beforeEach(() => {
  sandbox = makeSandbox();
});
afterEach(async () => {
  await pi?.close();
  pi = undefined;
  sandbox.cleanup();
});

test("session_start runs its boundary steps before discovery; the idle event follows the whole foreground turn", async () => {
  const env = { PI_CODING_AGENT_DIR: sandbox.agentDir, PI_ACTORS_AUTOMATIC_REVIEW: "false" };
  const policies: boolean[] = [];
  const idle: { ends: number; idle: boolean }[] = [];
  pi = await startPi({
    sandbox,
    load: "none",
    bus: [IDLE_EVENT],
    extensionFactories: [
      createPiRecipesExtension({
        env,
        packagedRoot: null,
        boundaries: {
          beforeDiscovery: [
            (b) => {
              policies.push(b.automaticReview);
              // a recipe that appears here must be a tool: discovery has not happened yet
              writeFileSync(join(b.paths.recipeRoot, "activated.json"), JSON.stringify({ description: "Activated", template: "echo activated" }));
            },
            () => {
              throw new Error("a broken step");
            },
          ],
          onIdle: [(b) => void idle.push({ ends: pi!.agentEnds(), idle: b.ctx.isIdle() })],
        },
      }),
    ],
    responses: [
      call("register_tool", { name: "later", description: "Later", template: "echo later" }),
      say("first run done"),
      call("later", {}),
      say("second run done"),
      call("activated", {}),
      say("third"),
    ],
  });
  expect(policies).toEqual([false]);
  expect(pi.session.getActiveToolNames()).toContain("activated");

  await pi.session.prompt("register");
  await pi.waitForRuns(2);
  await waitUntil(() => idle.length === 1, 5000, "idle boundary");
  // one boundary, after the run the extension started, not after the first run
  expect(idle).toEqual([{ ends: 2, idle: true }]);
  expect(pi.bus.filter((e) => e.channel === IDLE_EVENT)).toEqual([{ channel: IDLE_EVENT, data: { automaticReview: false } }]);

  await pi.session.prompt("again");
  await waitUntil(() => idle.length === 2, 5000, "second idle boundary");
  expect(pi.outcomes.map((o) => `${o.tool}:${o.isError}`)).toEqual(["register_tool:false", "later:false", "activated:false"]);
});

test("the idle boundary waits while a run is active and is void once a new run starts", async () => {
  let runs = 1;
  let busy = true;
  const fired: number[] = [];
  const ctx = { isIdle: () => !busy, hasPendingMessages: () => false } as unknown as ExtensionContext;
  const pi = { events: { emit: () => undefined } } as unknown as ExtensionAPI;
  const fs = makeMemFileSystem();
  const boundary = (c: ExtensionContext): BoundaryContext => ({ paths: agentPaths({}, "/"), fs, lock: makeFileLock({ fs, lockRoot: "/.locks" }), automaticReview: true, pi, ctx: c });
  const idle = new IdleBoundary({ activeRuns: () => runs, onIdle: [() => void fired.push(Date.now())] }, boundary, () => undefined);

  idle.turnEnded(ctx);
  await new Promise((r) => setTimeout(r, 40));
  busy = false;
  await new Promise((r) => setTimeout(r, 40));
  expect(fired).toHaveLength(0); // an actor still runs
  runs = 0;
  idle.runsChanged();
  await waitUntil(() => fired.length === 1, 1000, "idle after the run ended");

  idle.turnEnded(ctx);
  idle.runStarted();
  await new Promise((r) => setTimeout(r, 40));
  expect(fired).toHaveLength(1);
  idle.close();
});
