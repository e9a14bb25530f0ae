// A recipe warning is a value with a kind, tagged where it is found: the views decide severity,
// remediation and action from the kind, never by matching the text. The text is what an operator
// reads; it is rendered into a diagnostic (naming the file) in one place, here.

/** `shell`: a leaf hands a string to a shell; `boundary`: another trusted-boundary finding (an
 * interpreter's eval mode, a destructive remove, a broad write); `authoring`: the recipe loads,
 * but something in how it is written is likely a mistake (core/recipe/lint.ts). */
export type WarningKind = "shell" | "boundary" | "authoring";

export interface RecipeWarning {
  readonly kind: WarningKind;
  readonly text: string;
}

/** The diagnostic text of a warning of the recipe file at `path`. */
export const warningDiagnostic = (path: string, warning: RecipeWarning): string => `Recipe ${path}: ${warning.text}`;

/** The texts of warnings, for outputs that list them without the file (register_tool, run reports). */
export const warningTexts = (warnings: readonly RecipeWarning[]): readonly string[] => warnings.map((w) => w.text);
