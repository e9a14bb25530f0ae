import { spawnSync } from "node:child_process";
import { readFileSync, readlinkSync } from "node:fs";
import { hostname } from "node:os";
import { describe, expect, it, vi } from "vitest";
import { decodeOwner, encodeOwner, isOwnerProvablyDead, makeOwnerRecord, nodeProcessProbe, parseStartTime, type OwnerRecord, type ProcessProbe } from "../../../adapters/lock/owner.js";

const fakeProbe = (over: Partial<ProcessProbe> = {}): ProcessProbe => ({
  pid: 100,
  hostname: () => "host-a",
  bootId: () => "boot-1",
  startTime: () => "5000",
  signalZero: () => "exists",
  ...over,
});

/** Field 22 of /proc/<pid>/stat, read here independently of the code under test: the fields
 *  after comm (which ends at the last ")") are space-separated, starting with field 3. */
function procStartTime(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const m = /\)\s+(?:\S+\s+){19}(\d+)/.exec(stat.slice(stat.lastIndexOf(")")));
  if (m?.[1] === undefined) throw new Error(`no start time in /proc/${pid}/stat: ${stat}`);
  return m[1];
}

const record: OwnerRecord = { pid: 4242, token: "t-1", start_time: "5000", boot_id: "boot-1", hostname: "host-a", acquired_at: "2026-01-01T00:00:00.000Z" };

describe("parseStartTime", () => {
  it("reads field 22, counting from after the last parenthesis of comm", () => {
    const tail = "S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 987654 20 21";
    expect(parseStartTime(`77 (node) ${tail}`)).toBe("987654");
    expect(parseStartTime(`77 (a) b) (c) ${tail}`)).toBe("987654");
    expect(parseStartTime("77 (short) S 1 2")).toBeUndefined();
    expect(parseStartTime("garbage")).toBeUndefined();
    // without the closing parenthesis of comm the line is not a stat line, however many fields
    expect(parseStartTime(`77 node ${tail}`)).toBeUndefined();
    expect(parseStartTime(`${tail} 1 2 3`)).toBeUndefined();
    // fields may be separated by runs of white space; the count starts right after the last ")"
    expect(parseStartTime(`77 (node)  ${tail.split(" ").join("  ")}`)).toBe("987654");
    expect(parseStartTime(`) ${tail}`)).toBe("987654");
    for (const bad of ["98x", "x98", "-1", "9.8"]) expect(parseStartTime(`77 (node) ${tail.replace("987654", bad)}`), bad).toBeUndefined();
  });

  it("agrees with /proc for this process and for pid 1", () => {
    expect(nodeProcessProbe.startTime(process.pid)).toBe(procStartTime(process.pid));
    expect(nodeProcessProbe.startTime(1)).toBe(procStartTime(1));
  });
});

describe("owner record encoding", () => {
  it("is one line of compact JSON and round-trips", () => {
    const text = encodeOwner(record);
    expect(text.endsWith("\n")).toBe(true);
    expect(text.trimEnd()).not.toContain("\n");
    expect(decodeOwner(text)).toEqual(record);
  });

  it("makes a record of this process with its start time, boot id and host", () => {
    const mine = makeOwnerRecord("tok", Date.parse("2026-02-03T04:05:06.007Z"));
    expect(mine).toEqual({
      pid: process.pid,
      token: "tok",
      start_time: procStartTime(process.pid),
      boot_id: readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim(),
      pid_ns: readlinkSync("/proc/self/ns/pid"),
      hostname: hostname(),
      acquired_at: "2026-02-03T04:05:06.007Z",
    });
  });

  it.each([
    ["half-written", encodeOwner(record).slice(0, 20)],
    ["empty", ""],
    ["pid 0 (would probe the process group)", JSON.stringify({ ...record, pid: 0 })],
    ["negative pid", JSON.stringify({ ...record, pid: -5 })],
    ["fractional pid", JSON.stringify({ ...record, pid: 1.5 })],
    ["no token", JSON.stringify({ ...record, token: "" })],
    ["no hostname", JSON.stringify({ ...record, hostname: undefined })],
    ["numeric start time", JSON.stringify({ ...record, start_time: 5000 })],
    ["an array", "[]"],
    ["a number", "5"],
    ["null", "null"],
    ["a string pid", JSON.stringify({ ...record, pid: "4242" })],
    ["a numeric token", JSON.stringify({ ...record, token: 7 })],
    ["no acquired_at", JSON.stringify({ ...record, acquired_at: undefined })],
    ["a numeric boot id", JSON.stringify({ ...record, boot_id: 1 })],
    ["a numeric pid namespace", JSON.stringify({ ...record, pid_ns: 1 })],
  ])("rejects a record that is %s", (_, text) => {
    expect(decodeOwner(text)).toBeUndefined();
  });
});

