// The text a model reads when it calls a tool the registry no longer has: one stop after the
// reason, also when the reason ends in a question ("Did you mean …?").
import { describe, expect, it } from "vitest";
import { removedToolText } from "../../host-pi/recipe-tools.js";

describe("removedToolText", () => {
  it("ends the reason with one stop", () => {
    expect(removedToolText("gone", "Unknown tool: gone")).toBe(
      'Tool "gone" is not in the recipe registry any more: Unknown tool: gone. Its stale definition stays visible until the session reloads; do not call it.',
    );
    expect(removedToolText("victim", 'Unknown tool: victim. Did you mean "victim3"?')).toBe(
      'Tool "victim" is not in the recipe registry any more: Unknown tool: victim. Did you mean "victim3"? Its stale definition stays visible until the session reloads; do not call it.',
    );
  });
});
