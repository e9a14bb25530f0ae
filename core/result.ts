// What every verb answers, in every host: the text the agent sees and structured details.
// `--json` in the CLI prints exactly this object, so text and JSON can never disagree.
export interface CommandResult {
  readonly ok: boolean;
  readonly text: string;
  readonly details: Readonly<Record<string, unknown>>;
}

export const success = (text: string, details: Readonly<Record<string, unknown>> = {}): CommandResult => ({ ok: true, text, details });
export const failure = (text: string, details: Readonly<Record<string, unknown>> = {}): CommandResult => ({ ok: false, text, details });