describe("decodeOwner keeps what it reads", () => {
  it("keeps the optional fields only when present", () => {
    const full = { ...record, pid_ns: "pid:[7]" };
    expect(decodeOwner(JSON.stringify(full))).toEqual(full);
    const { start_time: _s, boot_id: _b, ...bare } = record;
    expect(decodeOwner(JSON.stringify(bare))).toEqual(bare);
    expect(Object.keys(decodeOwner(JSON.stringify(bare))!)).not.toContain("start_time");
  });

  it("makes a record without the fields a host cannot read", () => {
    const blind = fakeProbe({ bootId: () => undefined, startTime: () => undefined });
    expect(makeOwnerRecord("t", 0, blind)).toEqual({ pid: 100, token: "t", hostname: "host-a", acquired_at: "1970-01-01T00:00:00.000Z" });
    expect(makeOwnerRecord("t", 0, fakeProbe({ pidNamespace: () => "pid:[3]" }))).toMatchObject({ pid_ns: "pid:[3]", boot_id: "boot-1", start_time: "5000" });
  });
});

describe("the real process probe", () => {
  it("answers signal 0 for a live, a foreign and a gone pid", () => {
    expect(nodeProcessProbe.signalZero(process.pid)).toBe("exists");
    const child = spawnSync(process.execPath, ["-e", "0"]);
    expect(nodeProcessProbe.signalZero(child.pid!)).toBe("gone");
    expect(nodeProcessProbe.startTime(child.pid!)).toBeUndefined();
  });

  it("takes EPERM (a process of another user) as alive and any other failure as unknown", () => {
    // as root every kill(pid, 0) of a live pid succeeds, so the kernel's other answers are injected
    for (const [code, answer] of [["EPERM", "exists"], ["EINVAL", "unknown"], [undefined, "unknown"]] as const) {
      const kill = vi.spyOn(process, "kill").mockImplementation(() => {
        throw Object.assign(new Error(`kill: ${code}`), code === undefined ? {} : { code });
      });
      try {
        expect(nodeProcessProbe.signalZero(12345)).toBe(answer);
        expect(kill).toHaveBeenCalledWith(12345, 0);
      } finally {
        kill.mockRestore();
      }
    }
  });

  it("reads this host's boot id and pid namespace", () => {
    expect(nodeProcessProbe.bootId()).toBe(readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim());
    expect(nodeProcessProbe.pidNamespace?.()).toBe(readlinkSync("/proc/self/ns/pid"));
    expect(nodeProcessProbe.hostname()).toBe(hostname());
    expect(nodeProcessProbe.pid).toBe(process.pid);
  });
});

