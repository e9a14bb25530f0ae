// Confinement at the process port, on bubblewrap (`bwrap`, Debian package `bubblewrap`): the
// operating system's own namespaces, not a home-made jail. docs/sandbox.md says why bubblewrap
// and how each part of a policy becomes a bwrap argument.
//
// A confined step is `bwrap <policy> --chdir <cwd> -- <command> <args...>`, spawned by the same
// runner as any other step: no shell is involved, so every value is still exactly one argv item.
// Every step gets a pid namespace of its own; bwrap is the leader of the runner's process group
// and (with --die-with-parent) takes the whole namespace with it when it is killed or when its
// parent dies, so a child that called setsid cannot outlive a timeout, a kill or the host.
import { spawnSync } from "node:child_process";
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readdirSync, readlinkSync, realpathSync, statSync, type Stats } from "node:fs";
import { basename, dirname, isAbsolute, join } from "node:path";
import type { ResolvedSandbox, SandboxPath } from "../../core/sandbox/policy.js";
import { startUpPlace, within } from "../../core/sandbox/places.js";
import { makeProcessRunner, type ProcessRunner } from "./ProcessRunner.js";
import { childEnvironment } from "./child-env.js";
import { findOnPath } from "./find-on-path.js";
import { spawnFailure } from "./node-runner.js";

export const BWRAP = "bwrap";
export const INSTALL_HINT = "install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap)";

export type Availability =
  | { readonly ok: true; readonly path: string; readonly version: string }
  | { readonly ok: false; readonly reason: string };

export { findOnPath } from "./find-on-path.js";

const probes = new Map<string, Availability>();

/**
 * Whether bubblewrap is on `PATH` and can actually build a sandbox here (user namespaces may be
 * disabled): it runs `bwrap --version` inside a sandbox of the same kind confined steps get.
 * Remembered per bwrap path for the life of the process. Synchronous, because the status view
 * that shows it is.
 */
export function probeBubblewrap(env: Readonly<Record<string, string | undefined>>): Availability {
  if (process.platform !== "linux") return { ok: false, reason: `bubblewrap needs Linux (this is ${process.platform})` };
  const path = findOnPath(BWRAP, env);
  if (path === undefined) return { ok: false, reason: `bwrap not found on PATH; ${INSTALL_HINT}` };
  let probe = probes.get(path);
  if (probe === undefined) {
    const r = spawnSync(path, [...baseArgs(false), "--", path, "--version"], { timeout: 10_000, encoding: "utf8", env: childEnvironment() });
    if (r.status === 0 && /^bubblewrap /.test(r.stdout)) probe = { ok: true, path, version: r.stdout.trim() };
    else {
      const why = (r.stderr ?? "").trim().split("\n")[0] || (r.error?.message ?? `exit ${String(r.status)}`);
      probe = { ok: false, reason: `bwrap (${path}) cannot start a sandbox here: ${why}; user namespaces may be disabled (sysctl kernel.unprivileged_userns_clone=1)` };
    }
    probes.set(path, probe);
  }
  return probe;
}

/** The namespaces and the read-only view every confined step starts from. */
function baseArgs(network: boolean): string[] {
  return [
    "--unshare-all",
    ...(network ? ["--share-net"] : []),
    "--die-with-parent",
    "--new-session",
    // no capability inside: run by root (a container, CI), bwrap would otherwise hand the command
    // every one, and with them `mount -o remount,rw /` or the `umount` of a read_deny mask
    "--cap-drop", "ALL",
    "--ro-bind", "/", "/",
    "--dev", "/dev",
    "--proc", "/proc",
    "--tmpfs", PRIVATE_TMP,
  ];
}

/** the host's /tmp, replaced by an empty one of its own in every sandbox */
const PRIVATE_TMP = "/tmp";

type PinKind = "file" | "dir" | "other";
const pinKind = (s: { isFile(): boolean; isDirectory(): boolean }): PinKind => (s.isDirectory() ? "dir" : s.isFile() ? "file" : "other");

