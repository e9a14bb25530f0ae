// Run ids name folders under the runs root, so they must not be able to climb out of it or hide.
// The id is the caller's trimmed `run_id`, else `<tool>-<Date.now()>`.

export const MAX_RUN_ID_LENGTH = 128;
const RUN_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/** The reason `id` cannot name a run, or undefined when it can. */
export function runIdProblem(id: string): string | undefined {
  if (id.length <= MAX_RUN_ID_LENGTH && RUN_ID.test(id) && !id.includes("..")) return undefined;
  return `Invalid run_id "${id}": use letters, digits, "_", "." and "-", starting with a letter or digit, without "..", at most ${MAX_RUN_ID_LENGTH} characters.`;
}

/** The id the caller asked for (`run_id`: a non-blank string, or a number the CLI parsed), trimmed. */
export function requestedRunId(params: Readonly<Record<string, unknown>>): string | undefined {
  const given = params["run_id"];
  if (typeof given === "number" && Number.isFinite(given)) return String(given);
  if (typeof given !== "string" || given.trim() === "") return undefined;
  return given.trim();
}

/** `<tool>-<ms>`, with the tool name made safe: tool names are file names and may hold spaces. */
export function generatedRunId(tool: string, nowMs: number, attempt = 0): string {
  const suffix = `-${nowMs}${attempt === 0 ? "" : `-${attempt}`}`;
  let base = tool.replace(/[^A-Za-z0-9_.-]/g, "_").replace(/\.{2,}/g, "_").replace(/^[^A-Za-z0-9]+/, "");
  if (base === "") base = "run";
  return base.slice(0, MAX_RUN_ID_LENGTH - suffix.length) + suffix;
}
