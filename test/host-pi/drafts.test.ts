// Drafts and automatic review in the real Pi host (SDK, scripted provider): an inline spawn is
// captured as a draft, and once the foreground turn has ended the idle boundary runs one review
// cycle through the configured reviewer (a small script standing in for a model).
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { call, makeSandbox, say, startPi, waitUntil, type PiRun, type PiSandbox } from "./sdk-harness.js";

let sandbox: PiSandbox;
let pi: PiRun | undefined;
afterEach(async () => {
  await pi?.close();
  pi = undefined;
  delete process.env["PI_RECIPES_REVIEWER"];
  delete process.env["PI_CODING_AGENT_DIR"];
  sandbox?.cleanup();
});

describe("drafts in the Pi host", () => {
  test("an inline spawn becomes a draft; the twelfth draft triggers a review after the turn", async () => {
    sandbox = makeSandbox();
    process.env["PI_CODING_AGENT_DIR"] = sandbox.agentDir;
    delete process.env["PI_ACTORS_AUTOMATIC_REVIEW"];
    const drafts = join(sandbox.recipeRoot, "drafts");
    mkdirSync(drafts, { recursive: true });
    for (let i = 0; i < 11; i++) writeFileSync(join(drafts, `Hand ${String(i).padStart(2, "0")}.json`), JSON.stringify({ template: `echo hand ${i}` }));
    const script = join(sandbox.root, "reviewer.mjs");
    writeFileSync(
      script,
      `let s="";process.stdin.on("data",d=>s+=d);process.stdin.on("end",()=>{const p=JSON.parse(s.slice(s.indexOf("\\n{\\n")+1));` +
        `const decisions=p.drafts.map((d,i)=>({draft:d.draft,sha256:d.sha256,action:i===0?"promote":"discard",rationale:"r"}));` +
        `console.log("DRAFT_REVIEW_RESULT "+JSON.stringify({batchId:p.batchId,decisions}));});`,
    );
    process.env["PI_RECIPES_REVIEWER"] = `${JSON.stringify(process.execPath)} ${JSON.stringify(script)}`;
    pi = await startPi({ sandbox, responses: [call("spawn", { template: "echo spawned" }), call("inspect", { target: "tool:pi-actors", view: "status" }), say("done")] });
    await pi.session.prompt("go");
    await pi.waitForRuns(1);
    const [spawned, status] = pi.outcomes;
    expect(spawned!.text).toMatch(/draft_recipe=.*recipes\/drafts\/spawn-\d+\.json/);
    expect(status!.text).toContain("reviewer=command:");
    // the idle boundary: the review promotes "Hand 00" as Hand_00 and discards the rest
    await waitUntil(() => readdirSync(sandbox.recipeRoot).includes("Hand_00.json"), 20_000, "the review's promotion");
    await waitUntil(() => readdirSync(drafts).filter((n) => n.endsWith(".json")).length === 0, 20_000, "the batch to leave the drafts");
  }, 60_000);
});
