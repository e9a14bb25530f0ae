// The draft review contract: eligibility, the value-free projection, the reply grammar, decision
// validation and the plan (the golden draft cases of the recipe format, adapted where this registry differs).
import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import { captureBatch, eligibleDrafts, type DraftCandidate } from "../../../core/review/batch.js";
import { draftCandidate } from "./fixtures.js";
import { planOf, validateDecisions } from "../../../core/review/decide.js";
import { contentGroupOf, project } from "../../../core/review/projection.js";
import { parseReply as parseTagged, replyErrorText } from "../../../core/review/reply.js";

import { findUnsafe } from "../../../core/review/unsafe.js";
import { isToolName, toolNameFor } from "../../../core/review/names.js";
import { control, decodeState, failed, isParked, moved } from "../../../core/review/admission.js";

/** the reply's error as the text the review records */
const parseReply = (stdout: string) => E.mapLeft((e: Parameters<typeof replyErrorText>[1]) => replyErrorText("Draft", e))(parseTagged(stdout));

const draft = (i: number, extra: Partial<DraftCandidate> = {}): DraftCandidate => draftCandidate(i, extra);
const twelve = Array.from({ length: 12 }, (_, i) => draft(i));
const batch = captureBatch(twelve, ["existing_tool"], "b-1", "2026-01-01T00:00:00.000Z")!;

const decisionsFor = (overrides: Record<number, object> = {}) =>
  batch.drafts.map((d, i) => ({
    draft: d.occurrence,
    sha256: contentGroupOf(batch, d),
    action: "discard",
    rationale: "one-off",
    assessment: { launches: d.usage.lifetime_calls },
    ...overrides[i],
  }));

describe("eligibility and capture", () => {
  it("twelve eligible drafts make a batch; eleven do not", () => {
    expect(batch.drafts).toHaveLength(12);
    expect(captureBatch(twelve.slice(1), [], "b", "t")).toBeUndefined();
  });

  it("a demoted draft waits until it is revised (cooldown)", () => {
    const demoted = [draft(0, { usage: { lifetime_calls: 1, revision: 1, revision_calls: 1, fingerprint: "f0", demoted_fingerprint: "f0" } }), ...twelve.slice(1)];
    expect(captureBatch(demoted, [], "b", "t")).toBeUndefined();
    const revised = [draft(0, { usage: { lifetime_calls: 1, revision: 2, revision_calls: 0, fingerprint: "f0b", demoted_fingerprint: "f0" } }), ...twelve.slice(1)];
    expect(captureBatch(revised, [], "b", "t")?.drafts.map((d) => d.stem)).toContain("draft_00");
  });

  it("drafts that touch secrets never enter a batch", () => {
    const secret = draft(99, { path: "/r/drafts/a_secret.json", stem: "a_secret", recipe: { defaults: { apiToken: "x" }, template: "echo {apiToken}" } });
    expect(eligibleDrafts([secret, ...twelve]).map((d) => d.stem)).not.toContain("a_secret");
  });

  it("batches take file-name order, .json before .md of the same stem, newer drafts wait", () => {
    const md = draft(3, { path: "/r/drafts/draft_03.md" });
    const b = captureBatch([...twelve, md, draft(12)], [], "b", "t")!;
    const order = b.drafts.map((d) => d.path.slice(d.path.lastIndexOf("/") + 1));
    expect(order.indexOf("draft_03.json") + 1).toBe(order.indexOf("draft_03.md"));
    expect(order).not.toContain("draft_12.json");
  });
});

