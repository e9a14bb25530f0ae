import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import type { Discovery } from "../../core/discovery/discovery-result.js";
import type { ToolSpec } from "../../core/tool/tool-spec.js";
import { parametersSchema } from "../../core/args/parameters-schema.js";
import { changedText, makeCallGate, removedText, type GateRegistry } from "../../host-mcp/gate.js";

// A registry whose tool set the test swaps: each swap is a generation, and `fence` rejects a tool
// added or changed after the generation the caller saw (as the live registry does).
function fakeRegistry(initial: Record<string, string>) {
  let generation = 0;
  const since = new Map<string, number>();
  let tools = new Map<string, string>();
  const set = (next: Record<string, string>): void => {
    for (const [name, template] of Object.entries(next)) if (tools.get(name) !== template) since.set(name, generation);
    for (const name of tools.keys()) if (!(name in next)) since.delete(name);
    tools = new Map(Object.entries(next));
  };
  set(initial);
  const surface = { names: [], required: [], types: {}, defaults: {} };
  const spec = (name: string): ToolSpec =>
    ({ name, description: `${name} tool`, path: `/r/${name}.json`, surface, schema: parametersSchema(surface, { async: false }), config: { template: tools.get(name) } }) as unknown as ToolSpec;
  const discovery = (): Discovery =>
    ({ tools: [...tools.keys()].sort().map(spec), active: new Map(), entries: [], diagnostics: [], drafts: [], unlisted: [] }) as unknown as Discovery;
  const registry: GateRegistry = {
    recheck: () => undefined,
    current: () => ({ discovery: discovery(), generation }),
    fence: (name, seen) => {
      const at = since.get(name);
      return at === undefined || !tools.has(name) || at > seen ? E.left("stale") : E.right(spec(name));
    },
  };
  return {
    registry,
    change(next: Record<string, string>) {
      generation++;
      set(next);
    },
  };
}

