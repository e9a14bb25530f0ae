// Eight real processes, each with its own TMPDIR (as under systemd PrivateTmp or a sandbox),
// update one recipe and launch it. The locks live beside the data, so they still exclude each
// other: no update is lost and every launch is counted exactly once.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { nodeArgsFor } from "../support/cli.js";
import { afterAll, describe, expect, it } from "vitest";
import { makeNodeFileSystem } from "../../adapters/fs/node.js";
import { makeFileLock } from "../../adapters/lock/file-lock.js";
import { lockRootOf } from "../../runtime/agent-paths.js";
import { closeLedger, foldPending, openLedger, readIndex, readLedger } from "../../runtime/ledger/index.js";
import type { UpdateLog } from "./tmpdir-worker.js";

const WORKERS = 8;
const ROUNDS = 8;
const WORKER = fileURLToPath(new URL("./tmpdir-worker.ts", import.meta.url));
const REPO = fileURLToPath(new URL("../../", import.meta.url));

const dir = mkdtempSync(join(tmpdir(), "pi-recipes-tmpdirs-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function runWorker(worker: number, agentDir: string): Promise<string[]> {
  const ownTmp = join(dir, `tmp-${worker}`);
  mkdirSync(ownTmp);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgsFor(WORKER), JSON.stringify({ worker, rounds: ROUNDS })], {
      cwd: REPO,
      env: { ...process.env, TMPDIR: ownTmp, PI_CODING_AGENT_DIR: agentDir },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("close", (code) => (code === 0 ? resolve(out.trim().split("\n")) : reject(new Error(`worker ${worker} exited ${code}: ${err}`))));
  });
}

describe("processes with different TMPDIRs", () => {
  it("8 processes updating and launching one recipe: no update lost, launches counted exactly", async () => {
    const agentDir = join(dir, "agent");
    const recipeRoot = join(agentDir, "recipes");
    mkdirSync(recipeRoot, { recursive: true });
    writeFileSync(join(recipeRoot, "shared.json"), JSON.stringify({ description: "start", template: "echo start {x}" }));

    const lines = (await Promise.all(Array.from({ length: WORKERS }, (_, w) => runWorker(w, agentDir)))).flat().map((l) => JSON.parse(l) as UpdateLog | { done: true });
    const updates = lines.filter((l): l is UpdateLog => !("done" in l));
    expect(updates).toHaveLength(WORKERS * ROUNDS);
    for (const u of updates) expect(u.text, JSON.stringify(u)).toMatch(/^Updated tool/);

    // replayed in commit order, each change saw what the previous one left: a merge keeps the
    // template of the change before it, so an update lost between two processes shows here
    const ordered = [...updates].sort((a, b) => (BigInt(a.stamp!) < BigInt(b.stamp!) ? -1 : 1));
    let previousTemplate = "echo start {x}";
    for (const u of ordered) {
      const now = JSON.parse(u.content!) as { description: string; template: string };
      expect(now.description).toBe(u.kind === "update" ? `set ${u.tag}` : `merged ${u.tag}`);
      expect(now.template, u.tag).toBe(u.kind === "update" ? `echo ${u.tag} {x}` : previousTemplate);
      previousTemplate = now.template;
    }
    expect(readFileSync(join(recipeRoot, "shared.json"), "utf8")).toBe(ordered.at(-1)!.content);

    // every launch counted once, whatever TMPDIR its process had
    const fs = makeNodeFileSystem();
    const ctx = openLedger({ fs, lock: makeFileLock({ fs, lockRoot: lockRootOf(recipeRoot) }), recipeRoot });
    try {
      expect(await foldPending(ctx)).toEqual([]);
      const entry = (await readIndex(ctx)).index.paths["shared.json"];
      expect(entry).toBeDefined();
      const ledger = await readLedger(ctx, entry!.ledger);
      expect(ledger?.lifetime_calls).toBe(WORKERS * ROUNDS);
    } finally {
      await closeLedger(ctx);
    }
    // the lock files sit in the recipe root, none in any process's TMPDIR
    expect(readdirSync(join(recipeRoot, ".locks")).filter((n) => n.startsWith("."))).toEqual([]);
    for (let w = 0; w < WORKERS; w++) expect(readdirSync(join(dir, `tmp-${w}`)).filter((n) => n.includes("lock"))).toEqual([]);
  }, 120_000);
});
