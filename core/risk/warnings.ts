// Trusted-boundary warnings. Command templates split argv without a
// shell, but a leaf that hands a string to a shell or an interpreter re-opens that boundary;
// these texts tell the operator so. They are advice, never a reason to refuse a recipe.
import {
  BROAD_WRITERS,
  JS_RUNTIMES,
  SCRIPT_INTERPRETERS,
  SHELLS,
  hasFlag,
  isBroadWrite,
  isDestructiveRemove,
  isJsEval,
  isScriptEval,
  type LeafShape,
} from "./leaf-shape.js";
import type { RecipeWarning } from "../compile/recipe-warning.js";

const NO_WARNINGS: readonly RecipeWarning[] = Object.freeze([]);

/** The commands the rules below can apply to (each rule starts by naming its commands). */
const WARNING_COMMANDS: ReadonlySet<string> = new Set([...SHELLS, ...JS_RUNTIMES, ...SCRIPT_INTERPRETERS, "rm", ...BROAD_WRITERS]);

/** The warnings of one leaf; `label` is the nearest enclosing node label. */
export function leafWarnings(shape: LeafShape, label: string | undefined): readonly RecipeWarning[] {
  const cmd = shape.command;
  // nearly every leaf warns of nothing: answer that without building anything
  if (!WARNING_COMMANDS.has(cmd)) return NO_WARNINGS;
  if (!SHELLS.includes(cmd) && !isJsEval(shape) && !isScriptEval(shape) && !isDestructiveRemove(shape) && !isBroadWrite(shape)) return NO_WARNINGS;
  const who = label ?? cmd;
  const out: RecipeWarning[] = [];
  const boundary = (text: string): void => void out.push({ kind: "boundary", text });
  if (SHELLS.includes(cmd)) {
    const content = hasFlag(shape.args, "-c") ? "shell command strings" : "shell scripts";
    out.push({
      kind: "shell",
      text: `${who}: invokes ${cmd}; ${content} are trusted executable content and are not sandboxed by command-template argv splitting. Mitigation: keep scripts local, reviewed, and parameterized with explicit placeholders.`,
    });
  }
  if (isJsEval(shape)) {
    boundary(
      `${who}: invokes ${cmd} eval mode; code strings are trusted executable content and are not sandboxed. Mitigation: prefer a checked-in script file or keep eval input fixed and reviewed.`,
    );
  }
  if (isScriptEval(shape)) {
    boundary(
      `${who}: invokes ${cmd} code-eval mode; code strings are trusted executable content and are not sandboxed. Mitigation: prefer a checked-in script file or keep eval input fixed and reviewed.`,
    );
  }
  if (isDestructiveRemove(shape)) {
    boundary(
      `${who}: removes filesystem paths; verify placeholders and paths before running trusted destructive commands. Mitigation: constrain path placeholders and consider dry-run or explicit confirmation.`,
    );
  }
  if (isBroadWrite(shape)) {
    boundary(
      `${who}: mutates broad filesystem paths; verify placeholders and paths before running trusted commands. Mitigation: constrain path placeholders and prefer narrow source/destination paths.`,
    );
  }
  return out;
}
