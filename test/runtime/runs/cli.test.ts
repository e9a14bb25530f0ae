// The real `pi-recipes` command end to end: `call <async tool>` answers with the run id and
// exits while the run goes on; `inspect target=run:<id>` and `message to=run:<id>` follow it.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { groupAlive } from "../../../adapters/process/group.js";
import { readRun } from "../../../runtime/runs/store.js";
import { runCli } from "../../support/cli.js";
import { finished, nodeFs, runBox, waitFor, type RunBox } from "./support.js";

let box: RunBox;
beforeAll(() => {
  box = runBox();
  // long enough that the CLI is gone before the run ends
  box.recipe("slow_echo", { description: "Echo later", async: true, args: ["word"], template: ["sleep 2", "echo {word}", "tr a-z A-Z"] });
  box.recipe("sleeper", { description: "Sleeps", async: true, template: "sleep 30" });
  // prints over time, in several steps: every line belongs in the log, not only the last step's
  box.recipe("chatty", {
    description: "Prints in steps",
    async: true,
    template: ["sh -c 'echo first; sleep 0.3; echo second'", "sh -c 'cat >/dev/null; echo third'", { template: "sh -c 'echo fourth; exit 3'", failure: "root" }],
  });
  box.recipe("chatty_killed", {
    description: "Prints, then waits to be killed",
    async: true,
    template: ["sh -c 'echo before; echo waiting; exec sleep 30'", "echo never"],
  });
  // its own environment, then that of the worker that runs it (its parent), one variable a line
  box.recipe("env_async", { description: "Prints environments", async: true, template: "sh -c 'env; tr \"\\\\000\" \"\\\\n\" < /proc/$PPID/environ'" });
});
afterAll(() => box.cleanup());

const TOKEN = "0123456789abcdef0123456789abcdef-test-token";

describe("pi-recipes async runs", () => {
  it("call prints the run id at once and exits; the run outlives it and inspect follows it to success", async () => {
    const call = runCli(["call", "slow_echo", "word=later", "run_id=cli-1"], box.env);
    expect(call.status).toBe(0);
    expect(call.stdout.split("\n")[0]).toMatch(/^run cli-1 tool=slow_echo status=running exit=- started=\S+ ended=- pid=\d+$/);
    expect(call.stdout).toContain("next: inspect target=run:cli-1 view=status");
    // the CLI process has exited; the run has not finished
    expect((await readRun(nodeFs, box.runsRoot, "cli-1"))?.status).toBe("running");

    const run = await finished(box.runsRoot, "cli-1");
    expect(run).toMatchObject({ status: "succeeded", exit_code: 0 });
    const status = runCli(["inspect", "target=run:cli-1"], box.env);
    expect(status.status).toBe(0);
    expect(status.stdout.split("\n")[0]).toMatch(/^run cli-1 tool=slow_echo status=succeeded exit=0 started=\S+ ended=\S+ pid=\d+$/);
    expect(status.stdout).toContain("result:\nLATER");
    const tail = runCli(["inspect", "target=run:cli-1", "view=tail", "lines=5"], box.env);
    // stdout.log holds everything the run printed; the run's answer is its result
    expect(tail.stdout).toContain("--- stdout (2 lines) ---\nlater\nLATER\n--- stderr: (empty) ---");
  });

  it("message to=run:<id> type=control.kill stops a running run", async () => {
    const call = runCli(["call", "sleeper", "run_id=cli-kill"], box.env);
    expect(call.status).toBe(0);
    await waitFor("the sleep to start", async () => ((await readRun(nodeFs, box.runsRoot, "cli-kill"))?.pgid ?? undefined));
    const kill = runCli(["message", "to=run:cli-kill", "type=control.kill"], box.env);
    expect(kill.status).toBe(0);
    expect(kill.stdout.split("\n")[0]).toBe("to=run:cli-kill type=control.kill message=sent delivered=true status=killed");
    const run = (await readRun(nodeFs, box.runsRoot, "cli-kill"))!;
    expect(run.status).toBe("killed");
    expect(groupAlive(run.pgid!)).toBe(false);
    expect(existsSync(join(run.run_dir, "result.json")) ? readFileSync(join(run.run_dir, "result.json"), "utf8") : "").not.toContain('"ok": true');
  });

  it("the log keeps every line the run printed, whether it finished, failed or was killed", async () => {
    expect(runCli(["call", "chatty", "run_id=cli-chatty"], box.env).status).toBe(0);
    expect(await finished(box.runsRoot, "cli-chatty")).toMatchObject({ status: "failed", exit_code: 3 });
    const tail = runCli(["inspect", "target=run:cli-chatty", "view=tail"], box.env);
    expect(tail.stdout).toContain("--- stdout (4 lines) ---\nfirst\nsecond\nthird\nfourth\n--- stderr");

    expect(runCli(["call", "chatty_killed", "run_id=cli-chatty-kill"], box.env).status).toBe(0);
    const log = join(box.runsRoot, "cli-chatty-kill", "stdout.log");
    await waitFor("the run to print", () => (existsSync(log) && readFileSync(log, "utf8").includes("waiting") ? true : undefined));
    const kill = runCli(["message", "to=run:cli-chatty-kill", "type=control.kill"], box.env);
    expect(kill.stdout.split("\n")[0]).toBe("to=run:cli-chatty-kill type=control.kill message=sent delivered=true status=killed");
    const killed = runCli(["inspect", "target=run:cli-chatty-kill", "view=tail"], box.env);
    expect(killed.stdout.split("\n")[0]).toMatch(/^run cli-chatty-kill tool=chatty_killed status=killed /);
    expect(killed.stdout).toContain("--- stdout (2 lines) ---\nbefore\nwaiting\n--- stderr");
  });

  it("neither the run's commands nor the processes that run them inherit the HTTP server's token", async () => {
    const env = { ...box.env, PI_RECIPES_MCP_TOKEN: TOKEN, PI_RECIPES_MCP_TOKEN_FILE: join(box.dir, "token") };
    expect(runCli(["call", "env_async", "run_id=cli-env"], env).status).toBe(0);
    expect(await finished(box.runsRoot, "cli-env")).toMatchObject({ status: "succeeded", exit_code: 0 });
    const printed = readFileSync(join(box.runsRoot, "cli-env", "stdout.log"), "utf8");
    // both environments were printed, the rest of them as before
    expect(printed.match(/^PI_CODING_AGENT_DIR=/gm)).toHaveLength(2);
    expect(printed).not.toContain("PI_RECIPES_MCP_TOKEN");
    expect(readFileSync(join(box.runsRoot, "cli-env", "command.json"), "utf8")).not.toContain(TOKEN);
  });
});
