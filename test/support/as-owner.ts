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

/** Folders made by `make()` under the system's temp folder, each removed by `removeAll()`. */
function tempBoxes(prefix: string): { make(): string; removeAll(): void } {
  const boxes: string[] = [];
  return {
    make() {
      const box = mkdtempSync(join(tmpdir(), prefix));
      boxes.push(box);
      return box;
    },
    removeAll() {
      for (const b of boxes) rmSync(b, { recursive: true, force: true });
    },
  };
}

/** Agent dirs made by `fresh()`, each in a box of its own, all removed by `removeAll()`. */
export function ownedAgentDirs(prefix: string): { fresh(): OwnedAgentDir; removeAll(): void } {
  const boxes = tempBoxes(prefix);
  return {
    fresh() {
      const box = boxes.make();
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
    removeAll: boxes.removeAll,
  };
}

/** Two users of one group (as root only: a test cannot change its user otherwise), each with a
 *  umask of 022, which keeps the group from writing what each of them creates. */
export const GROUP = { gid: 4200, users: [4101, 4102] as const };

const hasSetpriv = (): boolean => spawnSync("setpriv", ["--version"], { encoding: "utf8" }).status === 0;

/** Whether the tests of `what` with two users of one group can run here; when they cannot,
 *  prints why. */
export function groupTestsRun(what: string): boolean {
  const why = !asRoot
    ? "they need root to run the command as two users"
    : !hasSetpriv()
      ? "they need setpriv to run the command as a member of a group"
      : !othersReach(cliNodeArgs()[0]!)
        ? `uids ${GROUP.users.join(" and ")} cannot reach ${cliNodeArgs()[0]!}`
        : undefined;
  if (why !== undefined) console.log(`skipping the group tests of ${what}: ${why}`);
  return why === undefined;
}

/** One agent dir shared by a group: the first user's, the group's, and its recipe folder writable
 *  by the group with setgid (mode 2775), as an admin sets up a shared folder. */
export interface SharedAgentDir {
  readonly box: string;
  readonly agent: string;
  readonly recipes: string;
  /** `pi-recipes` with `args` as user `who` (0 or 1) of the group, with umask 022 */
  run(who: 0 | 1, args: readonly string[]): CliRun;
  /** gives what this process wrote in the box to the first user and the group */
  ownAll(): void;
}

export function sharedAgentDirs(prefix: string): { fresh(): SharedAgentDir; removeAll(): void } {
  const boxes = tempBoxes(prefix);
  return {
    fresh() {
      const box = boxes.make();
      const agent = join(box, "agent");
      const recipes = join(agent, "recipes");
      mkdirSync(recipes, { recursive: true });
      // a temp folder and a code cache of each user's own
      for (const uid of GROUP.users) mkdirSync(join(box, `home-${uid}`));
      const ownAll = (): void => {
        const walk = (p: string): void => {
          const uid = /home-(\d+)$/.exec(p)?.[1];
          chownSync(p, uid === undefined ? GROUP.users[0] : Number(uid), GROUP.gid);
          if (statSync(p).isDirectory()) for (const n of readdirSync(p)) walk(join(p, n));
        };
        walk(box);
      };
      ownAll();
      chmodSync(box, 0o755);
      chmodSync(agent, 0o2775);
      chmodSync(recipes, 0o2775);
      return {
        box,
        agent,
        recipes,
        run(who, args) {
          const uid = GROUP.users[who];
          const home = join(box, `home-${uid}`);
          const r = spawnSync(
            "setpriv",
            [`--reuid=${uid}`, `--regid=${GROUP.gid}`, `--groups=${GROUP.gid}`, "--", "sh", "-c", 'umask 022 && exec "$0" "$@"', process.execPath, ...cliNodeArgs(), ...args],
            {
              cwd: box,
              env: { ...process.env, PI_CODING_AGENT_DIR: agent, HOME: home, TMPDIR: home, XDG_CACHE_HOME: join(home, "cache") },
              encoding: "utf8",
              timeout: 60_000,
            },
          );
          return { status: r.status, stdout: r.stdout, stderr: r.stderr };
        },
        ownAll,
      };
    },
    removeAll: boxes.removeAll,
  };
}
