// Why a recipe must never become a tool without an operator's eyes on it: it names a secret, holds
// credential material, reads a credential store or points into a temporary folder. A depth-first
// walk of the raw recipe; the first reason found wins. `secretReason` is the subset about secrets:
// a draft with such a reason is not even captured, and a captured one is kept out of reviews.
import type { Json } from "../model.js";

const SECRET_KEYS = new Set([
  "apikey", "apitoken", "accesskey", "accesstoken", "authorization", "authkey", "authtoken", "clientsecret", "cookie",
  "credential", "credentials", "password", "passphrase", "privatekey", "refreshtoken", "secret", "secretaccesskey",
  "sessiontoken", "token", "vaulttoken",
]);

const VALUE_RULES: ReadonlyArray<readonly [RegExp, string, boolean]> = [
  [/-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/, "private-key material", true],
  [/\b(?:A(?:KIA|SIA)[A-Z0-9]{16}|github_pat_[A-Za-z0-9_]{20,}|gh[pousr]_[A-Za-z0-9]{20,}|glpat-[A-Za-z0-9_-]{20,}|npm_[A-Za-z0-9]{36}|xox[baprs]-[A-Za-z0-9-]{10,})/, "credential-shaped value", true],
  [/(?:~|\/)\.aws\/(?:credentials|config)\b|\bAWS_(?:ACCESS_KEY_ID|SECRET_ACCESS_KEY|SESSION_TOKEN)\b|\baws\s+secretsmanager\b/, "AWS credential reference", true],
  [/\bvault\s+(?:kv\s+)?(?:get|read|write|put|list)\b|\bVAULT_TOKEN\b|\baz\s+keyvault\b|\bgcloud\s+secrets\s+versions\s+access\b/, "secret-manager reference", true],
  [/\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/, "credential-shaped value", true],
  // a secret written into the command: `Bearer ...`, `DB_PASSWORD=...` (the secret word may end
  // a name of underscored words), a password in a URL (`https://bob:pw@host`), `curl -u user:pw`,
  // `sshpass -p pw`; a placeholder (`{pw}`) in its place is no secret
  [/\bbearer\s+[A-Za-z0-9._~+/-]{8,}|\b(?:[A-Za-z0-9]+_)*(?:api[_-]?key|secret|token|password|passwd)\s*[:=]\s*[^\s{}'"]{4,}/i, "secret-bearing value", true],
  [/\b[a-z][a-z0-9+.-]*:\/\/[^\s/:@{}]+:[^\s/@{}]{3,}@|(?:^|\s)(?:-u|--user)(?:\s+|=)[^\s:{}'"]+:[^\s{}'"]{3,}|\bsshpass\s+-p\s*[^\s{}'"]+/i, "secret-bearing value", true],
  [/(?:^|[\s"'])(?:\/tmp\/|\/var\/tmp\/|[A-Za-z]:\\te?mp\\|[^\s"']*\.pi\/agent\/tmp\/)/i, "temporary path", false],
];

export interface UnsafeFinding {
  readonly reason: string;
  /** true when the reason is about secrets (the draft is neither captured nor reviewed) */
  readonly secret: boolean;
}

function scan(value: Json | undefined): UnsafeFinding | undefined {
  if (typeof value === "string") {
    for (const [pattern, reason, secret] of VALUE_RULES) if (pattern.test(value)) return { reason, secret };
    return undefined;
  }
  if (Array.isArray(value)) {
    for (const item of value as readonly Json[]) {
      const found = scan(item);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (typeof value === "object" && value !== null) {
    for (const [key, child] of Object.entries(value as { readonly [k: string]: Json })) {
      if (SECRET_KEYS.has(key.replace(/[^A-Za-z0-9]/g, "").toLowerCase())) return { reason: `secret-bearing key: ${key}`, secret: true };
      const found = scan(child);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** The first reason the recipe is unsafe to promote automatically, if any. */
export const findUnsafe = (raw: Json): UnsafeFinding | undefined => scan(raw);

/** Why the recipe touches secrets, if it does: the risk label or a secret finding of the scan. */
export function secretReason(raw: Json, riskLabels: readonly string[]): string | undefined {
  const found = scan(raw);
  if (found?.secret === true) return found.reason;
  return riskLabels.includes("risk.secret_touching") ? "risk.secret_touching" : undefined;
}