describe("the call gate", () => {
  it("runs a tool the client was shown, unchanged", () => {
    const r = fakeRegistry({ a: "echo a" });
    const gate = makeCallGate(r.registry);
    expect(gate.check("a")).toMatchObject({ kind: "run", tool: { name: "a" } });
  });

  it("rejects a deleted tool with the list-again error, every time", () => {
    const r = fakeRegistry({ a: "echo a", b: "echo b" });
    const gate = makeCallGate(r.registry);
    r.change({ b: "echo b" });
    expect(gate.check("a")).toEqual({ kind: "missing", text: removedText("a") });
    expect(gate.check("a")).toEqual({ kind: "missing", text: removedText("a") });
    expect(removedText("a")).toBe('Tool "a" is no longer registered (its recipe was deleted or renamed). List tools again.');
  });

  it("answers an unknown name with the registry's own reason", () => {
    const r = fakeRegistry({ a: "echo a" });
    const gate = makeCallGate(r.registry);
    const verdict = gate.check("nope");
    expect(verdict.kind).toBe("missing");
    expect(verdict.kind === "missing" && verdict.text).toBe("Unknown tool: nope. Registered tools: a");
    // a near miss is named
    const near = makeCallGate(fakeRegistry({ alpha: "echo a", beta: "echo b" }).registry).check("alpah");
    expect(near.kind === "missing" && near.text).toBe('Unknown tool: alpah. Registered tools: alpha, beta. Did you mean "alpha"?');
  });

  it("in a registry of many tools, counts them and names the nearest instead of listing all", () => {
    const many = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`tool_${i}`, `echo ${i}`]));
    const gate = makeCallGate(fakeRegistry({ ...many, word_count: "wc -w" }).registry);
    const typo = gate.check("word_cont");
    expect(typo.kind === "missing" && typo.text).toBe('Unknown tool: word_cont. 501 tools are registered (list shows them all). Did you mean "word_count"?');
    const far = gate.check("nothing_like_it");
    expect(far.kind === "missing" && far.text).toBe("Unknown tool: nothing_like_it. 501 tools are registered (list shows them all).");
  });

  it("rejects a changed tool once, with its new definition, then runs it", () => {
    const r = fakeRegistry({ a: "echo a" });
    const gate = makeCallGate(r.registry);
    r.change({ a: "rm -rf {dir}" });
    const first = gate.check("a");
    if (first.kind !== "changed") throw new Error(`expected a rejection, got ${first.kind}`);
    expect(first.text).toBe(changedText(first.tool));
    expect(first.text).toContain('Tool "a" changed since your last tools/list');
    expect(first.text).toContain('input schema: {"additionalProperties":false,"properties":{},"required":[],"type":"object"}');
    // the whole rejection, line by line, as the client shows it to the model
    expect(first.text.split("\n")).toEqual([
      'Tool "a" changed since your last tools/list (its recipe /r/a.json, or a file it imports or delegates to, was edited), so the call was not run.',
      "Check the new definition below (or list tools again) and retry.",
      "description: a tool",
      'input schema: {"additionalProperties":false,"properties":{},"required":[],"type":"object"}',
    ]);
    // until the rejection is answered, no call can have been made from it
    expect(gate.check("a").kind).toBe("changed");
    gate.answered(["a"]);
    expect(gate.check("a").kind).toBe("run");
    // a further change is rejected again
    r.change({ a: "echo again" });
    expect(gate.check("a").kind).toBe("changed");
  });

  it("a rejection the client cancelled showed nothing: the next call is rejected again", () => {
    const r = fakeRegistry({ a: "echo a" });
    const gate = makeCallGate(r.registry);
    r.change({ a: "echo b" });
    expect(gate.check("a", gate.arrived()).kind).toBe("changed");
    gate.withdrawn(["a"]);
    expect(gate.check("a", gate.arrived()).kind).toBe("changed");
    gate.answered(["a"]);
    expect(gate.check("a", gate.arrived()).kind).toBe("run");
    // two calls refused together, the first cancelled and the second answered: the second showed
    // the new definition, and the retry runs
    r.change({ a: "echo c" });
    const [first, second] = [gate.arrived(), gate.arrived()];
    expect(gate.check("a", first).kind).toBe("changed");
    expect(gate.check("a", second).kind).toBe("changed");
    gate.withdrawn(["a"], first);
    gate.answered(["a"], second);
    expect(gate.check("a", gate.arrived()).kind).toBe("run");
    // the other way round: the answered one came first, the cancelled one takes nothing back
    r.change({ a: "echo d" });
    const [third, fourth] = [gate.arrived(), gate.arrived()];
    expect(gate.check("a", third).kind).toBe("changed");
    expect(gate.check("a", fourth).kind).toBe("changed");
    gate.answered(["a"], third);
    gate.withdrawn(["a"], fourth);
    expect(gate.check("a", gate.arrived()).kind).toBe("run");
  });

  it("a tools/list the client cancelled is not its list; an answered one before it still becomes it", () => {
    const r = fakeRegistry({ a: "echo a" });
    const gate = makeCallGate(r.registry);
    r.change({ a: "echo b" });
    let { discovery, generation } = r.registry.current();
    gate.shown(discovery, generation);
    gate.listWithdrawn();
    expect(gate.check("a", gate.arrived()).kind).toBe("changed");
    // a list answered, then another list cancelled before any call came: the answered one holds
    r.change({ a: "echo c" });
    ({ discovery, generation } = r.registry.current());
    gate.shown(discovery, generation);
    gate.listAnswered();
    gate.shown(discovery, generation);
    gate.listWithdrawn();
    expect(gate.check("a", gate.arrived()).kind).toBe("run");
  });

  it("a rejection shows the new definition only to calls that arrive after it was answered", () => {
    const r = fakeRegistry({ a: "echo a" });
    const gate = makeCallGate(r.registry);
    r.change({ a: "echo other" });
    // four calls sent at once, made from the old definition
    const arrivals = [gate.arrived(), gate.arrived(), gate.arrived(), gate.arrived()];
    expect(gate.check("a", arrivals[0]).kind).toBe("changed");
    gate.answered(["a"]);
    for (const arrival of arrivals.slice(1)) {
      expect(gate.check("a", arrival).kind).toBe("changed");
      gate.answered(["a"]);
    }
    // the retry, sent after reading a rejection
    expect(gate.check("a", gate.arrived()).kind).toBe("run");
  });

  it("a list is the client's only for calls that arrive after it was answered", () => {
    const r = fakeRegistry({ a: "echo a" });
    const gate = makeCallGate(r.registry);
    r.change({ a: "echo b" });
    const withTheList = gate.arrived();
    const { discovery, generation } = r.registry.current();
    gate.shown(discovery, generation);
    // a call read with the list request: made from the list before it
    expect(gate.check("a", withTheList).kind).toBe("changed");
    expect(gate.check("a", gate.arrived()).kind).toBe("changed");
    gate.answered(["a"]);
    gate.listAnswered();
    expect(gate.check("a", gate.arrived()).kind).toBe("run");
  });

  it("runs a changed tool once the client has listed again", () => {
    const r = fakeRegistry({ a: "echo a" });
    const gate = makeCallGate(r.registry);
    r.change({ a: "echo b" });
    const { discovery, generation } = r.registry.current();
    gate.shown(discovery, generation);
    gate.listAnswered();
    expect(gate.check("a").kind).toBe("run");
  });

  it("a re-list supersedes a rejection: a tool changed again before the list runs", () => {
    const r = fakeRegistry({ a: "echo a" });
    const gate = makeCallGate(r.registry);
    r.change({ a: "echo b" });
    expect(gate.check("a").kind).toBe("changed");
    r.change({ a: "echo c" });
    const { discovery, generation } = r.registry.current();
    gate.shown(discovery, generation);
    gate.listAnswered();
    expect(gate.check("a")).toMatchObject({ kind: "run", tool: { name: "a", config: { template: "echo c" } } });
  });

  it("a re-list that no longer has an acknowledged tool forgets it: re-created later, it runs", () => {
    const r = fakeRegistry({ a: "echo a", b: "echo b" });
    const gate = makeCallGate(r.registry);
    r.change({ a: "echo changed", b: "echo b" });
    expect(gate.check("a").kind).toBe("changed");
    r.change({ b: "echo b" });
    const { discovery, generation } = r.registry.current();
    gate.shown(discovery, generation);
    gate.listAnswered();
    expect(gate.check("a")).toEqual({ kind: "missing", text: "Unknown tool: a. Registered tools: b" });
    r.change({ a: "echo new", b: "echo b" });
    expect(gate.check("a").kind).toBe("run");
  });

  it("runs a tool added after the client's last list: it cannot be stale", () => {
    const r = fakeRegistry({ a: "echo a" });
    const gate = makeCallGate(r.registry);
    r.change({ a: "echo a", fresh: "echo new" });
    expect(gate.check("fresh").kind).toBe("run");
  });

  it("rejects a tool deleted and re-created with other content since the client's list", () => {
    const r = fakeRegistry({ a: "echo a" });
    const gate = makeCallGate(r.registry);
    r.change({});
    r.change({ a: "echo other" });
    expect(gate.check("a").kind).toBe("changed");
  });
});