/** A write path as it was checked: the real path and the identity (device, inode) of what was
 *  there. Each run opens it again and binds what it opened, if that is still the same file or
 *  folder (see confinedRunner). */
export interface SandboxPin {
  readonly path: string;
  readonly dev: string;
  readonly ino: string;
  /** a freed inode number is soon given to the next file made (a link put in the file's place
   *  may get it): what it is counts too (`other`: a path the recipe itself names that is neither,
   *  such as a device) */
  readonly kind: PinKind;
}

/** What a confined call runs with: the bwrap path and the policy's arguments, plain data (an
 * async run keeps it in its run.json). The write paths are bound by descriptor (`--bind
 * /proc/self/fd/3 <path>`, the n-th pin as descriptor 3 + n: the kernel follows that link to the
 * open file itself, not to a name, and unlike `--bind-fd` it works with bubblewrap before 0.8). */
export interface PreparedSandbox {
  readonly bwrap: string;
  readonly args: readonly string[];
  readonly pins?: readonly SandboxPin[];
}

const isPin = (u: unknown): u is SandboxPin =>
  typeof u === "object" && u !== null && typeof (u as SandboxPin).path === "string" && typeof (u as SandboxPin).dev === "string" && typeof (u as SandboxPin).ino === "string" &&
  ((u as SandboxPin).kind === "file" || (u as SandboxPin).kind === "dir" || (u as SandboxPin).kind === "other");

export const isPreparedSandbox = (u: unknown): u is PreparedSandbox =>
  typeof u === "object" && u !== null && typeof (u as PreparedSandbox).bwrap === "string" &&
  Array.isArray((u as PreparedSandbox).args) && (u as PreparedSandbox).args.every((a) => typeof a === "string") &&
  ((u as PreparedSandbox).pins === undefined || (Array.isArray((u as PreparedSandbox).pins) && (u as PreparedSandbox).pins!.every(isPin)));

const realOrSelf = (path: string): string => {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
};

/** where `path` leads, also when it does not exist yet: its nearest existing folder's real path
 *  with the rest of the path after it */
function realOfMaybeMissing(path: string): string {
  let rest = "";
  for (let at = path; ; at = dirname(at)) {
    try {
      const real = realpathSync(at);
      return real === "/" ? rest || "/" : real + rest;
    } catch {
      if (dirname(at) === at) return path;
      rest = `/${basename(at)}${rest}`;
    }
  }
}

const kindOf = (path: string): "dir" | "file" | undefined => {
  try {
    return statSync(path).isDirectory() ? "dir" : "file";
  } catch {
    return undefined;
  }
};

/** A write path that does not exist yet is created before the run (its missing folders too):
 * a folder when it was written with a trailing `/`, else an empty file. Binding its nearest
 * existing parent instead would let the command write far more than the recipe named. */
function makeWritePath(entry: SandboxPath): void {
  if (entry.folder) mkdirSync(entry.path, { recursive: true });
  else {
    mkdirSync(dirname(entry.path), { recursive: true });
    closeSync(openSync(entry.path, "a", 0o644));
  }
}

const SPECIAL_ROOTS = ["/proc", "/sys", "/dev"];

/**
 * What a write path may grant, judged by where it really leads (symbolic links followed); throws
 * saying what is wrong. A grant of the working directory (`.`) must not be the root. A path the
 * call's values chose (`{out}`) grants what the recipe wrote, never more: it stays inside the
 * folder the recipe's text names before the value (`build/{name}/`), if it names one; it is a
 * regular file or a folder, never a device or a file of /proc, /sys or /dev; written as a file
 * (no trailing `/`), it is no folder (`out=.`, `out=/` or a link to a folder would turn a grant of
 * one file into a grant of the folder); written as a folder (`{dir}/`), it is not the root, the
 * home folder or a folder holding it, which would leave nothing of the user's read-only.
 * `found` (where the path leads, and what is there) is undefined while the path does not exist
 * yet: it is then judged by its name.
 */
