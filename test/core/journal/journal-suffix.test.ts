import { describe, expect, it } from "vitest";
import { isQuarantinedJournal, quarantinedName, setAsideNote } from "../../../core/journal/journal-suffix.js";

describe("the names of journals recovery set aside", () => {
  it("are made and recognised by one rule: the first plain, later ones numbered", () => {
    expect(quarantinedName("p1.journal.json", 0)).toBe("p1.journal.json.quarantined");
    expect(quarantinedName("p1.journal.json", 2)).toBe("p1.journal.json.quarantined-2");
    for (const n of [0, 1, 12]) expect(isQuarantinedJournal(quarantinedName("p1.journal.json", n))).toBe(true);
    // a journal itself, another file, a name that only looks close
    for (const name of ["p1.journal.json", "p1.json.quarantined", "p1.journal.json.quarantined-x", "p1.journal.json.quarantined-", "p1.journal.json.quarantined.tmp"]) {
      expect(isQuarantinedJournal(name), name).toBe(false);
    }
  });

  it("are told in one sentence, whoever recovered them", () => {
    expect(setAsideNote("register_tool", { id: "p1", quarantinedAs: "/r/p1.journal.json.quarantined", reason: "it cannot be trusted" })).toBe(
      "register_tool journal p1 was not applied and was kept as /r/p1.journal.json.quarantined: it cannot be trusted",
    );
  });
});
