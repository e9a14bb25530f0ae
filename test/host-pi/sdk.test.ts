// The extension inside a real Pi 0.73.1 session (in-process SDK, scripted faux model, no network):
// register_tool then the new tool in the next run, live edits, deletions, invalid recipes, the
// runtime status views and the message route.
import { existsSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { makeNodeFileSystem } from "../../adapters/fs/node.js";
import { makeFileLock } from "../../adapters/lock/file-lock.js";
import { openLedger, loadUsage } from "../../runtime/ledger/index.js";
import { openRegistry } from "../../runtime/registry.js";
import { makeNodeScanPort } from "../../adapters/fs/scan.js";
import { call, echoLast, makeSandbox, offeredThenCall, say, startPi, type PiRun, type PiSandbox } from "./sdk-harness.js";

const ENV_KEYS = ["PI_CODING_AGENT_DIR", "PI_ACTORS_AUTOMATIC_REVIEW"] as const;

let sandbox: PiSandbox;
let pi: PiRun | undefined;
const saved: Partial<Record<(typeof ENV_KEYS)[number], string | undefined>> = {};

beforeEach(() => {
  sandbox = makeSandbox();
  for (const k of ENV_KEYS) saved[k] = process.env[k];
  process.env["PI_CODING_AGENT_DIR"] = sandbox.agentDir;
  delete process.env["PI_ACTORS_AUTOMATIC_REVIEW"];
});

afterEach(async () => {
  await pi?.close();
  pi = undefined;
  for (const k of ENV_KEYS) {
    const v = saved[k];
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  sandbox.cleanup();
});

const recipe = (name: string, body: unknown): string => {
  const path = join(sandbox.recipeRoot, `${name}.json`);
  writeFileSync(path, typeof body === "string" ? body : JSON.stringify(body, null, 2) + "\n");
  return path;
};

const active = (): string[] => pi!.session.getActiveToolNames().sort();

describe("host-pi in a real Pi session (SDK, scripted model)", () => {
  test("register_tool in one run, the new tool in the run the extension starts next, then inspect", async () => {
    const offered: string[][] = [];
    pi = await startPi({
      sandbox,
      load: "path",
      responses: [
        call("register_tool", { name: "greet", description: "Greet someone", template: "echo hello {who}" }),
        offeredThenCall(offered, "inspect", { target: "tool:greet" }),
        say("registered"),
        // the next run, started by the extension once the first one ended
        offeredThenCall(offered, "greet", { who: "pi" }),
        call("inspect", { target: "tool:greet" }),
        echoLast("done:"),
      ],
    });
    expect(active()).toEqual(["inspect", "message", "register_tool", "spawn"]);
    await pi.session.prompt("make a greeting tool and use it");
    await pi.waitForRuns(2);

    // frozen for the first run, offered in the second
    expect(offered[0]).not.toContain("greet");
    expect(offered[1]).toContain("greet");
    expect(pi.outcomes.map((o) => `${o.tool}:${o.isError}`)).toEqual([
      "register_tool:false", "inspect:false", "greet:false", "inspect:false",
    ]);
    expect(pi.outcomes[0]!.text).toBe('Registered tool "greet" (args: who).');
    expect(pi.outcomes[2]!.text).toContain("hello pi");
    expect(pi.outcomes[3]!.text).toContain(`tool greet format=json async=false path=${join(sandbox.recipeRoot, "greet.json")}`);
    expect(pi.outcomes[3]!.text).toContain("required: who");
    expect(JSON.parse(readFileSync(join(sandbox.recipeRoot, "greet.json"), "utf8"))).toEqual({
      description: "Greet someone",
      template: "echo hello {who}",
    });
    // the run was started by a hidden message that says why
    const custom = pi.session.messages.filter((m) => (m as { role: string }).role === "custom");
    expect(custom).toHaveLength(1);
    expect(JSON.stringify(custom[0])).toContain('Recipe tools changed: Registered tool \\"greet\\" (args: who). The updated tool set');
    expect(pi.agentEnds()).toBe(2);
  });

  test("a recipe edited on disk during the session changes the tool's behavior; the watcher republishes it", async () => {
    const path = recipe("shout", { description: "Shout v1", template: "echo v1 {text}" });
    pi = await startPi({
      sandbox,
      bus: ["pi-recipes:tools-changed"],
      responses: [call("shout", { text: "a" }), echoLast(""), call("shout", { text: "b" }), echoLast("")],
    });
    await pi.session.prompt("one");
    writeFileSync(path, JSON.stringify({ description: "Shout v2", template: "echo v2 {text}" }));
    await pi.session.prompt("two");
    expect(pi.outcomes.map((o) => o.text.trim())).toEqual(["v1 a", "v2 b"]);
    await pi.waitFor(() => pi!.session.getAllTools().find((t) => t.name === "shout")?.description === "Shout v2", 5000, "republished description");
    expect(pi.bus.some((e) => (e.data as { changed: string[] }).changed.includes("shout"))).toBe(true);
  });

  test("a recipe deleted during a run: its call is rejected by the extension's gate, then the tool is deactivated", async () => {
    const path = recipe("gone", { description: "Soon gone", template: "echo still here" });
    recipe("stays", { description: "Stays", template: "echo stays" });
    pi = await startPi({
      sandbox,
      responses: [
        call("gone", {}),
        // deleted while the run goes on: Pi still offers the tool, the model calls it
        () => {
          unlinkSync(path);
          return call("gone", {});
        },
        call("message", { to: "tool:gone", type: "run" }),
        call("inspect", { target: "tool:gone" }),
        say("ok"),
      ],
    });
    expect(active()).toContain("gone");
    await pi.session.prompt("go");
    const [first, second, messaged, inspected] = pi.outcomes;
    expect(first).toMatchObject({ tool: "gone", isError: false });
    expect(second).toMatchObject({ tool: "gone", isError: true });
    expect(second!.text).toBe(
      'Tool "gone" is not in the recipe registry any more: Unknown tool: gone. Registered tools: stays. ' +
        "Its stale definition stays visible until the session reloads; do not call it.",
    );
    expect(messaged).toMatchObject({ tool: "message", isError: true });
    expect(messaged!.text).toContain("tool actor not found or not executable: gone");
    expect(inspected).toMatchObject({ tool: "inspect", isError: true });
    expect(inspected!.text).toContain("Unknown tool: gone");
    expect(active()).not.toContain("gone");
    expect(active()).toContain("stays");
  });

  test("an invalid recipe shows in inspect and hides nothing", async () => {
    recipe("good", { description: "Good", template: "echo good {x}" });
    const bad = recipe("bad", "{ this is not json");
    const offered: string[][] = [];
    pi = await startPi({
      sandbox,
      responses: [
        offeredThenCall(offered, "inspect", { target: "recipes", view: "summary" }),
        call("inspect", { target: "tool:bad" }),
        call("good", { x: "1" }),
        call("inspect", { target: "tool:pi-actors", view: "triage" }),
        say("ok"),
      ],
    });
    await pi.session.prompt("look");
    expect(offered[0]).toContain("good");
    expect(offered[0]).not.toContain("bad");
    const [summary, badTool, good, triage] = pi.outcomes;
    expect(summary!.isError).toBe(false);
    expect(summary!.text).toMatch(/^recipes active=\d+ .*invalid=1 /);
    expect(summary!.text).toContain("invalid: bad:");
    expect(badTool!.isError).toBe(true);
    expect(badTool!.text).toContain(`Recipe bad is invalid: ${bad}`);
    expect(badTool!.text.split(bad).length).toBe(2);
    expect(good).toMatchObject({ tool: "good", isError: false });
    expect(good!.text.trim()).toBe("good 1");
    expect(triage!.text).toMatch(/^triage version=\S+ mode=source active_runs=0 other_runs=0 invalid_recipes=1 blocking_recipes=0 /);
    expect(triage!.text).toContain("next=inspect_target=recipes_view=doctor");
  });

  test("status view, the message route to tool:<name> and tool:pi-actors, and launch accounting", async () => {
    process.env["PI_ACTORS_AUTOMATIC_REVIEW"] = " OFF ";
    // greet.now is a type the recipe says it takes; a recipe tool takes the call types besides
    recipe("greet", { description: "Greet", template: "echo hello {who}", mailbox: { accepts: ["greet.now"] } });
    pi = await startPi({
      sandbox,
      responses: [
        call("inspect", { target: "tool:pi-actors", view: "status" }),
        call("message", { to: "tool:greet", type: "greet.now", body: { who: "msg" } }),
        call("message", { to: "tool:pi-actors", type: "review.reset", body: { scope: "draft" } }),
        call("message", { to: "tool:pi-actors", type: "review.retry", body: { scope: "draft" } }),
        call("greet", { who: "direct" }),
        say("ok"),
      ],
    });
    await pi.session.prompt("status");
    const [status, toTool, reset, retry, direct] = pi.outcomes;
    const root = join(import.meta.dirname, "../..");
    expect(status!.text).toMatch(
      new RegExp(
        `^pi-recipes version=\\S+ mode=source automatic_review=false reviewer=\\S+ path=${root} ` +
          `entrypoint=${join(root, "host-pi", "index.ts")}( git=[0-9a-f]+)? recipes=${sandbox.recipeRoot} packaged_recipes=${join(root, "recipes")} sandbox_all=off sandbox=(bubblewrap \\d\\S*|none \\(.+\\))$`,
      ),
    );
    expect(toTool!.text).toBe(
      "to=tool:greet type=greet.now message=sent delivered=true persisted=false consumer=tool reason=tool_invoked tool=greet invoked=true\nhello msg",
    );
    expect(reset!.isError).toBe(true);
    expect(reset!.text).toBe(
      "to=tool:pi-actors type=review.reset message=not_sent reason=review_state_unavailable phase=idle next=inspect_target=recipes_view=reviews",
    );
    expect(retry).toMatchObject({ isError: true, text: "Automatic recipe review is disabled by PI_ACTORS_AUTOMATIC_REVIEW." });
    expect(direct!.text.trim()).toBe("hello direct");
    await pi.close();
    pi = undefined;
    // both launches (the message route and the direct call) were counted in the recipe's lineage
    const fs = makeNodeFileSystem();
    const ledger = openLedger({ fs, lock: makeFileLock({ fs, lockRoot: join(sandbox.recipeRoot, ".locks") }), recipeRoot: sandbox.recipeRoot });
    const discovery = openRegistry({ env: { PI_CODING_AGENT_DIR: sandbox.agentDir }, packagedRoot: null, scan: makeNodeScanPort() }).discover();
    const usage = await loadUsage(ledger, discovery.entries);
    expect(usage.usageFor(discovery.active.get("greet")!)).toMatchObject({ lifetime_calls: 2 });
    await ledger.log.close();
    expect(existsSync(join(sandbox.recipeRoot, ".usage"))).toBe(true);
  });
});