function checkGrant(entry: SandboxPath, found: { readonly real: string; readonly stat: Stats } | undefined, realHome: string): void {
  const real = found?.real;
  // the working directory stands for a project: run from `/` (an MCP server a client started
  // there), "writes under the working directory" would be writes anywhere
  if (entry.fromCwd === true && real === "/")
    throw new Error(`sandbox.write: ${entry.path} is the root, so a grant of the working directory would leave nothing read-only; run it from a project folder (an MCP client can offer one as a root)`);
  if (!entry.fromValue) return;
  // `build/{name}/` grants inside `build`: a value with `..` may not lead out of it, by name or
  // (once the path exists) by where it really leads
  if (entry.under !== undefined && !(within(entry.path, entry.under) && (real === undefined || within(real, realOrSelf(entry.under)))))
    throw new Error(`sandbox.write: ${entry.path} is outside ${entry.under}, the folder the recipe names before the value`);
  // the kernel's own file systems and devices: a device node, or a file of /proc or /sys (which
  // say they are regular files), is no output file; a path that does not exist yet is judged by
  // its name
  const where = real ?? entry.path;
  const shown = where === entry.path ? entry.path : `${entry.path} (${where})`;
  const stat = found?.stat;
  if (SPECIAL_ROOTS.some((root) => within(where, root)) || (stat !== undefined && !(stat.isFile() || stat.isDirectory())))
    throw new Error(`sandbox.write: ${shown} is no regular file or folder; a value may name a file or folder to write, not a device or a file of /proc, /sys or /dev`);
  const runsLater = startUpPlace(where, realHome);
  if (runsLater !== undefined)
    throw new Error(
      `sandbox.write: ${shown} ${where === runsLater ? "is among" : `is inside ${runsLater}, among`} the files other programs run or read as settings later, unconfined; a value may not choose it (a recipe may name such a path itself)`,
    );
  if (stat === undefined || !stat.isDirectory()) return;
  if (!entry.folder) throw new Error(`sandbox.write: ${shown} is a folder, and the recipe grants a file there (a write path ending in "/" grants a folder)`);
  if (where === "/" || within(realHome, where))
    throw new Error(`sandbox.write: ${entry.path} would make ${where === "/" ? "the whole file system" : where === realHome ? "the home folder" : `${where}, which holds the home folder,`} writable; a value may name a folder inside the home folder or elsewhere, not ${where}`);
}

/**
 * Files that other programs run later, outside every sandbox: a command that may write one could
 * leave something to run unconfined at the next login, shell or commit. The shell's and the
 * desktop's start-up files and the user's own commands (relative to the home folder), and a Git
 * repository's hooks and config (relative to a folder holding `.git`, whose config can name
 * another hooks folder: the writable folder itself and each folder directly in it; a repository
 * deeper down is not looked for). Inside a writable folder that holds them they stay read-only
 * (those that exist; a missing hooks folder of a repository is made first), and a value never
 * chooses a path among them (startUpPlace, core/sandbox/places.ts).
 */
const HOME_START_UP = [
  ".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile", ".zshrc", ".zshenv", ".zprofile", ".zlogin", ".zlogout",
  ".xprofile", ".xsessionrc", ".xinitrc", ".pam_environment", ".gitconfig", ".ssh", ".gnupg",
  ".config/autostart", ".config/systemd", ".config/environment.d", ".config/git", ".config/fish", ".local/bin", "bin",
];
const REPOSITORY_START_UP = [".git/hooks", ".git/config"];

const isRealFolder = (path: string): boolean => {
  try {
    return lstatSync(path).isDirectory();
  } catch {
    return false;
  }
};

/** the folders directly in `folder` (not through links) */
function foldersIn(folder: string): string[] {
  try {
    return readdirSync(folder, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => join(folder, d.name));
  } catch {
    return [];
  }
}

