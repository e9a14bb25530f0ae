import { describe, expect, it } from "vitest";
import { commandReviewer, configuredReviewer, piReviewerArgv } from "../../../runtime/review/reviewer.js";
import { reviewPolicy } from "../../../runtime/review/host.js";

describe("reviewers", () => {
  it("Pi's reviewer is a child pi -p with no tools and no extensions, the projection attached", () => {
    const argv = piReviewerArgv("/agent/tmp/input.md", "anthropic/claude");
    expect(argv.slice(0, 2)).toEqual(["pi", "-p"]);
    expect(argv).toContain("--no-tools");
    expect(argv).toContain("-ne");
    expect(argv).toContain("@/agent/tmp/input.md");
    expect(argv.slice(argv.indexOf("--model"), argv.indexOf("--model") + 2)).toEqual(["--model", "anthropic/claude"]);
  });

  it("a configured command runs without a shell: projection on stdin, reply on stdout", async () => {
    const script = "let s='';process.stdin.on('data',d=>s+=d);process.stdin.on('end',()=>process.stdout.write('got:'+s.length+' $HOME'))";
    const reviewer = commandReviewer(`${JSON.stringify(process.execPath)} -e ${JSON.stringify(script)}`);
    expect(await reviewer.review("12345")).toBe("got:5 $HOME");
  });

  it("a failing reviewer command is an error naming its exit", async () => {
    const reviewer = commandReviewer(`${JSON.stringify(process.execPath)} -e "process.exit(3)"`);
    await expect(reviewer.review("x")).rejects.toThrow(/code 3/);
  });

  it("policy: the environment's reviewer, the switch, and why nothing is scheduled without one", () => {
    expect(configuredReviewer({})).toBeUndefined();
    expect(reviewPolicy({}).reviewer).toBeUndefined();
    expect(reviewPolicy({}).describe).toMatch(/^none .*PI_RECIPES_REVIEWER/);
    expect(reviewPolicy({ PI_RECIPES_REVIEWER: "my-model --print" }).describe).toBe("command:my-model --print");
    for (const off of ["off", "FALSE", " 0 "]) expect(reviewPolicy({ PI_ACTORS_AUTOMATIC_REVIEW: off }).enabled).toBe(false);
    expect(reviewPolicy({ PI_ACTORS_AUTOMATIC_REVIEW: "on" }).enabled).toBe(true);
  });
});
