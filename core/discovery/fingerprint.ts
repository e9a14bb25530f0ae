// The executable identity of a tool: what a call would run, and nothing a call does not depend
// on. Two tools with equal fingerprints execute the same way, so a call resolved against one may
// run against the other.
import { executableText } from "../ledger/recipe-fingerprint.js";
import type { ToolSpec } from "../tool/tool-spec.js";

export const toolFingerprint = (spec: ToolSpec): string => executableText(spec.config);