/** The start-up files (that exist) inside the writable folders `writable`, once each. */
function startUpFilesInside(writable: readonly string[], realHome: string): string[] {
  const found = new Set<string>();
  const keep = (path: string): void => {
    if (kindOf(path) !== undefined) found.add(path);
  };
  for (const folder of writable) {
    if (kindOf(folder) !== "dir") continue;
    // the folder itself and the folders in it (a folder of projects: ~/src/<repository>)
    for (const repository of [folder, ...foldersIn(folder)]) {
      // (a `.git` that is a link leads elsewhere: nothing is made through it)
      if (!isRealFolder(join(repository, ".git"))) continue;
      // a repository without a hooks folder would take one the command made
      mkdirSync(join(repository, ".git", "hooks"), { recursive: true });
      for (const name of REPOSITORY_START_UP) keep(join(repository, name));
    }
    // the home folder's start-up files inside it: all of them when it holds the home folder, some
    // when it is a folder of the home folder's own (`sandbox: true` run from ~/.config)
    for (const name of HOME_START_UP) if (within(join(realHome, name), folder)) keep(join(realHome, name));
  }
  // (a write path the recipe itself names there, `"~/.config/git/"`, is the recipe's choice: kept
  // writable)
  return [...found].filter((path) => !writable.some((grant) => within(grant, path)));
}

/**
 * A read-only path inside a writable folder is not safe by its own mount alone: the command could
 * rename a folder between the two (`mv ~/.pi ~/.pi-old`), which takes the read-only mount along,
 * and make a new folder of the same name to write in, which the registry would then read. A mount
 * point cannot be renamed or removed (EBUSY), so every folder strictly between a writable path and
 * a read-only folder inside it is bound onto itself, writable as before: the way to the read-only
 * folder is then made of mount points only. The arguments, outermost folders first.
 */
function pinnedPaths(readOnly: readonly string[], writable: readonly string[]): string[] {
  const between = new Set<string>();
  for (const folder of readOnly) {
    for (const grant of writable) {
      if (folder === grant || !within(folder, grant)) continue;
      for (let d = dirname(folder); d !== grant && within(d, grant); d = dirname(d)) between.add(d);
    }
  }
  return [...between].sort((a, b) => a.length - b.length).flatMap((d) => ["--bind", d, d]);
}

/**
 * The bwrap arguments of a call: the read-only root, a private /tmp, the working directory
 * (read-only unless a write path covers it), each write path bound writable, the `readOnly`
 * folders (the registry's own: its agent dir, its packaged recipes) bound read-only again over
 * them, then each read_deny path and each of `hidden` (hostControlPaths) hidden (a folder under an
 * empty tmpfs, a file under /dev/null). Hiding comes last, so it wins over a write path that
 * contains it. A path that does not exist has nothing to hide. Throws when a write path cannot be
 * created, or grants more than it may (checkGrant).
 */
