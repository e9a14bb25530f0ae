// The reviewer's reply: free text, then the marker line, then exactly one JSON object. The last
// marker counts, so a reviewer may think aloud (and even quote the marker) before answering.
import * as E from "fp-ts/lib/Either.js";
import type { JsonObject } from "../model.js";

export const REVIEW_MARKER = "DRAFT_REVIEW_RESULT";

export function parseReply(stdout: string): E.Either<string, JsonObject> {
  const at = stdout.lastIndexOf(REVIEW_MARKER);
  if (at < 0) return E.left("Draft reviewer output marker is missing.");
  const payload = stdout.slice(at + REVIEW_MARKER.length).trim();
  if (!payload.startsWith("{") || !payload.endsWith("}")) return E.left("Draft reviewer output must end with one JSON object.");
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch (e) {
    return E.left(`Draft reviewer output must end with one JSON object (${e instanceof Error ? e.message : String(e)}).`);
  }
  return typeof value === "object" && value !== null && !Array.isArray(value) ? E.right(value as JsonObject) : E.left("Draft reviewer result must be an object.");
}
