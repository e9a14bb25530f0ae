// The HTTP server's request guard: token loading and matching, loopback names, Host and Origin.
import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import { test as fcTest, fc } from "@fast-check/vitest";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bearerMatches, hostName, isLoopback, loadToken, requestGuard } from "../../host-mcp/auth.js";

const TOKEN = "a".repeat(16) + "b".repeat(16) + "c";

describe("bearerMatches", () => {
  fcTest.prop([fc.stringMatching(/^[!-~]{1,80}$/), fc.stringMatching(/^[!-~]{1,80}$/)])("accepts exactly the token", (token, other) => {
    expect(bearerMatches(`Bearer ${token}`, token)).toBe(true);
    expect(bearerMatches(`Bearer ${other}`, token)).toBe(other === token);
  });

  it("refuses a missing header, another scheme, or the token without a scheme", () => {
    expect(bearerMatches(undefined, TOKEN)).toBe(false);
    expect(bearerMatches(`Basic ${TOKEN}`, TOKEN)).toBe(false);
    expect(bearerMatches(TOKEN, TOKEN)).toBe(false);
    expect(bearerMatches(`bearer ${TOKEN}`, TOKEN)).toBe(true);
  });
});

describe("loopback names", () => {
  it("knows 127.0.0.0/8, ::1 and localhost, and nothing else", () => {
    for (const h of ["127.0.0.1", "127.0.0.2", "::1", "[::1]", "localhost", "LOCALHOST", "::ffff:127.0.0.1"]) expect(isLoopback(h), h).toBe(true);
    for (const h of ["0.0.0.0", "::", "10.0.0.1", "192.168.1.2", "example.com", "127.0.0.1.nip.io", "localhost.example.com"]) expect(isLoopback(h), h).toBe(false);
  });

  it("takes the name out of a Host header", () => {
    expect(hostName("127.0.0.1:8765")).toBe("127.0.0.1");
    expect(hostName("[::1]:8765")).toBe("::1");
    expect(hostName("Example.COM")).toBe("example.com");
  });
});

describe("loadToken", () => {
  it("reads the environment or a file, and refuses both, short tokens and unreadable files", () => {
    const dir = mkdtempSync(join(tmpdir(), "pi-recipes-token-"));
    try {
      expect(loadToken({}, undefined)).toEqual(E.right({ token: undefined }));
      expect(loadToken({ PI_RECIPES_MCP_TOKEN: TOKEN }, undefined)).toEqual(E.right({ token: TOKEN }));
      const file = join(dir, "token");
      writeFileSync(file, `${TOKEN}\n`);
      chmodSync(file, 0o600);
      // with the file it came from (the server hides it from every sandbox)
      expect(loadToken({}, file)).toEqual(E.right({ token: TOKEN, file }));
      expect(loadToken({ PI_RECIPES_MCP_TOKEN_FILE: file }, undefined)).toEqual(E.right({ token: TOKEN, file }));
      chmodSync(file, 0o644);
      expect(loadToken({}, file)).toMatchObject(E.right({ token: TOKEN, warning: `token file ${file} is readable by other users (chmod 600 it)` }));
      expect(loadToken({ PI_RECIPES_MCP_TOKEN: TOKEN }, file)).toMatchObject(E.left(expect.stringContaining("use one of them")));
      expect(loadToken({ PI_RECIPES_MCP_TOKEN: "short" }, undefined)).toMatchObject(E.left(expect.stringContaining("at least 32 characters")));
      expect(loadToken({}, join(dir, "missing"))).toMatchObject(E.left(expect.stringContaining(`cannot read token file ${join(dir, "missing")}`)));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("requestGuard", () => {
  const loopback = requestGuard({ token: undefined, loopbackBind: true, allowedHosts: ["mcp.example.com"], allowedOrigins: ["https://app.example.com"] });
  const wide = requestGuard({ token: TOKEN, loopbackBind: false, allowedHosts: [], allowedOrigins: [] });
  const ok = { forwarded: false } as const;

  it("on loopback serves loopback and allowed Host names only", () => {
    expect(loopback.check({ ...ok, host: "127.0.0.1:8765" })).toBeUndefined();
    expect(loopback.check({ ...ok, host: "mcp.example.com" })).toBeUndefined();
    expect(loopback.check({ ...ok, host: "evil.example:8765" })?.status).toBe(403);
    expect(loopback.check({ ...ok, host: undefined })?.status).toBe(400);
  });

  it("refuses foreign and null Origins", () => {
    expect(loopback.check({ ...ok, host: "localhost", origin: "http://localhost:5173" })).toBeUndefined();
    expect(loopback.check({ ...ok, host: "localhost", origin: "https://app.example.com" })).toBeUndefined();
    expect(loopback.check({ ...ok, host: "localhost", origin: "https://evil.example" })?.status).toBe(403);
    expect(loopback.check({ ...ok, host: "localhost", origin: "null" })?.status).toBe(403);
  });

  it("beyond loopback takes any Host but only the token", () => {
    expect(wide.check({ ...ok, host: "10.1.2.3:8765" })?.status).toBe(401);
    expect(wide.check({ ...ok, host: "10.1.2.3:8765", authorization: `Bearer ${TOKEN}` })).toBeUndefined();
    expect(loopback.check({ host: "localhost", forwarded: true })?.status).toBe(401);
  });
});