export function prepareSandbox(
  bwrap: string, policy: ResolvedSandbox, cwd: string, home: string, readOnly: readonly string[] = [], hidden: readonly string[] = [],
): PreparedSandbox {
  const args = baseArgs(policy.network);
  const realCwd = realOrSelf(cwd);
  const realHome = realOrSelf(home);
  // the working directory may lie under /tmp, which the private /tmp just hid
  args.push("--ro-bind", realCwd, realCwd);
  const writable: string[] = [];
  const pins: SandboxPin[] = [];
  const registry = readOnly.filter((path) => kindOf(path) !== undefined).map(realOrSelf);
  for (const entry of policy.write) {
    // a missing path is judged by its name before anything is made (then, like any other, on what
    // an open of it finds: its folders may be links)
    const missing = kindOf(entry.path) === undefined;
    if (missing) checkGrant(entry, undefined, realHome);
    // inside the registry's own folders nothing can be written, and a path made there before the
    // run would be a file of the registry's (an empty recipe named like a packaged tool blocks it)
    const insideRegistry = (real: string): void => {
      const inside = registry.find((folder) => within(real, folder));
      if (inside !== undefined) throw new Error(`sandbox.write: ${entry.path} is inside ${inside}, the registry's own folder, which stays read-only in every sandbox`);
    };
    insideRegistry(realOfMaybeMissing(entry.path));
    if (missing) makeWritePath(entry);
    // judged on what an open of the path found (where it leads, what it is), and that very file or
    // folder is what is bound: by descriptor, opened again at each run and compared with this
    const pin = openedGrant(entry, realHome);
    insideRegistry(pin.path);
    args.push("--bind", `/proc/self/fd/${FIRST_PIN_FD + pins.length}`, pin.path);
    pins.push(pin);
    writable.push(pin.path);
  }
  // the registry's own folders stay read-only whatever the write paths cover: a confined command
  // must not plant a recipe (one that says `sandbox: false`), edit a ledger or another run's record
  // and so do the files other programs run later (startUpFilesInside), each with the folders
  // between it and its writable folder pinned, so that none can be moved away and replaced
  const kept = [...registry, ...startUpFilesInside(writable, realHome)];
  args.push(...pinnedPaths(kept, writable));
  for (const real of kept) args.push("--ro-bind", real, real);
  // Hiding a path that exists: a folder under an empty read-only one, anything else (a file, a
  // socket) under /dev/null bound read-only. (A path under the host's /tmp that nothing binds again
  // is not there to hide: the private /tmp replaced it, and a mask would only make folders for
  // itself in that /tmp.)
  const rebound = [realCwd, ...writable, ...kept];
  const hide = (path: string, sparing: readonly string[] = []): void => {
    const kind = kindOf(path);
    if (kind === undefined) return;
    const real = realOrSelf(path);
    if (sparing.some((spared) => within(spared, real))) return;
    if (within(real, PRIVATE_TMP) && !rebound.some((folder) => within(real, folder))) return;
    if (kind === "dir") args.push("--tmpfs", real, "--remount-ro", real);
    else args.push("--ro-bind", "/dev/null", real);
  };
  for (const entry of policy.readDeny) hide(entry.path);
  // without the network, the local services' sockets are no way around it either, and the user's
  // credentials have no use inside but to be printed (to the agent that called the tool)
  if (!policy.network) {
    for (const path of SERVICE_SOCKET_FOLDERS) hide(path);
    for (const name of CREDENTIAL_STORES) hide(join(realHome, name));
  }
  // the host's own ways to run a command outside (below): never the root, nor a folder holding the
  // home folder or the working directory (an odd XDG_RUNTIME_DIR), which would hide everything
  for (const path of hidden) hide(path, [realHome, realCwd]);
  return pins.length === 0 ? { bwrap, args } : { bwrap, args, pins };
}

/** Where local services listen on sockets in the file system (PostgreSQL, MySQL and MariaDB,
 *  Redis): hidden when a sandbox has no network, which the user means to cut the step off from
 *  them too (their TCP ports are already out of reach there). */
const SERVICE_SOCKET_FOLDERS = ["/run/postgresql", "/var/run/postgresql", "/run/mysqld", "/var/run/mysqld", "/run/redis", "/var/run/redis"];

/** The usual stores of the user's credentials, relative to the home folder: keys (ssh, GnuPG),
 *  cloud and cluster logins, registry and forge tokens, plain-text passwords. */
const CREDENTIAL_STORES = [
  ".ssh", ".gnupg", ".aws", ".azure", ".config/gcloud", ".kube", ".docker/config.json", ".netrc", ".git-credentials",
  ".npmrc", ".pypirc", ".config/gh", ".config/hub", ".password-store",
];

/**
 * What every sandbox hides, whatever its policy: the sockets through which a confined command could
 * have the host run a command for it, outside the sandbox. A socket in the file system is reached
 * by its path, not through the network, so `network: false` does not cut it, and the read-only root
 * does not either (connecting needs no write to the file system). The session's D-Bus and the user's
 * systemd (`systemd-run --user` starts any command) live in the user's runtime folder
 * (XDG_RUNTIME_DIR, /run/user/<uid>); the system bus in /run/dbus; systemd's own socket (for
 * root); the sockets of container and machine managers start containers or machines (as root,
 * for Docker's, LXD's or libvirt's group); snapd's installs and runs snaps.
 */
