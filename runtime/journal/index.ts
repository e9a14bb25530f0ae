// The journal engine's effects: run a plan durably, recover what a crash left. docs/journal.md.
//
// Exclusion: the caller holds a lock that keeps every other runPlan and recoverJournals on the
// same journal folder out while it runs (the ledger's store lock, register_tool's journal lock).
export { runPlan, PlanFailed } from "./run-plan.js";
export { recoverJournals, type RecoveryOutcome } from "./recover.js";
export type { JournalOptions } from "./apply.js";
export { currentBytes, currentState, newPlanId, runSteps } from "./steps.js";
