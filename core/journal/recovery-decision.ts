// The pure half of recovery: from a verified journal and what its paths hold now, what to do.
// Each changed path has one step, so its state alone says whether that step has run (see
// plan.ts). Forward brings every path to its after state, back to its before state; a path
// holding anything else was changed by someone else, and the journal is reported, not forced.
import { type ContentHash, type PathState, type Plan, type Step } from "./plan.js";

/** Which way a journal is going. A plan starts `forward`; it turns `back` only when an
 *  in-process failure hit a reversible plan. It never turns again. */
export type Direction = "forward" | "back";

/** A journal as read from disk, its hash already checked. */
export interface Journal {
  readonly plan: Plan;
  readonly direction: Direction;
}

/** One file operation to run; each one is idempotent given the decision that produced it. */
export type Action =
  /** put the blob `content` at `path`, replacing whatever is there (atomically) */
  | { readonly op: "write"; readonly path: string; readonly content: ContentHash }
  | { readonly op: "unlink"; readonly path: string }
  | { readonly op: "rename"; readonly from: string; readonly to: string }
  | { readonly op: "link"; readonly from: string; readonly to: string }
  | { readonly op: "mkdir"; readonly path: string }
  | { readonly op: "rmdir"; readonly path: string };

export type Decision =
  /** every path is at the journal's goal: the journal can go */
  | { readonly kind: "done" }
  /** run these phases (each durable before the next), then decide again */
  | { readonly kind: "forward" | "back"; readonly phases: readonly (readonly Action[])[] }
  /** the journal cannot be finished or undone safely: keep it aside and report why */
  | { readonly kind: "corrupt"; readonly reason: string };

/** What each path of the plan holds now (see `pathsOf`); a missing key counts as absent.
 *  "other": a symlink or special file, which no plan creates. */
export type Observed = ReadonlyMap<string, PathState | "other">;

/** before and after state of every path a step changes */
function transitions(step: Step): ReadonlyArray<readonly [string, PathState, PathState]> {
  switch (step.op) {
    case "write":
      return [[step.path, step.before, step.after]];
    case "unlink":
      return [[step.path, step.before, null]];
    case "rename":
      return [[step.from, step.before, null], [step.to, step.replaced, step.before]];
    case "link":
      return [[step.to, null, step.before]];
    case "mkdir":
      return [[step.path, null, "dir"]];
  }
}

/** why a journal can neither finish nor be undone */
class Stuck {
  constructor(readonly reason: string) {}
}

type Planned = Action[] | Stuck;

const show = (s: PathState | "other"): string => (s === null ? "absent" : s === "dir" ? "a folder" : s === "other" ? "not a regular file" : `content ${s.slice(0, 12)}`);

function forward(step: Step, at: (path: string) => PathState | "other"): Planned {
  switch (step.op) {
    case "write":
      return at(step.path) === step.after ? [] : [{ op: "write", path: step.path, content: step.after }];
    case "unlink":
      return at(step.path) === null ? [] : [{ op: "unlink", path: step.path }];
    case "mkdir":
      return at(step.path) === "dir" ? [] : [{ op: "mkdir", path: step.path }];
    case "rename":
      // the source still there means the rename has not run (or, on a disk that persisted only
      // the new name, has half run): running it again gives the after state either way
      if (at(step.from) === step.before) return [{ op: "rename", from: step.from, to: step.to }];
      if (at(step.to) === step.before) return [];
      return new Stuck(`${step.from} and ${step.to} both lost the content being renamed`);
    case "link":
      if (at(step.to) === step.before) return [];
      if (at(step.from) !== step.before) return new Stuck(`${step.from} no longer holds the content to link (${show(at(step.from))})`);
      return [{ op: "link", from: step.from, to: step.to }];
  }
}

/** undoing a step: the first list runs before the second (a rename back, then what it replaced) */
function backward(step: Step, at: (path: string) => PathState | "other", plan: Plan): [Planned, Planned] {
  const restore = (path: string, to: ContentHash | null): Planned => {
    if (at(path) === to) return [];
    if (to === null) return [{ op: "unlink", path }];
    if (plan.blobs[to] === undefined) return new Stuck(`${path} cannot be put back: the plan does not hold its former content`);
    return [{ op: "write", path, content: to }];
  };
  switch (step.op) {
    case "write":
    case "unlink":
      return [restore(step.path, step.before), []];
    case "mkdir":
      return [at(step.path) === "dir" ? [{ op: "rmdir", path: step.path }] : [], []];
    case "link":
      return [restore(step.to, null), []];
    case "rename":
      if (at(step.from) === step.before) return [restore(step.to, step.replaced), []];
      if (at(step.to) === step.before) return [[{ op: "rename", from: step.to, to: step.from }], step.replaced === null ? [] : restore(step.to, step.replaced)];
      if (plan.blobs[step.before] === undefined) return [new Stuck(`${step.from} and ${step.to} both lost the content being renamed`), []];
      return [[{ op: "write", path: step.from, content: step.before }], restore(step.to, step.replaced)];
  }
}

/** the actions of several steps, or the first reason one of them is stuck */
function gather(planned: readonly Planned[]): Planned {
  const out: Action[] = [];
  for (const p of planned) {
    if (p instanceof Stuck) return p;
    out.push(...p);
  }
  return out;
}

export function decide(journal: Journal, observed: Observed): Decision {
  const { plan, direction } = journal;
  const at = (path: string): PathState | "other" => observed.get(path) ?? null;
  for (const step of plan.phases.flat()) {
    for (const [path, before, after] of transitions(step)) {
      const now = at(path);
      // undoing a rename that replaced a file moves the file back first, then restores what it
      // replaced: in between, the target is absent (this holds for the target only: for the
      // source, `now` is `at(step.from)`, which cannot be both absent and `step.before`)
      const midUndo = direction === "back" && step.op === "rename" && now === null && at(step.from) === step.before;
      if (now !== before && now !== after && !midUndo) {
        return { kind: "corrupt", reason: `${path} was changed outside the journal: it is ${show(now)}, neither its before (${show(before)}) nor its after (${show(after)}) state` };
      }
    }
  }
  const phases: Planned[] =
    direction === "forward"
      ? plan.phases.map((phase) => gather(phase.map((s) => forward(s, at))))
      : [...plan.phases].reverse().flatMap((phase) => {
          const undo = phase.map((s) => backward(s, at, plan));
          return [gather(undo.map(([first]) => first)), gather(undo.map(([, second]) => second))];
        });
  const todo: Action[][] = [];
  for (const p of phases) {
    if (p instanceof Stuck) return { kind: "corrupt", reason: p.reason };
    if (p.length > 0) todo.push(p);
  }
  return todo.length === 0 ? { kind: "done" } : { kind: direction, phases: todo };
}
