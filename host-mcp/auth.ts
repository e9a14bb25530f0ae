// Who may talk to the HTTP server. Three checks run before a request reaches the MCP transport:
//
// - the bearer token, when one is configured. Binding anywhere but the loopback interface needs
//   one. It comes from the environment or a file, never the command line, where every local user
//   could read it in the process list. It is compared in constant time over equal-length digests,
//   so neither its content nor its length leaks through response timing.
// - the Host header (DNS rebinding): a web page on evil.example whose name is re-pointed at
//   127.0.0.1 makes the browser send `Host: evil.example`. On a loopback bind only loopback names
//   (or names the operator allowed) are served.
// - the Origin header: browsers send it with cross-site requests; MCP clients that are not
//   browsers send none. An Origin must be a loopback origin or one the operator allowed.
// - without a token, a request that came through a reverse proxy (any header a proxy adds,
//   PROXY_HEADERS): a loopback server behind a proxy is reachable from everywhere the proxy is.
import * as E from "fp-ts/lib/Either.js";
import { createHash, timingSafeEqual } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { isIP } from "node:net";
import { TOKEN_ENV, TOKEN_FILE_ENV } from "./token-env.js";

export { TOKEN_FILE_ENV };
/** long enough that guessing is hopeless; `openssl rand -hex 32` gives 64 */
export const MIN_TOKEN_LENGTH = 32;

/** The configured token (none: undefined) with a warning worth printing, or why it cannot be used. */
export type TokenSource = E.Either<string, { readonly token: string | undefined; readonly warning?: string; /** the file it was read from */ readonly file?: string }>;

/** The configured token: `PI_RECIPES_MCP_TOKEN`, or the file named by --token-file / `PI_RECIPES_MCP_TOKEN_FILE`. */
export function loadToken(env: NodeJS.ProcessEnv, tokenFile: string | undefined): TokenSource {
  const file = tokenFile ?? (env[TOKEN_FILE_ENV] || undefined);
  const inline = env[TOKEN_ENV] || undefined;
  if (file !== undefined && inline !== undefined)
    return E.left(`both ${TOKEN_ENV} and a token file (${file}) are set; use one of them`);
  let token = inline;
  let warning: string | undefined;
  if (file !== undefined) {
    try {
      token = readFileSync(file, "utf8").replace(/\r?\n$/, "");
      // a token others can read is no secret; say so, but a shared group may be intended
      if (process.platform !== "win32" && (statSync(file).mode & 0o077) !== 0)
        warning = `token file ${file} is readable by other users (chmod 600 it)`;
    } catch (e) {
      return E.left(`cannot read token file ${file}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  if (token === undefined) return E.right({ token: undefined });
  const where = file === undefined ? TOKEN_ENV : `token file ${file}`;
  if (token.length < MIN_TOKEN_LENGTH) return E.left(`${where}: the token must be at least ${MIN_TOKEN_LENGTH} characters (try: openssl rand -hex 32)`);
  if (/\s/.test(token)) return E.left(`${where}: the token must not contain whitespace`);
  return E.right({ token, ...(warning === undefined ? {} : { warning }), ...(file === undefined ? {} : { file }) });
}

const digest = (text: string): Buffer => createHash("sha256").update(text, "utf8").digest();

/** Checks an `Authorization` header against the token, in time independent of both. */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer +(\S+) *$/i.exec(header ?? "");
  // compare even when the header is malformed, so its shape does not show in the timing either
  const given = digest(match?.[1] ?? "");
  return timingSafeEqual(given, digest(token)) && match !== null;
}

/** 127.0.0.0/8, ::1 (also as an IPv4-mapped address) and `localhost`. */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "").toLowerCase();
  if (h === "localhost" || h.endsWith(".localhost")) return true;
  if (isIP(h) === 4) return h.startsWith("127.");
  if (isIP(h) === 6) return h === "::1" || h.startsWith("::ffff:127.");
  return false;
}

/** The name part of a Host header (`[::1]:8080` → `::1`), lower-cased. */
export function hostName(header: string): string {
  const h = header.trim().toLowerCase();
  if (h.startsWith("[")) return h.slice(1, h.indexOf("]") < 0 ? undefined : h.indexOf("]"));
  const colon = h.lastIndexOf(":");
  return colon < 0 ? h : h.slice(0, colon);
}

// The headers reverse proxies and CDNs add to say a request came through them (the client's
// address, the public host or scheme, the hop itself). Any one of them, with any value, marks a
// request as proxied: a proxy set up to send only one (nginx often sends only X-Real-IP) must
// still be noticed.
export const PROXY_HEADERS: readonly string[] = [
  "forwarded",
  "x-forwarded-for",
  "x-forwarded-host",
  "x-forwarded-proto",
  "x-forwarded-port",
  "x-forwarded-server",
  "x-real-ip",
  "x-client-ip",
  "via",
  "cf-connecting-ip",
  "true-client-ip",
  "fastly-client-ip",
  "x-cluster-client-ip",
];

/** Whether the request carries any header a proxy adds (names lower-cased, as node gives them). */
export const cameThroughProxy = (headers: Readonly<Record<string, unknown>>): boolean => PROXY_HEADERS.some((name) => headers[name] !== undefined);

export interface RequestGuard {
  /** answers why a request must not be served, or undefined to go on */
  check(headers: { readonly host?: string | undefined; readonly origin?: string | undefined; readonly authorization?: string | undefined; readonly forwarded: boolean }): { readonly status: number; readonly message: string } | undefined;
}

export interface GuardOptions {
  readonly token: string | undefined;
  readonly loopbackBind: boolean;
  /** extra names accepted in Host (a reverse proxy's public name) */
  readonly allowedHosts: readonly string[];
  /** extra origins accepted in Origin, e.g. https://app.example */
  readonly allowedOrigins: readonly string[];
}

export function requestGuard(options: GuardOptions): RequestGuard {
  const hosts = new Set(options.allowedHosts.map((h) => h.toLowerCase()));
  const origins = new Set(options.allowedOrigins.map((o) => o.toLowerCase().replace(/\/$/, "")));
  return {
    check({ host, origin, authorization, forwarded }) {
      if (host === undefined || host === "") return { status: 400, message: "Bad Request: missing Host header" };
      const name = hostName(host);
      // beyond loopback the token is the defence; Host is checked there only against names given
      if ((options.loopbackBind || hosts.size > 0) && !isLoopback(name) && !hosts.has(name))
        return { status: 403, message: `Forbidden: Host "${host}" is not served here (DNS rebinding protection; see --allowed-host)` };
      if (origin !== undefined && origin !== "null") {
        let originHost: string;
        try {
          originHost = new URL(origin).hostname;
        } catch {
          return { status: 403, message: `Forbidden: malformed Origin "${origin}"` };
        }
        if (!isLoopback(originHost) && !origins.has(origin.toLowerCase()))
          return { status: 403, message: `Forbidden: Origin "${origin}" is not allowed (see --allowed-origin)` };
      } else if (origin === "null") {
        return { status: 403, message: 'Forbidden: Origin "null" is not allowed' };
      }
      if (options.token === undefined) {
        // a loopback server reached through a reverse proxy is reachable from everywhere the proxy is
        if (forwarded) return { status: 401, message: `Unauthorized: this request came through a proxy; configure a token (${TOKEN_ENV} or --token-file)` };
        return undefined;
      }
      if (!bearerMatches(authorization, options.token)) return { status: 401, message: "Unauthorized: missing or wrong bearer token" };
      return undefined;
    },
  };
}