describe("a tool the watcher read while its recipe was being written", () => {
  it("is read again before the call is refused: the finished file's tool runs, a file that is still broken is refused", () => {
    const surface = { names: [], required: [], types: {}, defaults: {} };
    const spec = { name: "alpha", description: "alpha tool", path: "/r/alpha.json", surface, schema: parametersSchema(surface, { async: false }), config: { template: "echo a" } } as unknown as ToolSpec;
    const whole = { tools: [spec], active: new Map([["alpha", { id: "alpha", path: "/r/alpha.json" }]]), entries: [], diagnostics: [], drafts: [], unlisted: [] } as unknown as Discovery;
    // what the watcher saw in the middle of an in-place save: the file empty, so no tool
    const torn = { ...whole, tools: [], active: new Map([["alpha", { id: "alpha", path: "/r/alpha.json", problem: { kind: "invalid", message: "Unexpected end of JSON input" } }]]) } as unknown as Discovery;
    let current = whole;
    let onDisk = whole;
    const reread: (readonly string[])[] = [];
    const registry: GateRegistry = {
      recheck: () => undefined,
      current: () => ({ discovery: current, generation: 0 }),
      fence: () => E.right(spec),
      refresh: (paths) => {
        reread.push(paths);
        current = onDisk;
      },
    };
    const gate = makeCallGate(registry);
    current = torn;
    expect(gate.check("alpha")).toMatchObject({ kind: "run", tool: { name: "alpha" } });
    expect(reread).toEqual([["/r/alpha.json"]]);
    // still broken when read again: refused with the loader's reason
    current = torn;
    onDisk = torn;
    expect(gate.check("alpha")).toMatchObject({ kind: "missing" });
    expect(reread).toHaveLength(2);
  });
});
