// The journal file: the plan, its direction and one hash over both, as JSON. Decoding checks the
// shape and the hash, so a torn or edited journal is recognised and never acted on.
import * as t from "io-ts";
import * as E from "fp-ts/lib/Either.js";
import { chain } from "../either-steps.js";
import { pipe } from "fp-ts/lib/function.js";
import type { Json } from "../model.js";
import { canonicalJson } from "../ledger/canonical-json.js";
import { sha256Hex } from "../ledger/sha256.js";
import type { Direction, Journal } from "./recovery-decision.js";
import type { ContentHash, Plan } from "./plan.js";
import { JOURNAL_SUFFIX } from "./journal-suffix.js";

export const JOURNAL_FORMAT = "pi-recipes-journal/1";

export { JOURNAL_SUFFIX };

const Hash = t.string;
const OrAbsent = t.union([Hash, t.null]);
const StepCodec = t.union([
  t.type({ op: t.literal("write"), path: t.string, before: OrAbsent, after: Hash }),
  t.type({ op: t.literal("unlink"), path: t.string, before: Hash }),
  t.type({ op: t.literal("rename"), from: t.string, to: t.string, before: Hash, replaced: OrAbsent }),
  t.type({ op: t.literal("link"), from: t.string, to: t.string, before: Hash }),
  t.type({ op: t.literal("mkdir"), path: t.string }),
]);
const BlobCodec = t.union([t.type({ text: t.string }), t.type({ base64: t.string })]);
const PlanCodec = t.intersection([
  t.type({ id: t.string, kind: t.string, phases: t.array(t.array(StepCodec)), blobs: t.record(t.string, BlobCodec), reversible: t.boolean }),
  t.partial({ root: t.string }),
]);
const RecordCodec = t.type({
  format: t.literal(JOURNAL_FORMAT),
  direction: t.union([t.literal("forward"), t.literal("back")]),
  plan: PlanCodec,
  sha256: t.string,
});

/** The hash a journal file carries: over its plan and its direction. */
export const journalHash = (journal: Journal): ContentHash => sha256Hex(canonicalJson({ direction: journal.direction, plan: journal.plan as unknown as Json }));

export const journalFileName = (planId: string): string => `${planId}${JOURNAL_SUFFIX}`;

export function encodeJournal(journal: Journal): string {
  return `${JSON.stringify({ format: JOURNAL_FORMAT, direction: journal.direction, plan: journal.plan, sha256: journalHash(journal) }, null, 1)}\n`;
}

/** Why a journal file's text cannot be trusted (`journalErrorText` says it in words). */
export type JournalError =
  | { readonly _tag: "NotJson"; readonly detail: string }
  | { readonly _tag: "NotJournalRecord" }
  | { readonly _tag: "HashMismatch" };

export function journalErrorText(e: JournalError): string {
  switch (e._tag) {
    case "NotJson":
      return `not JSON (${e.detail})`;
    case "NotJournalRecord":
      return "not a journal record (wrong format or fields)";
    case "HashMismatch":
      return "its hash does not match its content (torn or edited)";
  }
}

const parseJson = (text: string): E.Either<JournalError, unknown> =>
  E.tryCatch(
    () => JSON.parse(text) as unknown,
    (e): JournalError => ({ _tag: "NotJson", detail: e instanceof Error ? e.message : String(e) }),
  );

const decodeRecord = (raw: unknown): E.Either<JournalError, t.TypeOf<typeof RecordCodec>> =>
  pipe(
    RecordCodec.decode(raw),
    E.mapLeft((): JournalError => ({ _tag: "NotJournalRecord" })),
  );

const checkHash = (record: t.TypeOf<typeof RecordCodec>): E.Either<JournalError, Journal> => {
  const journal: Journal = { plan: record.plan as Plan, direction: record.direction as Direction };
  return journalHash(journal) === record.sha256 ? E.right(journal) : E.left({ _tag: "HashMismatch" });
};

/** The journal in a file's text, or why it cannot be trusted. */
export const decodeJournal = (text: string): E.Either<JournalError, Journal> => pipe(parseJson(text), chain(decodeRecord), chain(checkHash));
