// Why a template could not run for one call, as data. `missing-value`: a placeholder the call's
// values (and the recipe's defaults) do not resolve, which the caller can fix by changing the
// call; `invalid`: anything else (a control value out of range, an unterminated quote, ...).
// The text shown to the agent is rendered here, once, when the failure is made.
export type TemplateFailure =
  | { readonly kind: "missing-value"; readonly label: string; readonly content: string; readonly message: string }
  | { readonly kind: "invalid"; readonly message: string };

/** `Missing <label> value: <content>`; `label` names the field (`command template`, `timeout`, ...). */
export const missingValue = (label: string, content: string): TemplateFailure =>
  ({ kind: "missing-value", label, content, message: `Missing ${label} value: ${content}` });

export const invalidTemplate = (message: string): TemplateFailure => ({ kind: "invalid", message });

/** Failures a caller can fix by changing the call's values. */
export const isArgumentFailure = (f: TemplateFailure): boolean => f.kind === "missing-value";