describe("projection", () => {
  it("is value-free: no names, paths, templates, descriptions or raw hashes", () => {
    const text = JSON.stringify(project(batch));
    expect(text).not.toMatch(/echo|Draft 0|\/r\/drafts|"sha\d{1,2}"|draft_00"/);
    expect(project(batch)["drafts"]).toHaveLength(12);
    const first = (project(batch)["drafts"] as Record<string, unknown>[])[0]!;
    expect(first).toMatchObject({ draft: "draft_01", sha256: "content_group_01", usage: { lifetime_calls: 1, revision: 1, revision_calls: 1 }, contract: { template_shape: { kind: "command", nodes: 1 } } });
  });
});

describe("reply grammar", () => {
  it("takes the JSON object after the last marker", () => {
    const obj = { batchId: "b-1", decisions: [] };
    expect(parseReply(`analysis\nDRAFT_REVIEW_RESULT\n${JSON.stringify(obj)}`)).toEqual(E.right(obj));
    expect(parseReply(JSON.stringify(obj))).toEqual(E.left("Draft reviewer output marker is missing."));
    expect(parseReply(`DRAFT_REVIEW_RESULT\n${JSON.stringify(obj)}\ntrailing`)).toEqual(E.left("Draft reviewer output must end with one JSON object."));
    expect(parseReply(`DRAFT_REVIEW_RESULT\nhere it is: ${JSON.stringify(obj)}`)).toEqual(E.left("Draft reviewer output must end with one JSON object."));
    expect(parseReply("DRAFT_REVIEW_RESULT [1]")).toEqual(E.left("Draft reviewer output must end with one JSON object."));
  });

  it("an object that is not JSON is refused with the parser's reason", () => {
    const r = parseReply('thinking\nDRAFT_REVIEW_RESULT\n{"batchId": "b-1", decisions: []}');
    expect(E.isLeft(r) && r.left).toMatch(/^Draft reviewer output must end with one JSON object \(.*JSON.*\)\.$/);
  });
});

describe("decision validation", () => {
  it("collects every fault: stale hash, wrong launches, taken target, duplicate, missing", () => {
    const first = { draft: "draft_01", sha256: "stale", action: "promote", rationale: "x", assessment: { launches: 99 }, target: "existing_tool" };
    const result = validateDecisions(batch, { batchId: "b-1", decisions: [first, { ...first }] });
    expect(E.isLeft(result) && result.left).toEqual([
      "review draft changed: draft_01",
      "assessment launch count differs from lineage: draft_01",
      "promotion target is not uniquely absent: existing_tool",
      "duplicate review decision: draft_01",
      ...batch.drafts.slice(1).map((d) => `missing review decision: ${d.occurrence}`),
    ]);
  });

  it("accepts a complete reply and names unnamed promotions validly", () => {
    const ok = validateDecisions(batch, { batchId: "b-1", decisions: decisionsFor({ 0: { action: "promote", target: "My-Tool" }, 1: { action: "promote" } }) });
    expect(E.isRight(ok)).toBe(true);
    if (E.isLeft(ok)) return;
    expect(ok.right.filter((d) => d.action === "promote").map((d) => d.target)).toEqual(["My-Tool", "draft_01"]);
    const plan = planOf(batch, ok.right, "/r");
    expect(plan.items[0]).toMatchObject({ action: "promote", quarantine: "0001-draft_00.json", target: { name: "My-Tool", path: "/r/My-Tool.json" } });
    expect(JSON.parse(plan.items[0]!.target!.content)).toEqual({ description: "Draft 0", template: "echo 0" });
  });

  it("refuses a batch identity mismatch, unknown drafts, invalid names and recipe content", () => {
    const bad = validateDecisions(batch, {
      batchId: "other",
      decisions: [...decisionsFor({ 0: { action: "promote", target: "has space" }, 1: { action: "promote", recipe: { template: "rm -rf /" } } }), { draft: "draft_99" }],
    });
    expect(E.isLeft(bad) && bad.left).toEqual([
      "review result batch identity mismatch",
      "promotion target is not a valid tool name: draft_01",
      "promotion must not supply executable recipe content: draft_02",
      "unknown review draft: draft_99",
    ]);
  });

  it("an unsafe draft may only be discarded", () => {
    const unsafe = captureBatch([draft(0, { recipe: { template: "cat /tmp/x" } }), ...twelve.slice(1)], [], "b-1", "t")!;
    const decisions = unsafe.drafts.map((d, i) => ({ draft: d.occurrence, sha256: contentGroupOf(unsafe, d), action: i === 0 ? "promote" : "discard", rationale: "r" }));
    const r = validateDecisions(unsafe, { batchId: "b-1", decisions });
    expect(E.isLeft(r) && r.left).toEqual(["unsafe promotion source (temporary path): draft_01"]);
  });
});

describe("unsafe scan", () => {
  it.each([
    [{ defaults: { accessToken: "x" } }],
    [{ defaults: { clientSecret: "x" } }],
    [{ defaults: { secretAccessKey: "x" } }],
    [{ template: "echo '-----BEGIN OPENSSH PRIVATE KEY-----'" }],
    [{ template: "cat ~/.aws/credentials" }],
    [{ template: "echo AWS_SECRET_ACCESS_KEY" }],
    [{ template: "vault kv get secret/production" }],
    [{ template: `echo ghp_${"a".repeat(36)}` }],
  ])("flags %j", (recipe) => expect(findUnsafe(recipe)).toBeDefined());

  it("leaves a harmless recipe alone", () => expect(findUnsafe({ defaults: { region: "us-east-1" }, template: "echo {region}" })).toBeUndefined());
});

describe("tool names for drafts", () => {
  it.each([["My Draft.v2", "My_Draft_v2"], ["run-1767225600000", "run-1767225600000"], ["...", "draft"], ["Ünïcode name", "n_code_name"], ["two  spaces..dots", "two_spaces_dots"], ["__name -_", "name"], ["x".repeat(80), "x".repeat(64)]])("%s → %s", (stem, name) => {
    expect(toolNameFor(stem)).toBe(name);
    expect(isToolName(toolNameFor(stem))).toBe(true);
  });
});

describe("admission state and controls", () => {
  const captured = decodeState({ phase: "captured", batchId: "b-1", batchSha256: "s", sources: ["/a"], updatedAt: "t" })!;

  it("three failed launches park the batch until retry", () => {
    let s = captured;
    for (let i = 0; i < 3; i++) s = failed(s, "failed", "review_run", "boom", "t");
    expect(isParked(s)).toBe(true);
    const retried = control("review.retry", s, false, "t2");
    expect(retried).toMatchObject({ changed: true, phase: "captured", previous_phase: "failed" });
    expect(retried.next).toMatchObject({ attempts: 0, phase: "captured" });
    expect(retried.next).not.toHaveProperty("lastError");
  });

  it("retry of a batch with decisions resumes them, never a new reviewer", () => {
    const s = failed(captured, "processing_failed", "transaction", "boom", "t");
    expect(control("review.retry", s, true, "t")).toMatchObject({ changed: true, phase: "executing" });
  });

  it("reset forgets a failed batch, refuses one whose decisions still need recovery, and needs a state", () => {
    expect(control("review.reset", failed(captured, "failed", "review_run", "x", "t"), false, "t")).toMatchObject({ changed: true, phase: "idle", next: null });
    expect(control("review.reset", failed(captured, "processing_failed", "transaction", "x", "t"), true, "t")).toMatchObject({ changed: false, reason: "review_recovery_evidence_requires_retry" });
    expect(control("review.reset", captured, false, "t")).toMatchObject({ changed: false, reason: "review_state_not_terminal" });
    expect(control("review.reset", moved(captured, "executing", "t"), true, "t")).toMatchObject({ changed: false, reason: "review_state_not_terminal" });
    // a completed batch is forgotten, its journal or not; so is a batch whose review failed
    // before any decision ran, even with decisions written (nothing of them has run)
    expect(control("review.reset", moved(captured, "completed", "t"), true, "t")).toEqual({ changed: true, phase: "idle", previous_phase: "completed", next: null });
    expect(control("review.reset", failed(captured, "failed", "review_state", "x", "t"), true, "t")).toEqual({ changed: true, phase: "idle", previous_phase: "failed", next: null });
    expect(control("review.retry", undefined, false, "t")).toMatchObject({ changed: false, phase: "idle", reason: "review_state_unavailable" });
    expect(control("review.retry", captured, false, "t")).toMatchObject({ changed: false, reason: "review_state_not_retryable" });
  });
});
