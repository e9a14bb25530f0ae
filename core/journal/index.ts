// The journal engine's pure half: plans as data and the recovery decision. docs/journal.md.
export {
  blobBytes, buildPlan, pathsOf, planErrorText, type PlanError, type Blob, type ContentHash, type Known, type PathState, type Plan, type PlanInput, type Step,
  type StepInput,
} from "./plan.js";
export { decide, type Action, type Decision, type Direction, type Journal, type Observed } from "./recovery-decision.js";
export { JOURNAL_SUFFIX, decodeJournal, encodeJournal, journalErrorText, journalFileName, type JournalError } from "./record.js";
