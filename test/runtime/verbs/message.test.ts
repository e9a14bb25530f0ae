import { describe, expect, it } from "vitest";
import { success, failure } from "../../../core/result.js";
import { bodyToParams, brokenJsonBody, message, type MessageContext } from "../../../runtime/verbs/message.js";
import { inspect } from "../../../runtime/verbs/inspect.js";
import { makeMemFileSystem } from "../../../adapters/fs/memfs.js";
import { buildDiscovery } from "../../support/views-discovery.js";

const discovery = buildDiscovery([
  { path: "/r/echo.json", config: { description: "Echo", template: "echo {text}" } },
  { path: "/r/broken.json" },
]);
const withMailbox = buildDiscovery([
  { path: "/r/echo.json", config: { description: "Echo", template: "echo {text}" } },
  { path: "/r/greet.json", config: { description: "Greet", template: "echo hi {who}", mailbox: { accepts: ["greet.now", { type: "greet.later" }] } } },
]);

function ctx(extra: Partial<MessageContext> = {}): MessageContext & { calls: unknown[] } {
  const calls: unknown[] = [];
  return {
    calls,
    discovery: () => discovery,
    invokeTool: async (name, params) => {
      calls.push([name, params]);
      return params["fail"] === true ? failure("\nboom") : success(`\nran ${name}`, { ok: 1 });
    },
    env: {},
    fs: makeMemFileSystem(),
    runsRoot: "/agent/tmp/pi-recipes/runs",
    ...extra,
  };
}

describe("message to=tool:<name>", () => {
  it("invokes the current tool with the body as its arguments", async () => {
    const c = ctx();
    const r = await message({ to: "tool:echo", type: "call", body: { text: "hi" } }, c);
    expect(c.calls).toEqual([["echo", { text: "hi" }]]);
    expect(r.ok).toBe(true);
    expect(r.text).toBe("to=tool:echo type=call message=sent delivered=true persisted=false consumer=tool reason=tool_invoked tool=echo invoked=true\nran echo");
  });

  it("takes the call types and those the recipe's mailbox.accepts lists; any other type runs nothing", async () => {
    const c = ctx({ discovery: () => withMailbox });
    for (const type of ["call", "invoke", "run", "Call", "RUN"]) expect((await message({ to: "tool:echo", type, body: { text: "hi" } }, c)).ok).toBe(true);
    for (const type of ["greet.now", "greet.later", " run "]) expect((await message({ to: "tool:greet", type, body: { who: "x" } }, c)).ok).toBe(true);
    expect(c.calls).toHaveLength(8);
    for (const type of ["control.kill", "review.retry", "bogus", "greet.now", "Control.Kill"]) {
      const r = await message({ to: "tool:echo", type, body: { text: "hi" } }, c);
      expect(r).toMatchObject({ ok: false, details: { type, tool: "echo", accepts: ["call", "invoke", "run"] } });
      expect(r.text).toBe(
        `tool actor echo does not accept message type ${JSON.stringify(type)}; it accepts call, invoke, run (the call types, and what its recipe lists in mailbox.accepts). Nothing was run.`,
      );
    }
    const kill = await message({ to: "tool:greet", type: "control.kill" }, c);
    expect(kill.text).toContain("it accepts call, invoke, run, greet.now, greet.later (");
    // a declared type is taken as its recipe wrote it
    expect((await message({ to: "tool:greet", type: "GREET.NOW" }, c)).ok).toBe(false);
    expect(c.calls).toHaveLength(8);
  });

  it("reads a JSON object body given as text, and passes other text as input", () => {
    expect(bodyToParams('{"text":"x"}')).toEqual({ text: "x" });
    expect(bodyToParams("plain")).toEqual({ input: "plain" });
    expect(bodyToParams("{oops")).toEqual({ input: "{oops" });
    // a text that opens like a JSON object and does not parse is no plain input: it is refused
    expect(brokenJsonBody('{"input":"x", "n":2')).toMatch(/JSON/);
    expect(brokenJsonBody(' { "a": 1 } ')).toBeUndefined();
    expect(brokenJsonBody("{oops")).toBeUndefined();
    expect(brokenJsonBody({ a: 1 })).toBeUndefined();
    expect(bodyToParams(undefined)).toEqual({});
  });

  it("refuses a body that opens like a JSON object and does not parse, running nothing", async () => {
    const c = ctx();
    const r = await message({ to: "tool:echo", type: "call", body: '{"input":"x", "n":2' }, c);
    expect(r.ok).toBe(false);
    expect(r.text).toMatch(/^body is not valid JSON: .+; nothing ran\.$/);
    expect(c.calls).toHaveLength(0);
  });

  it("refuses a tool the registry does not have, saying why", async () => {
    const c = ctx();
    const gone = await message({ to: "tool:gone", type: "x" }, c);
    expect(gone).toMatchObject({ ok: false });
    expect(gone.text).toBe("tool actor not found or not executable: gone. Unknown tool: gone. Registered tools: echo");
    const broken = await message({ to: "tool:broken", type: "x" }, c);
    expect(broken.text).toContain("Recipe broken is invalid: /r/broken.json");
    expect(broken.text.split("/r/broken.json").length).toBe(2);
    const builtin = await message({ to: "tool:register_tool", type: "x" }, c);
    expect(builtin.text).toBe("tool actor not found or not executable: register_tool. register_tool is one of the host's own tools, not a recipe tool: call it directly.");
    expect(c.calls).toEqual([]);
  });

  it("reports a failing tool with the message type and the params", async () => {
    const r = await message({ to: "tool:echo", type: "invoke", body: { fail: true } }, ctx());
    expect(r).toMatchObject({ ok: false, text: 'tool actor echo failed for message type invoke: boom; params={"fail":true}' });
  });

  it("checks its own parameters", async () => {
    expect((await message({ type: "x" }, ctx())).text).toBe("message requires to=<actor address>, e.g. to=tool:<name>");
    expect((await message({ to: "tool:echo" }, ctx())).text).toBe("message requires type=<message type>");
    expect((await message({ to: "session:abc", type: "x" }, ctx())).text).toBe(
      "message supports tool:<name> and run:<id> destinations; unsupported destination: session:abc",
    );
    expect((await message({ to: "tool:echo", type: "x", extra: 1 }, ctx())).ok).toBe(false);
  });
});

