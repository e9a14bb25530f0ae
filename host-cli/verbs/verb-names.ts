// The verbs of the `pi-recipes` command by name, in the order the general help lists them: what
// help and the front door (host-cli/front-door.ts) know of the verbs without loading any of them
// (host-cli/verbs/index.ts loads a verb to run it).
import type { VerbName } from "./help-texts.js";

export const VERB_NAMES = ["inspect", "schema", "list", "register_tool", "call", "spawn", "message", "mcp", "watch", "review", "activate", "rollback"] as const satisfies readonly VerbName[];

/** true: every verb that has help is named above (a verb missing there fails the type check) */
export const EVERY_VERB_NAMED: [Exclude<VerbName, (typeof VERB_NAMES)[number]>] extends [never] ? true : never = true;

export const isVerbName = (name: string): name is VerbName => (VERB_NAMES as readonly string[]).includes(name);