describe("isOwnerProvablyDead", () => {
  it("falls back to the host name when this host's pid namespace cannot be read", () => {
    const withNs = { ...record, pid_ns: "pid:[1]" };
    expect(isOwnerProvablyDead(withNs, fakeProbe({ signalZero: () => "gone" }))).toBe(true);
    expect(isOwnerProvablyDead(withNs, fakeProbe({ hostname: () => "host-b", signalZero: () => "gone" }))).toBe(false);
    // a record from another boot is dead whatever its namespace
    expect(isOwnerProvablyDead({ ...withNs, boot_id: "boot-0" }, fakeProbe({ pidNamespace: () => "pid:[1]", signalZero: () => "exists" }))).toBe(true);
  });

  it("a record without a pid namespace (an older writer) is compared by host name, though this host has one", () => {
    expect(isOwnerProvablyDead(record, fakeProbe({ pidNamespace: () => "pid:[1]", signalZero: () => "gone" }))).toBe(true);
    expect(isOwnerProvablyDead(record, fakeProbe({ pidNamespace: () => "pid:[1]", hostname: () => "host-b", signalZero: () => "gone" }))).toBe(false);
  });

  it("compares namespaces only on the same boot: without boot ids the host name decides", () => {
    const { boot_id: _, ...noBoot } = { ...record, pid_ns: "pid:[1]" };
    expect(isOwnerProvablyDead(noBoot, fakeProbe({ pidNamespace: () => "pid:[2]", signalZero: () => "gone" }))).toBe(true);
    expect(isOwnerProvablyDead(noBoot, fakeProbe({ bootId: () => undefined, pidNamespace: () => "pid:[2]", hostname: () => "host-b", signalZero: () => "gone" }))).toBe(false);
  });

  it("is false for a live owner with the recorded start time", () => {
    expect(isOwnerProvablyDead(record, fakeProbe())).toBe(false);
  });

  it("is true when the pid is gone (ESRCH)", () => {
    expect(isOwnerProvablyDead(record, fakeProbe({ signalZero: () => "gone" }))).toBe(true);
  });

  it("treats EPERM as alive", () => {
    // the real probe maps EPERM to "exists"; a foreign live process is not dead
    expect(isOwnerProvablyDead(record, fakeProbe({ signalZero: () => "exists" }))).toBe(false);
  });

  it("is true when the pid now belongs to a process with another start time", () => {
    expect(isOwnerProvablyDead(record, fakeProbe({ startTime: () => "9999" }))).toBe(true);
  });

  it("is true for a record from another boot", () => {
    expect(isOwnerProvablyDead(record, fakeProbe({ bootId: () => "boot-2" }))).toBe(true);
  });

  it("lets the boot id decide: a host name changed across a reboot does not keep a dead lock", () => {
    expect(isOwnerProvablyDead(record, fakeProbe({ hostname: () => "host-b", bootId: () => "boot-2" }))).toBe(true);
  });

  it("probes the pid after a host name change on the same boot and pid namespace", () => {
    const withNs = { ...record, pid_ns: "pid:[1]" };
    const renamed = { hostname: () => "host-b", pidNamespace: () => "pid:[1]" };
    expect(isOwnerProvablyDead(withNs, fakeProbe({ ...renamed, signalZero: () => "gone" }))).toBe(true);
    expect(isOwnerProvablyDead(withNs, fakeProbe({ ...renamed, signalZero: () => "exists" }))).toBe(false);
  });

  it("proves nothing about the pids of another pid namespace on the same boot (containers)", () => {
    const withNs = { ...record, pid_ns: "pid:[1]" };
    expect(isOwnerProvablyDead(withNs, fakeProbe({ pidNamespace: () => "pid:[2]", signalZero: () => "gone" }))).toBe(false);
    // a record without a namespace from another host name proves nothing either
    expect(isOwnerProvablyDead(record, fakeProbe({ hostname: () => "host-b", signalZero: () => "gone" }))).toBe(false);
  });

  it("does not take an unreadable boot id as proof of death", () => {
    expect(isOwnerProvablyDead(record, fakeProbe({ bootId: () => undefined }))).toBe(false);
    const { boot_id: _, ...withoutBoot } = record;
    expect(isOwnerProvablyDead(withoutBoot, fakeProbe({ bootId: () => "boot-2" }))).toBe(false);
    expect(isOwnerProvablyDead(withoutBoot, fakeProbe({ bootId: () => "boot-2", signalZero: () => "gone" }))).toBe(true);
  });

  it("stays alive on doubt: unknown signal result, unreadable start time, or no start time recorded", () => {
    expect(isOwnerProvablyDead(record, fakeProbe({ signalZero: () => "unknown" }))).toBe(false);
    // a signal probe that failed oddly proves nothing, even where the start time read differs
    expect(isOwnerProvablyDead(record, fakeProbe({ signalZero: () => "unknown", startTime: () => "9999" }))).toBe(false);
    expect(isOwnerProvablyDead(record, fakeProbe({ startTime: () => undefined }))).toBe(false);
    const { start_time: _, ...withoutStart } = record;
    expect(isOwnerProvablyDead(withoutStart, fakeProbe({ startTime: () => "9999" }))).toBe(false);
  });

  it("on the real host: this process is alive, an exited child is dead, a faked start time is dead", () => {
    const mine = makeOwnerRecord("me", Date.now());
    expect(isOwnerProvablyDead(mine)).toBe(false);
    expect(isOwnerProvablyDead({ ...mine, start_time: "1" })).toBe(true);
    expect(isOwnerProvablyDead({ ...mine, boot_id: "00000000-0000-0000-0000-000000000000" })).toBe(true);
    const child = spawnSync(process.execPath, ["-e", "0"]);
    expect(isOwnerProvablyDead({ ...mine, pid: child.pid })).toBe(true);
  });
});