describe("message to=tool:pi-actors", () => {
  it("accepts only the review controls, with a scope", async () => {
    expect((await message({ to: "tool:pi-actors", type: "ping" }, ctx())).text).toBe(
      "tool:pi-actors accepts review.retry or review.reset messages.",
    );
    expect((await message({ to: "tool:pi-actors", type: "review.reset", body: { scope: "all" } }, ctx())).text).toBe(
      "review control requires body.scope=draft or body.scope=tool.",
    );
  });

  it("a draft retry is refused while the policy is off; reset is not; a control that changed nothing is no success", async () => {
    const off = ctx({ env: { PI_ACTORS_AUTOMATIC_REVIEW: "off" } });
    expect((await message({ to: "tool:pi-actors", type: "review.retry", body: { scope: "draft" } }, off)).text).toBe(
      "Automatic recipe review is disabled by PI_ACTORS_AUTOMATIC_REVIEW.",
    );
    // the scope is checked first: a wrong one is named as such, whatever the policy
    expect((await message({ to: "tool:pi-actors", type: "review.retry", body: { scope: "nope" } }, off)).text).toBe(
      "review control requires body.scope=draft or body.scope=tool.",
    );
    const reset = await message({ to: "tool:pi-actors", type: "review.reset", body: '{"scope":"tool"}' }, off);
    expect(reset.ok).toBe(false);
    expect(reset.text).toBe(
      "to=tool:pi-actors type=review.reset message=not_sent reason=review_state_unavailable phase=idle next=inspect_target=recipes_view=reviews",
    );
  });

  it("with the policy off, a tool retry is asked of the state with no reviewer, and refused when it would need one", async () => {
    const asked: unknown[] = [];
    const control = (answer: Record<string, unknown>) =>
      ctx({
        env: { PI_ACTORS_AUTOMATIC_REVIEW: "0" },
        reviewControl: async (action, scope, options) => (asked.push(options), { action, scope, ...answer }) as never,
      });
    const approved = await message({ to: "tool:pi-actors", type: "review.retry", body: { scope: "tool" } }, control({ changed: true, phase: "approved", previous_phase: "processing_failed" }));
    expect(approved.ok).toBe(true);
    expect(approved.text).toContain("message=sent");
    const needs = await message({ to: "tool:pi-actors", type: "review.retry", body: { scope: "tool" } }, control({ changed: false, phase: "failed", reason: "review_disabled" }));
    expect(needs.ok).toBe(false);
    expect(needs.text).toMatch(/^Automatic recipe review is disabled by PI_ACTORS_AUTOMATIC_REVIEW\. This tool review \(failed\) has no approved plan/);
    expect(asked).toStrictEqual([{ reviewer: false }, { reviewer: false }]);
  });

  it("a delivered control is decorated; one with a reason is not", async () => {
    const c = ctx({ reviewControl: async (action, scope) => ({ action, scope, changed: true, phase: "captured", previous_phase: "failed" }) });
    const r = await message({ to: "tool:pi-actors", type: "review.retry", body: { scope: "draft" } }, c);
    expect(r.text).toBe(
      "to=tool:pi-actors type=review.retry message=sent delivered=true persisted=false consumer=tool reason=tool_invoked phase=captured next=inspect_target=recipes_view=reviews",
    );
    expect(r.details["result"]).toMatchObject({ sent: true, next_actions: ["inspect target=recipes view=reviews"] });
  });
});

describe("inspect target=tool:pi-actors", () => {
  // an empty run store (memfs): no active runs
  const runtime = { env: { PI_ACTORS_AUTOMATIC_REVIEW: "0" }, entrypoint: "/x/dist/host-cli/main.js", gitCommit: null, packagedRoot: null, fs: makeMemFileSystem() };

  it("status by default, triage on request, anything else is an error", async () => {
    const status = await inspect(discovery, { target: "tool:pi-actors" }, runtime);
    expect(status.text).toMatch(/^pi-recipes version=\S+ mode=dist automatic_review=false reviewer=\S+ path=\S+ entrypoint=\/x\/dist\/host-cli\/main.js recipes=\S+ sandbox_all=off sandbox=(bubblewrap \d\S*|none \(.+\))$/);
    expect(status.details).toMatchObject({ automatic_recipe_review: false, mode: "dist", entrypoint: "/x/dist/host-cli/main.js" });
    const triage = await inspect(discovery, { target: "tool:pi-actors", view: "triage" }, runtime);
    expect(triage.text).toMatch(/^triage version=\S+ mode=dist active_runs=0 other_runs=0 invalid_recipes=1 /);
    expect(await inspect(discovery, { target: "tool:pi-actors", view: "doctor" }, runtime)).toMatchObject({
      ok: false,
      text: "inspect tool:pi-actors supports view=status or view=triage.",
    });
    expect(JSON.parse((await inspect(discovery, { target: "tool:pi-actors", verbose: true }, runtime)).text)).toMatchObject({ mode: "dist" });
  });
});
