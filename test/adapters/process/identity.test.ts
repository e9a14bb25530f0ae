import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { checkIdentity, identityFrom, identityOf } from "../../../adapters/process/identity.js";
import type { ProcessProbe } from "../../../adapters/lock/owner.js";

const probe = (over: Partial<ProcessProbe> = {}): ProcessProbe => ({
  pid: 1,
  hostname: () => "h",
  bootId: () => "boot-1",
  startTime: () => "500",
  signalZero: () => "exists",
  ...over,
});
const recorded = { pid: 4242, start_time: "500", boot_id: "boot-1" };

describe("checkIdentity", () => {
  it("tells the recorded process from a process that got its pid", () => {
    expect(checkIdentity(recorded, probe())).toBe("same");
    expect(checkIdentity(recorded, probe({ startTime: () => "999" }))).toBe("other");
    expect(checkIdentity(recorded, probe({ signalZero: () => "gone" }))).toBe("gone");
    expect(checkIdentity(recorded, probe({ bootId: () => "boot-2" }))).toBe("gone");
  });

  it("never answers 'same' on doubt, and does not take an unreadable boot id as proof", () => {
    expect(checkIdentity(recorded, probe({ startTime: () => undefined }))).toBe("unknown");
    expect(checkIdentity(recorded, probe({ bootId: () => undefined }))).toBe("same");
    expect(checkIdentity(recorded, probe({ bootId: () => undefined, startTime: () => "7" }))).toBe("other");
  });

  it("on the real host: this process is itself, an exited child is gone", () => {
    expect(checkIdentity(identityOf(process.pid))).toBe("same");
    expect(checkIdentity({ ...identityOf(process.pid), start_time: "1" })).toBe("other");
    const child = spawnSync("true");
    expect(checkIdentity({ pid: child.pid!, start_time: "1" })).toBe("gone");
  });

  it("reads a recorded identity from loose JSON, refusing pids that would address a group", () => {
    expect(identityFrom(12, "5", "b")).toEqual({ pid: 12, start_time: "5", boot_id: "b" });
    expect(identityFrom(12, 5, "")).toEqual({ pid: 12 });
    expect(identityFrom(0, "5", "b")).toBeUndefined();
    expect(identityFrom(-3, "5", "b")).toBeUndefined();
    expect(identityFrom("12", "5", "b")).toBeUndefined();
  });
});
