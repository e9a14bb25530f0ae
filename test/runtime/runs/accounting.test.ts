// An async run is accounted by the process that starts it, and the detached worker runs only a
// record that says how: run.json carries `accounting`, and a record without it (one that did not
// come through the launch path) runs nothing.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RUN_FILES, runDirOf } from "../../../runtime/runs/store.js";
import { finished, runBox, type RunBox } from "./support.js";

const worker = fileURLToPath(new URL("../../../runtime/runs/run-worker.ts", import.meta.url));
const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;

/** Runs the worker on `runDir` in the foreground, as the supervisor would start it. */
const runWorker = (runDir: string): { code: number | null; stderr: string } => {
  const r = spawnSync(process.execPath, ["--import", tsx, worker, runDir], { cwd: runDir, encoding: "utf8", timeout: 60_000 });
  return { code: r.status, stderr: r.stderr };
};

let box: RunBox;
beforeEach(() => {
  box = runBox();
});
afterEach(() => box.cleanup());

describe("an async run's accounting", () => {
  it("is written into run.json by the starting call", async () => {
    const marker = join(box.dir, "ran");
    box.recipe("later", { description: "async", async: true, template: `touch ${marker}` });
    const r = await box.call("later", { run_id: "r1" });
    expect(r.ok, r.text).toBe(true);
    expect((await finished(box.runsRoot, "r1")).status).toBe("succeeded");
    expect(existsSync(marker)).toBe(true);
    const spec = JSON.parse(readFileSync(join(runDirOf(box.runsRoot, "r1"), RUN_FILES.spec), "utf8")) as Record<string, unknown>;
    // this box has no usage ledger, and the record says so
    expect(spec["accounting"]).toBe("not counted: no usage ledger");
  });

  it("is required by the worker: a record without it runs nothing, the same record with it runs", () => {
    const marker = join(box.dir, "ran");
    const record = (accounting: string | undefined): string => {
      const dir = runDirOf(box.runsRoot, accounting === undefined ? "bare" : "accounted");
      mkdirSync(dir, { recursive: true });
      const spec = {
        run_id: "bare",
        tool: "later",
        path: join(box.agent, "recipes", "later.json"),
        template: `touch ${marker}`,
        values: {},
        authored: [],
        cwd: box.dir,
        home: box.dir,
        tmp_root: join(box.agent, "tmp", "pi-recipes"),
        kill_grace_ms: 500,
        created_at: new Date(0).toISOString(),
        ...(accounting === undefined ? {} : { accounting }),
      };
      writeFileSync(join(dir, RUN_FILES.spec), JSON.stringify(spec));
      return dir;
    };

    const bare = runWorker(record(undefined));
    expect(bare.code).toBe(1);
    expect(bare.stderr).toContain(`${join(runDirOf(box.runsRoot, "bare"), RUN_FILES.spec)} holds no accounting record`);
    expect(bare.stderr).toContain("nothing ran");
    expect(existsSync(marker)).toBe(false);

    const accounted = runWorker(record("not counted: no usage ledger"));
    expect(accounted.code, accounted.stderr).toBe(0);
    expect(existsSync(marker)).toBe(true);
  });
});
