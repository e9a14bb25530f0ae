// A recipe that compiles but cannot be a tool stays an active entry, is not exposed, and says why.
import { describe, expect, it } from "vitest";
import { discover } from "../../../core/discovery/discover.js";
import { snapshot, userRoot } from "../../support/snapshot.js";

describe("a valid recipe that cannot be a tool", () => {
  it("an unsafe repeat: the entry stays, the tool does not, and the diagnostic names the reason", () => {
    const d = discover(snapshot([userRoot({ "rep.json": { repeat: "{xs.length}", template: "echo {xs[index]}" }, "ok.json": { template: "echo ok" } })]));
    expect(d.tools.map((t) => t.name)).toEqual(["ok"]);
    const entry = d.active.get("rep")!;
    expect(entry).toMatchObject({ tool: false, invalid: false, active: true });
    expect(entry.diagnostics).toHaveLength(1);
    expect(entry.diagnostics[0]).toMatch(/^Recipe rep could not be exposed as a tool: .*repeat must be a positive integer or \{array\.length\}/);
    expect(d.diagnostics).toEqual(entry.diagnostics);
  });

  it("an async recipe with an argument the async run keeps for itself", () => {
    const d = discover(snapshot([userRoot({ "job.json": { async: true, template: "echo {run_id}" } })]));
    expect(d.tools).toEqual([]);
    expect(d.diagnostics).toEqual([
      "Recipe job could not be exposed as a tool: Argument run_id is reserved in an async recipe (run_id, correlation_id, transport_context steer the run and never reach the template); rename it.",
    ]);
  });
});
