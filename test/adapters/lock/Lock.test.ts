// The lock errors as a host prints or matches them: name, code, message and fields.
import { describe, expect, it } from "vitest";
import { LockAccessError, LockReentryError, LockTimeoutError } from "../../../adapters/lock/Lock.js";

describe("lock errors", () => {
  it("a timeout prints as LockTimeoutError with its code and the holder", () => {
    const e = new LockTimeoutError("/r/a.json", "/real/r/a.json", 300, { pid: 42, acquiredAt: "2026-01-01T00:00:00.000Z" }, 7);
    expect(String(e)).toBe("LockTimeoutError: Timed out after 300 ms waiting for the lock on /r/a.json; held by pid 42 since 2026-01-01T00:00:00.000Z");
    expect(e).toMatchObject({ code: "ELOCKTIMEOUT", path: "/r/a.json", canonicalPath: "/real/r/a.json", timeoutMs: 300, holder: { pid: 42 } });
    expect(new LockTimeoutError("/r/a.json", "/r/a.json", 300, { pid: 7, acquiredAt: "2026-01-01T00:00:00.000Z" }, 7).message).toBe(
      "Timed out after 300 ms waiting for the lock on /r/a.json; held by pid 7 (this process) since 2026-01-01T00:00:00.000Z",
    );
    expect(new LockTimeoutError("/r/a.json", "/r/a.json", 1, undefined, 7).message).toBe("Timed out after 1 ms waiting for the lock on /r/a.json; held by an owner without a readable record");
  });

  it("a re-entry prints as LockReentryError with its code", () => {
    const e = new LockReentryError("/r/a.json");
    expect(String(e)).toBe("LockReentryError: The lock on /r/a.json is already held by this call chain; locks are not re-entrant");
    expect(e).toMatchObject({ code: "ELOCKREENTRY", path: "/r/a.json" });
  });

  it("an access error prints as LockAccessError, naming the folder and the cause", () => {
    const cause = new Error("EACCES: permission denied");
    const e = new LockAccessError("/r/.locks", cause);
    expect(String(e)).toBe(
      "LockAccessError: Cannot take a lock in /r/.locks: this user may not write that folder (EACCES: permission denied); the lock folder has the permissions of the folder it is in",
    );
    expect(e).toMatchObject({ code: "ELOCKACCESS", lockRoot: "/r/.locks", cause });
    expect(new LockAccessError("/r/.locks", "read-only mount").message).toContain("(read-only mount)");
  });
});
