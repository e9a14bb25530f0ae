// The shapes shared by register_tool's planning modules.
import type { CommandResult } from "../result.js";
import type { ResolveContext } from "../recipe/imports.js";
import { join } from "../recipe/posix.js";
import type { SandboxMode } from "../sandbox/policy.js";

/** What register_tool needs to know about the files. `userRoot` is the recipe root (ROOT);
 * `readFile` shows the files as they are under the locks (undefined: no such file). */
export interface RegisterFacts extends ResolveContext {
  readonly draftRoot: string;
  /** `PI_RECIPES_SANDBOX` of the host: `on` refuses to write a tool that runs unconfined */
  readonly sandboxMode?: SandboxMode;
}

export type RegisterPlan =
  | { readonly kind: "list" }
  /** nothing to change: answer with this */
  | { readonly kind: "answer"; readonly result: CommandResult }
  | {
      readonly kind: "write";
      readonly name: string;
      readonly path: string;
      readonly content: string;
      readonly text: string;
      readonly details: Readonly<Record<string, unknown>>;
    }
  /** remove these files in this order: a shadowed `.md` before the `.json` that shadows it, so
   * that a crash in between leaves the old tool as it was */
  | {
      readonly kind: "delete";
      readonly name: string;
      readonly paths: readonly string[];
      readonly text: string;
      readonly details: Readonly<Record<string, unknown>>;
    };

export const answer = (result: CommandResult): { readonly kind: "answer"; readonly result: CommandResult } => ({ kind: "answer", result });

export const recipePath = (root: string, name: string, ext: "json" | "md" = "json"): string => join(root, `${name}.${ext}`);
