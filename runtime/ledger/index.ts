// The usage ledger store: launch accounting, lineage moves, seeding and usage for the views.
export { openLedger, closeLedger, ledgerPaths, sha256Bytes, type LedgerContext, type LedgerOptions, type LedgerPaths } from "./ledger-context.js";
export { recordLaunch, sourceChangedText, type LaunchInput, type LaunchOutcome } from "./account-launch.js";
export { renameLineage, promoteLineage, demoteLineage, type MoveInput, type MoveResult } from "./moves.js";
export { seedLineages, seedObserved, lineageObservations, type SeedResult } from "./seed-lineages.js";
export { loadUsage, type UsageLookup } from "./usage.js";
export { foldPending } from "./fold-logs.js";
export { closeAndFoldIfFree, PENDING_LOG_BOUND, type ExitFold } from "./exit-fold.js";
export { recordReview } from "./review-epochs.js";
export { withRootFence, FenceDrainTimeout } from "./fence.js";
export { readIndex, readLedger } from "./ledger-store.js";
export { recoverLedger } from "./recover-ledger.js";
