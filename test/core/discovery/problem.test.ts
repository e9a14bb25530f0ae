// The diagnostic line of a recipe that could not be loaded or is invalid.
import { describe, expect, it } from "vitest";
import { problemDiagnostic } from "../../../core/discovery/problem.js";

describe("problemDiagnostic", () => {
  it("a failed load names the path and the error, or says the error is unknown", () => {
    expect(problemDiagnostic("/r/t.json", { kind: "failed", message: "EACCES: denied" })).toBe("Failed to load recipe /r/t.json: EACCES: denied");
    expect(problemDiagnostic("/r/t.json", { kind: "failed" })).toBe("Failed to load recipe /r/t.json: unknown error");
  });

  it("an invalid recipe names the path, and the reason when there is one", () => {
    expect(problemDiagnostic("/r/t.json", { kind: "invalid", message: "recipe must define template" })).toBe("Invalid recipe: /r/t.json: recipe must define template");
    expect(problemDiagnostic("/r/t.json", { kind: "invalid", message: "" })).toBe("Invalid recipe: /r/t.json");
    expect(problemDiagnostic("/r/t.json", { kind: "invalid" })).toBe("Invalid recipe: /r/t.json");
  });
});
