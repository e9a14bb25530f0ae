// The reviewer's reply: free text, then the marker line, then exactly one JSON object. The last
// marker counts, so a reviewer may think aloud (and even quote the marker) before answering.
import * as E from "fp-ts/lib/Either.js";
import type { JsonObject } from "../model.js";

export const REVIEW_MARKER = "DRAFT_REVIEW_RESULT";

/** Why a reviewer's reply holds no result (the draft and the portfolio reviewer alike). */
export type ReplyError =
  /** the reply is larger than a plan may be (portfolio reviews) */
  | { readonly _tag: "TooLarge" }
  | { readonly _tag: "NoMarker" }
  /** what follows the marker is not one JSON object; `syntax` is the JSON engine's message */
  | { readonly _tag: "NotOneObject"; readonly syntax?: string };

/** The text of a reply error for the reviewer that replied ("Draft" or "Tool"). */
export function replyErrorText(reviewer: "Draft" | "Tool", e: ReplyError): string {
  switch (e._tag) {
    case "TooLarge":
      return `${reviewer} reviewer output exceeds the approval limit.`;
    case "NoMarker":
      return `${reviewer} reviewer output marker is missing.`;
    case "NotOneObject":
      return e.syntax === undefined ? `${reviewer} reviewer output must end with one JSON object.` : `${reviewer} reviewer output must end with one JSON object (${e.syntax}).`;
  }
}

/** The one JSON object after the last `marker` line of a reply. */
export function objectAfterMarker(stdout: string, marker: string): E.Either<ReplyError, JsonObject> {
  const at = stdout.lastIndexOf(marker);
  if (at < 0) return E.left({ _tag: "NoMarker" });
  const payload = stdout.slice(at + marker.length).trim();
  if (!payload.startsWith("{") || !payload.endsWith("}")) return E.left({ _tag: "NotOneObject" });
  try {
    // a JSON text that starts with `{` and parses is an object
    return E.right(JSON.parse(payload) as JsonObject);
  } catch (e) {
    return E.left({ _tag: "NotOneObject", syntax: e instanceof Error ? e.message : String(e) });
  }
}

export const parseReply = (stdout: string): E.Either<ReplyError, JsonObject> => objectAfterMarker(stdout, REVIEW_MARKER);
