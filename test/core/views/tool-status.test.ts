import { describe, expect, it } from "vitest";
import {
  automaticReviewEnabled, isRuntimeActor, runtimeMode, runtimeStatus, runtimeStatusText, type RuntimeFacts,
} from "../../../core/views/tool-status.js";

const facts: RuntimeFacts = {
  packageName: "pi-recipes",
  version: "0.1.0",
  packageRoot: "/opt/pi-recipes",
  entrypoint: "/opt/pi-recipes/host-pi/index.ts",
  recipeRoot: "/home/u/.pi/agent/recipes",
  draftRoot: "/home/u/.pi/agent/recipes/drafts",
  packagedRecipeRoot: "/opt/pi-recipes/recipes",
  automaticReview: true,
  gitCommit: "5bda98a",
};

describe("PI_ACTORS_AUTOMATIC_REVIEW", () => {
  it("0, false and off (trimmed, any case) disable; anything else, unset included, enables", () => {
    for (const off of ["0", "false", "off", " OFF ", "False", "\toff\n"]) expect(automaticReviewEnabled(off)).toBe(false);
    for (const on of [undefined, "", "1", "on", "true", "no", "disabled"]) expect(automaticReviewEnabled(on)).toBe(true);
  });
});

describe("runtime status", () => {
  it("is dist exactly when the entrypoint runs from a dist folder", () => {
    expect(runtimeMode("/opt/pi-recipes/dist/host-pi/index.js")).toBe("dist");
    expect(runtimeMode("C:\\pi\\dist\\host-pi\\index.js")).toBe("dist");
    expect(runtimeMode("/opt/pi-recipes/host-pi/index.ts")).toBe("source");
    expect(runtimeMode("/opt/distant/index.ts")).toBe("source");
  });

  it("reports version, roots, mode, entrypoint, policy and git", () => {
    const status = runtimeStatus(facts);
    expect(status).toEqual({
      automatic_recipe_review: true,
      entrypoint: "/opt/pi-recipes/host-pi/index.ts",
      git_commit: "5bda98a",
      mode: "source",
      package_name: "pi-recipes",
      package_root: "/opt/pi-recipes",
      packaged_recipe_root: "/opt/pi-recipes/recipes",
      recipe_root: "/home/u/.pi/agent/recipes",
      draft_root: "/home/u/.pi/agent/recipes/drafts",
      recipe_roots: ["/home/u/.pi/agent/recipes", "/opt/pi-recipes/recipes"],
      version: "0.1.0",
    });
    expect(runtimeStatusText(status)).toBe(
      "pi-recipes version=0.1.0 mode=source automatic_review=true path=/opt/pi-recipes entrypoint=/opt/pi-recipes/host-pi/index.ts" +
        " git=5bda98a recipes=/home/u/.pi/agent/recipes packaged_recipes=/opt/pi-recipes/recipes",
    );
  });

  it("omits git when there is no commit, and the packaged root when there is none", () => {
    const { gitCommit: _g, packagedRecipeRoot: _p, ...bare } = facts;
    const status = runtimeStatus({ ...bare, automaticReview: false });
    expect(status).not.toHaveProperty("git_commit");
    expect(status.recipe_roots).toEqual(["/home/u/.pi/agent/recipes"]);
    expect(runtimeStatusText(status)).toBe(
      "pi-recipes version=0.1.0 mode=source automatic_review=false path=/opt/pi-recipes entrypoint=/opt/pi-recipes/host-pi/index.ts recipes=/home/u/.pi/agent/recipes",
    );
  });

  it("answers to tool:pi-actors and to our own package name only", () => {
    expect(isRuntimeActor("pi-actors")).toBe(true);
    expect(isRuntimeActor("pi-recipes")).toBe(true);
    expect(isRuntimeActor("pi_actors")).toBe(false);
  });
});
