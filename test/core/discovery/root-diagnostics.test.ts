// The registry diagnostics about the recipe roots themselves: a root that could not be read, and
// one that others may write to.
import { describe, expect, it } from "vitest";
import { discover } from "../../../core/discovery/discover.js";
import { root, snapshot, userRoot } from "../../support/snapshot.js";

describe("root diagnostics", () => {
  it("a root that failed to list names the root and the error, once per root", () => {
    const broken = root("/P", {}, { error: "EACCES: permission denied" });
    const d = discover(snapshot([userRoot({}), broken, { ...broken }]));
    expect(d.diagnostics).toEqual(["Failed to inspect recipe root /P: EACCES: permission denied"]);
    // and the discovery says which root it could not list, so that no answer passes for whole
    expect(d.unlisted).toEqual([{ kind: "root", dir: "/P", error: "EACCES: permission denied" }]);
    expect(discover(snapshot([userRoot({})])).unlisted).toEqual([]);
  });

  it("world- and group-writable roots are named; a root that is not there, or a file source, is not", () => {
    const d = discover(snapshot([
      userRoot({}, { rootMode: 0o40777 }),
      root("/G", {}, { rootMode: 0o40775 }),
      root("/M", {}, { rootMode: 0o40777, present: false }),
      { kind: "file", root: "/F", present: true, tool: false, mutableUsage: false, files: [], rootMode: 0o40777 },
      root("/ok", {}, { rootMode: 0o40755 }),
    ]));
    expect(d.diagnostics).toEqual([
      "Recipe root is world-writable; review permissions: /A/recipes",
      "Recipe root is group-writable; review ownership and permissions: /A/recipes",
      "Recipe root is group-writable; review ownership and permissions: /G",
    ]);
  });
});
