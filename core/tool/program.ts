// The program of a tool: its command template as a typed tree, made once per tool revision, which
// execution walks on every call without reading the template's JSON again. A leaf is already split
// into words of literal and placeholder parts; an object node has its controls as fields and its
// `recover` already as the node it runs. docs/templates.md describes what each control means.
import type { Json, JsonObject } from "../json.js";
import { compileLeaf, type CompiledLeaf } from "../template/compile.js";
import { isObject } from "../template/graph.js";
import { repeatDefaults } from "../template/repeat.js";
import { FIELD } from "../recipe/fields.js";

/** One command: a string of the template. */
export interface LeafNode {
  readonly kind: "leaf";
  readonly leaf: CompiledLeaf;
}

/** Steps run one after the other: an array of the template. */
export interface SequenceNode {
  readonly kind: "sequence";
  readonly steps: readonly ProgramNode[];
}

/** An object of the template: its controls, and the node it runs (`body`). A control is kept as
 * written (it may hold placeholders) and resolved against the call's values when the node runs. */
export interface ObjectNode {
  readonly kind: "object";
  /** the label, or the command when the body is a leaf: names the node in errors */
  readonly step: string | undefined;
  readonly label: string | undefined;
  readonly output: string | undefined;
  /** every label inside its body (recover subtrees of the nodes there included), for `output` */
  readonly labels: ReadonlySet<string>;
  /** `args` declarations replacing the parent's, when a list of strings */
  readonly args: readonly string[] | undefined;
  /** `defaults` merged over the parent's, when an object */
  readonly defaults: JsonObject | undefined;
  readonly parallel: boolean;
  readonly delay: Json | undefined;
  readonly when: Json | undefined;
  readonly failure: Json | undefined;
  readonly repeat: Json | undefined;
  readonly retry: Json | undefined;
  readonly timeout: Json | undefined;
  readonly accept_output: Json | undefined;
  readonly concurrency: Json | undefined;
  readonly min_successful: Json | undefined;
  /** what runs between failed attempts of a group retry: stops the run unless it says otherwise */
  readonly recover: ProgramNode | undefined;
  readonly body: ProgramNode;
}

/** A template value that is no command (a number, a blank structure): running it is an error. */
export interface EmptyNode {
  readonly kind: "empty";
}

export type ProgramNode = LeafNode | SequenceNode | ObjectNode | EmptyNode;

const EMPTY: EmptyNode = Object.freeze({ kind: "empty" });

// runs for every object node of a template: a loop, not a closure per check
function stringList(v: Json | undefined): readonly string[] | undefined {
  if (!Array.isArray(v)) return undefined;
  for (const x of v) if (typeof x !== "string") return undefined;
  return v as readonly string[];
}

const text = (v: Json | undefined): string | undefined => (typeof v === "string" ? v : undefined);

function labelsOf(node: ProgramNode | undefined, out: Set<string>): Set<string> {
  if (node === undefined) return out;
  if (node.kind === "sequence") for (const step of node.steps) labelsOf(step, out);
  else if (node.kind === "object") {
    if (node.label !== undefined) out.add(node.label);
    for (const label of node.labels) out.add(label);
    labelsOf(node.recover, out);
  }
  return out;
}

/** `recover` as a node: it stops the run unless it says otherwise. */
function recoverNode(recover: Json): JsonObject {
  if (isObject(recover)) return recover[FIELD.failure] === undefined ? { ...recover, failure: "root" } : recover;
  return { failure: "root", template: recover };
}

function objectNode(node: JsonObject): ObjectNode {
  const template = node["template"];
  const body = template === undefined ? EMPTY : programOf(template);
  const recoverField = node[FIELD.recover];
  const recover = recoverField === undefined ? undefined : programOf(recoverNode(recoverField));
  const label = text(node["label"]);
  const labels = labelsOf(body, new Set());
  return {
    kind: "object",
    step: label ?? text(template),
    label,
    output: text(node["output"]),
    labels,
    args: stringList(node["args"]),
    defaults: isObject(node["defaults"]) ? node["defaults"] : undefined,
    parallel: node[FIELD.parallel] === true,
    delay: node[FIELD.delay],
    when: node[FIELD.when],
    failure: node[FIELD.failure],
    repeat: node[FIELD.repeat],
    retry: node[FIELD.retry],
    timeout: node[FIELD.timeout],
    accept_output: node[FIELD.accept_output],
    concurrency: node[FIELD.concurrency],
    min_successful: node[FIELD.min_successful],
    recover,
    body,
  };
}

/** The program of a command template (a tool's `config.template`, or an inline one). */
export function programOf(template: Json): ProgramNode {
  if (typeof template === "string") return { kind: "leaf", leaf: compileLeaf(template) };
  if (Array.isArray(template)) return { kind: "sequence", steps: template.map(programOf) };
  return isObject(template) ? objectNode(template) : EMPTY;
}

/** The node a repeat of `count` copies stands for: its copies (each without `repeat`, its
 * defaults extended with `index`, `prev`, `next`, `repeat` and their padded forms) in sequence,
 * or in parallel when the node is parallel, carrying `concurrency`, `min_successful` and
 * `failure`. */
export function repeatProgram(node: ObjectNode, count: number): ObjectNode {
  const copies: ProgramNode[] = [];
  for (let i = 0; i < count; i++) copies.push({ ...node, repeat: undefined, defaults: { ...node.defaults, ...repeatDefaults(i, count) } });
  const steps: SequenceNode = { kind: "sequence", steps: copies };
  return {
    kind: "object",
    step: undefined,
    label: undefined,
    output: undefined,
    labels: labelsOf(steps, new Set()),
    args: undefined,
    defaults: undefined,
    parallel: node.parallel,
    delay: undefined,
    when: undefined,
    failure: node.parallel ? node.failure : undefined,
    repeat: undefined,
    retry: undefined,
    timeout: undefined,
    accept_output: undefined,
    concurrency: node.parallel ? node.concurrency : undefined,
    min_successful: node.parallel ? node.min_successful : undefined,
    recover: undefined,
    body: steps,
  };
}

/** One attempt of a group retry: the node without the controls that belong to the loop. */
export const attemptOf = (node: ObjectNode): ObjectNode => ({ ...node, delay: undefined, recover: undefined, retry: undefined });
