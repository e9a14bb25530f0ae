// The path helpers of discovery and the live file tracker: POSIX paths as the runtime gives them.
import { describe, expect, it } from "vitest";
import { basename, dirname, recipeFileName } from "../../../core/discovery/paths.js";

describe("discovery paths", () => {
  it("dirname: the folder of a path, / for a file at the root, . for a bare name", () => {
    expect(dirname("/A/recipes/t.json")).toBe("/A/recipes");
    expect(dirname("/t.json")).toBe("/");
    expect(dirname("t.json")).toBe(".");
    expect(dirname("a/b")).toBe("a");
  });

  it("basename: the last segment, or the whole of a bare name", () => {
    expect(basename("/A/recipes/t.json")).toBe("t.json");
    expect(basename("t.json")).toBe("t.json");
    expect(basename("/t.json")).toBe("t.json");
    expect(basename("/A/")).toBe("");
  });

  it("recipeFileName: .json and .md with a name before them, no dot-files", () => {
    expect(recipeFileName("t.json")).toEqual({ id: "t", format: "json" });
    expect(recipeFileName("t.md")).toEqual({ id: "t", format: "md" });
    for (const name of [".json", ".md", ".t.json", "t.JSON", "t.txt", "json", "md"]) expect(recipeFileName(name)).toBeUndefined();
  });
});
