import { fc, test } from "@fast-check/vitest";
import * as E from "fp-ts/lib/Either.js";
import { describe, expect } from "vitest";
import type { Json, SnapshotFile } from "../core/model.js";
import { type ResolveContext, recipeDependencies, resolveRecipe } from "../core/recipe/imports.js";
import { loadRecipe } from "../core/recipe/load.js";
import { recipeProblem } from "../core/recipe/recipe-error.js";

const AGENT = "/agent";
const ROOT = `${AGENT}/recipes`;
const pathOf = (i: number): string => `${ROOT}/n${i}.json`;

/** One recipe of a random graph: what it imports and, perhaps, the recipe its template delegates to. */
interface NodeSpec {
  readonly imports: readonly { readonly target: number; readonly style: number }[];
  readonly delegate?: { readonly target: number; readonly nested: boolean } | undefined;
  /** 0 valid, 1 missing file, 2 invalid recipe */
  readonly broken: number;
}

// every way a recipe reference can spell the same file
const spell = (i: number, style: number): string =>
  [`n${i}`, `n${i}.json`, pathOf(i), `{agent}/recipes/n${i}.json`, `{repo}/recipes/n${i}.json`][style % 5]!;

function recipeOf(index: number, node: NodeSpec): Json {
  const imports: Record<string, Json> = {};
  node.imports.forEach((edge, k) => {
    imports[`a${k}`] = k % 2 === 0 ? spell(edge.target, edge.style) : { from: spell(edge.target, edge.style), values: { k } };
  });
  const calls: Json[] = node.imports.map((_, k) => ({ name: `a${k}` }));
  let template: Json = [`echo ${index}`, ...calls];
  if (node.delegate !== undefined) {
    const ref = `n${node.delegate.target}`;
    template = node.delegate.nested ? [...(template as Json[]), ref, { label: "L", template: ref }] : ref;
  }
  return node.imports.length === 0 ? { template } : { imports, template };
}

/** Edges of a forward-only graph point to later nodes; dropped where there is none. */
function forwardOnly(nodes: readonly NodeSpec[]): NodeSpec[] {
  const n = nodes.length;
  const forward = (i: number, t: number): number | undefined => (i + 1 < n ? i + 1 + (t % (n - i - 1)) : undefined);
  return nodes.map((node, i) => {
    const imports = node.imports.flatMap((e) => {
      const target = forward(i, e.target);
      return target === undefined ? [] : [{ target, style: e.style }];
    });
    const target = node.delegate === undefined ? undefined : forward(i, node.delegate.target);
    return target === undefined || node.delegate === undefined
      ? { imports, broken: node.broken }
      : { imports, delegate: { target, nested: node.delegate.nested }, broken: node.broken };
  });
}

// about half the graphs are forward-only (acyclic), the others mostly have a reachable cycle
const graph = (allowBroken: boolean) =>
  fc.tuple(fc.integer({ min: 1, max: 7 }), fc.boolean()).chain(([n, acyclic]) =>
    fc.array(
      fc.record({
        imports: fc.array(fc.record({ target: fc.nat(n - 1), style: fc.nat(4) }), { maxLength: 3 }),
        delegate: fc.option(fc.record({ target: fc.nat(n - 1), nested: fc.boolean() }), { nil: undefined }),
        broken: allowBroken ? fc.nat(4) : fc.constant(0),
      }),
      { minLength: n, maxLength: n },
    ).map((nodes): NodeSpec[] => (acyclic ? forwardOnly(nodes) : nodes)),
  );

function contextOf(nodes: readonly NodeSpec[]): ResolveContext {
  const files = new Map<string, SnapshotFile>();
  nodes.forEach((node, i) => {
    if (i > 0 && node.broken === 1) return;
    const text = i > 0 && node.broken === 2 ? `{"description":"no template"}` : JSON.stringify(recipeOf(i, node));
    const bytes = new TextEncoder().encode(text);
    files.set(pathOf(i), { path: pathOf(i), size: bytes.length, mtimeMs: 0, birthtimeMs: 0, bytes });
  });
  return { readFile: (p) => files.get(p), agentDir: AGENT, home: "/home", cwd: "/cwd", userRoot: ROOT };
}

const edgesOf = (node: NodeSpec): number[] => [...node.imports.map((e) => e.target), ...(node.delegate === undefined ? [] : [node.delegate.target])];

/** Whether the graph reachable from node 0 has a cycle (plain three-colour DFS). */
function reachableCycle(nodes: readonly NodeSpec[]): boolean {
  const colour = new Map<number, "grey" | "black">();
  const visit = (i: number): boolean => {
    colour.set(i, "grey");
    for (const j of edgesOf(nodes[i]!)) {
      if (colour.get(j) === "grey") return true;
      if (colour.get(j) === undefined && visit(j)) return true;
    }
    colour.set(i, "black");
    return false;
  };
  return visit(0);
}

function resolveRoot(nodes: readonly NodeSpec[]) {
  const ctx = contextOf(nodes);
  const root = loadRecipe(ctx.readFile(pathOf(0))!, "n0", "json");
  if (E.isLeft(root)) throw new Error(`generator produced an invalid root: ${JSON.stringify(root.left)}`);
  return { ctx, config: root.right, result: resolveRecipe(root.right, pathOf(0), ctx) };
}

const CYCLE = "Cyclic recipe import: ";

describe("resolveRecipe over random import graphs", () => {
  test.prop([graph(false)])("reports a cycle iff the reachable graph has one, and the cycle it names is real", (nodes) => {
    const { result } = resolveRoot(nodes);
    expect(E.isLeft(result)).toBe(reachableCycle(nodes));
    if (E.isRight(result)) return;
    const message = recipeProblem(result.left).message ?? "";
    expect(message.startsWith(CYCLE)).toBe(true);
    const chain = message.slice(CYCLE.length).split(" -> ").map((p) => Number(/n(\d+)\.json$/.exec(p)?.[1]));
    expect(chain[0]).toBe(0);
    expect(chain.slice(0, -1)).toContain(chain[chain.length - 1]);
    expect(new Set(chain.slice(0, -1)).size).toBe(chain.length - 1);
    for (let k = 0; k + 1 < chain.length; k++) expect(edgesOf(nodes[chain[k]!]!)).toContain(chain[k + 1]);
  });

  test.prop([graph(true)])("terminates and never throws with missing and invalid recipes in the graph", (nodes) => {
    const { ctx, config, result } = resolveRoot(nodes);
    if (E.isLeft(result)) {
      const shown = recipeProblem(result.left);
      expect(shown.kind).toBe("failed");
      expect(shown.message).toMatch(/^(Cyclic recipe import|Recipe import not found|Template recipe must define template): /);
    }
    for (const p of recipeDependencies(config, pathOf(0), ctx)) expect(p).toMatch(/^\/agent\/recipes\/n\d+\.json$/);
  });
});
