// The pure half of recovery: from a verified journal and what its paths hold now, what to do.
import type { ContentHash, PathState, Plan } from "./plan.js";

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

/** What each path of the plan holds now (see `pathsOf`); a missing key counts as absent. */
export type Observed = ReadonlyMap<string, PathState | "other">;

export function decide(journal: Journal, observed: Observed): Decision {
  void journal;
  void observed;
  throw new Error("not implemented");
}
