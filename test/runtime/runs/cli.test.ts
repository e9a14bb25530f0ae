// The real `pi-recipes` command end to end: `call <async tool>` answers with the run id and
// exits while the run goes on; `inspect target=run:<id>` and `message to=run:<id>` follow it.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { groupAlive } from "../../../adapters/process/group.js";
import { readRun } from "../../../runtime/runs/store.js";
import { runCli } from "../../support/cli.js";
import { finished, runBox, waitFor, type RunBox } from "./support.js";

let box: RunBox;
beforeAll(() => {
  box = runBox();
  // long enough that the CLI is gone before the run ends
  box.recipe("slow_echo", { description: "Echo later", async: true, args: ["word"], template: ["sleep 2", "echo {word}", "tr a-z A-Z"] });
  box.recipe("sleeper", { description: "Sleeps", async: true, template: "sleep 30" });
});
afterAll(() => box.cleanup());

describe("pi-recipes async runs", () => {
  it("call prints the run id at once and exits; the run outlives it and inspect follows it to success", async () => {
    const call = runCli(["call", "slow_echo", "word=later", "run_id=cli-1"], box.env);
    expect(call.status).toBe(0);
    expect(call.stdout.split("\n")[0]).toMatch(/^run cli-1 tool=slow_echo status=running exit=- started=\S+ ended=- pid=\d+$/);
    expect(call.stdout).toContain("next: inspect target=run:cli-1 view=status");
    // the CLI process has exited; the run has not finished
    expect(readRun(box.runsRoot, "cli-1")?.status).toBe("running");

    const run = await finished(box.runsRoot, "cli-1");
    expect(run).toMatchObject({ status: "succeeded", exit_code: 0 });
    const status = runCli(["inspect", "target=run:cli-1"], box.env);
    expect(status.status).toBe(0);
    expect(status.stdout.split("\n")[0]).toMatch(/^run cli-1 tool=slow_echo status=succeeded exit=0 started=\S+ ended=\S+ pid=\d+$/);
    expect(status.stdout).toContain("result:\nLATER");
    const tail = runCli(["inspect", "target=run:cli-1", "view=tail", "lines=5"], box.env);
    expect(tail.stdout).toContain("--- stdout (1 line) ---\nLATER\n--- stderr: (empty) ---");
  });

  it("message to=run:<id> type=control.kill stops a running run", async () => {
    const call = runCli(["call", "sleeper", "run_id=cli-kill"], box.env);
    expect(call.status).toBe(0);
    await waitFor("the sleep to start", () => (readRun(box.runsRoot, "cli-kill")?.pgid ?? undefined));
    const kill = runCli(["message", "to=run:cli-kill", "type=control.kill"], box.env);
    expect(kill.status).toBe(0);
    expect(kill.stdout.split("\n")[0]).toBe("to=run:cli-kill type=control.kill message=sent delivered=true status=killed");
    const run = readRun(box.runsRoot, "cli-kill")!;
    expect(run.status).toBe("killed");
    expect(groupAlive(run.pgid!)).toBe(false);
    expect(existsSync(join(run.run_dir, "result.json")) ? readFileSync(join(run.run_dir, "result.json"), "utf8") : "").not.toContain('"ok": true');
  });
});
