// Running the real `pi-recipes` as the owner of an agent dir whose permissions a test sets. A mode
// keeps a file or folder from its owner only when the owner is not root (root reads and writes
// anything): as root the command runs as another user, who owns the agent dir, when that user can
// reach the command (every folder above it lets others through); otherwise it runs as this user.
import { spawnSync } from "node:child_process";
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { cliNodeArgs, type CliRun } from "./cli.js";

export const OWNER = { uid: 4101, gid: 4100 };
export const asRoot = process.getuid?.() === 0;

function othersReach(file: string): boolean {
  for (let d = dirname(file); ; d = dirname(d)) {
    if ((statSync(d).mode & 0o001) === 0) return false;
    if (dirname(d) === d) return true;
  }
}

/** Whether the permission tests of `what` can run here; when they cannot, prints why (the reason
 *  the skipped tests are skipped). */
export function permissionTestsRun(what: string): boolean {
  const command = cliNodeArgs()[0]!;
  const reachable = !asRoot || othersReach(command);
  if (!reachable) console.log(`skipping the permission tests of ${what}: as root they run the command as uid ${OWNER.uid}, which cannot reach ${command}`);
  return reachable;
}

/** One agent dir of its own (`<box>/agent`, with `recipes/` in it), the owner's. */
export interface OwnedAgentDir {
  readonly box: string;
  readonly agent: string;
  readonly recipes: string;
  /** `pi-recipes` with `args` as the owner, in the box; `node` starts another entry than the
   *  installed command (the full command, say) */
  run(args: readonly string[], node?: readonly string[]): CliRun;
  /** gives everything in the box to the owner (as root: the other user), after this process wrote
   *  files there */
  ownAll(): void;
}

/** Agent dirs made by `fresh()`, each in a box of its own, all removed by `removeAll()`. */
export function ownedAgentDirs(prefix: string): { fresh(): OwnedAgentDir; removeAll(): void } {
  const boxes: string[] = [];
  return {
    fresh() {
      const box = mkdtempSync(join(tmpdir(), prefix));
      boxes.push(box);
      // the box is reached by the owner (mkdtemp makes it private to this user)
      chmodSync(box, 0o755);
      const agent = join(box, "agent");
      const recipes = join(agent, "recipes");
      mkdirSync(recipes, { recursive: true });
      mkdirSync(join(box, "tmp"));
      const ownAll = (): void => {
        if (!asRoot) return;
        const walk = (p: string): void => {
          chownSync(p, OWNER.uid, OWNER.gid);
          if (statSync(p).isDirectory()) for (const n of readdirSync(p)) walk(join(p, n));
        };
        walk(box);
      };
      ownAll();
      return {
        box,
        agent,
        recipes,
        run(args, node = cliNodeArgs()) {
          const r = spawnSync(process.execPath, [...node, ...args], {
            cwd: box,
            env: { ...process.env, PI_CODING_AGENT_DIR: agent, HOME: box, TMPDIR: join(box, "tmp"), XDG_CACHE_HOME: join(box, "cache") },
            encoding: "utf8",
            timeout: 60_000,
            ...(asRoot ? OWNER : {}),
          });
          return { status: r.status, stdout: r.stdout, stderr: r.stderr };
        },
        ownAll,
      };
    },
    removeAll() {
      for (const b of boxes) rmSync(b, { recursive: true, force: true });
    },
  };
}