export function hostControlPaths(env: Readonly<Record<string, string | undefined>>): string[] {
  const runtime = env["XDG_RUNTIME_DIR"];
  return [
    ...(runtime !== undefined && isAbsolute(runtime) ? [runtime] : []),
    "/run/user",
    "/run/dbus",
    "/var/run/dbus",
    "/run/systemd/private",
    "/run/docker.sock",
    "/var/run/docker.sock",
    "/run/podman",
    "/run/containerd",
    "/run/libvirt",
    "/run/incus",
    "/var/lib/incus/unix.socket",
    "/var/lib/lxd/unix.socket",
    "/var/snap/lxd/common/lxd/unix.socket",
    "/run/snapd.socket",
    "/run/snapd-snap.socket",
  ];
}

/** The write path `entry` opened (symbolic links followed, as a value may name a link to its
 *  file), judged by checkGrant on what the descriptor holds, and kept as that file or folder. */
function openedGrant(entry: SandboxPath, realHome: string): SandboxPin {
  const fd = openSync(entry.path, O_PATH);
  try {
    const real = readlinkSync(`/proc/self/fd/${fd}`);
    const stat = fstatSync(fd);
    checkGrant(entry, { real, stat }, realHome);
    const { dev, ino } = fstatSync(fd, { bigint: true });
    return { path: real, dev: String(dev), ino: String(ino), kind: pinKind(stat) };
  } finally {
    closeSync(fd);
  }
}

/** the descriptor the first pin has in bwrap (after stdin, stdout, stderr) */
const FIRST_PIN_FD = 3;
// opens the path itself, not its contents (no read or write permission needed, no FIFO waits);
// not in node's constants (Linux's value, the same on every architecture node runs bubblewrap on)
const O_PATH = 0o10000000;

/**
 * The write paths opened for one run, each still the file or folder that was checked. bubblewrap
 * binds a path given by name when it mounts it, so a path swapped after the check (a file replaced
 * by a link to `/` by another confined command writing that folder) would be bound instead; a
 * descriptor opened without following a final link, and compared with the checked identity, binds
 * the very thing that was checked, or nothing runs.
 */
function openPins(pins: readonly SandboxPin[]): { readonly fds: number[] } | { readonly error: string } {
  const fds: number[] = [];
  for (const pin of pins) {
    try {
      const fd = openSync(pin.path, O_PATH | constants.O_NOFOLLOW);
      fds.push(fd);
      const now = fstatSync(fd, { bigint: true });
      // (a link where the file was is a link: O_NOFOLLOW opened the link itself)
      const kind = now.isSymbolicLink() ? "link" : pinKind(now);
      if (String(now.dev) !== pin.dev || String(now.ino) !== pin.ino || kind !== pin.kind) throw new Error("it is no longer the file or folder that was checked");
    } catch (e) {
      for (const open of fds) closeSync(open);
      return { error: `sandbox.write: ${pin.path} changed after it was checked (${e instanceof Error ? e.message : String(e)}); nothing ran` };
    }
  }
  return { fds };
}

/** The runner that runs every invocation inside the prepared sandbox, through `inner`. */
export function confinedRunner(inner: ProcessRunner, sandbox: PreparedSandbox): ProcessRunner {
  return makeProcessRunner(`${inner.name}+bwrap`, async (invocation) => {
    const pinned = openPins(sandbox.pins ?? []);
    if ("error" in pinned) return spawnFailure(pinned.error, 0);
    try {
      return await inner.run({
        ...invocation,
        command: sandbox.bwrap,
        args: [...sandbox.args, "--chdir", invocation.cwd, "--", invocation.command, ...invocation.args],
        fds: pinned.fds,
      });
    } finally {
      for (const fd of pinned.fds) closeSync(fd);
    }
  });
}
