// The confined runner on the real bubblewrap: values stay exactly one argv item each (no shell
// is involved anywhere, and this holds for hostile values), and the policy's paths become the
// mounts docs/sandbox.md describes. Needs bwrap: without it these tests fail, they never skip.
import fc from "fast-check";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { confinedRunner, hostControlPaths, prepareSandbox, probeBubblewrap, type PreparedSandbox } from "../../../adapters/process/bwrap.js";
import { nodeProcessRunner } from "../../../adapters/process/node-runner.js";

let dir: string;
let sandbox: PreparedSandbox;
let script: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "pi-recipes-bwrap-"));
  script = join(dir, "argv.cjs");
  writeFileSync(script, "process.stdout.write(JSON.stringify(process.argv.slice(2)));\n");
  const available = probeBubblewrap(process.env);
  if (!available.ok) throw new Error(`bubblewrap cannot run here (${available.reason}): these tests need it`);
  sandbox = prepareSandbox(available.path, { network: false, write: [], readDeny: [] }, dir, dir);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const argvOf = async (values: readonly string[]): Promise<unknown> => {
  const r = await confinedRunner(nodeProcessRunner, sandbox).run({ command: process.execPath, args: [script, ...values], cwd: dir });
  if (r.code !== 0) throw new Error(`exit ${r.code}: ${Buffer.from(r.stderr).toString()}`);
  return JSON.parse(Buffer.from(r.stdout).toString()) as unknown;
};

// NUL cannot be in an argv item at all (the runner refuses it before anything starts)
const hostileChar = fc.oneof(
  fc.constantFrom("'", '"', "$(", ")", "`", "\n", "\r", "\\", ";", "&", "|", "*", "?", "~", "{", "}", " ", "\t", "--", "-", "--chdir", "--bind", "$HOME", "\u00ff", "\u{1f600}"),
  fc.string({ unit: "binary", maxLength: 3 }).filter((s) => !s.includes("\0")),
);
const hostileValue = fc.array(hostileChar, { maxLength: 8 }).map((parts) => parts.join(""));

describe("confined runner", () => {
  it("keeps every value one argv item, whatever it holds (quotes, $(), newlines, binary, option-like words)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(hostileValue, { minLength: 1, maxLength: 4 }), async (values) => {
        expect(await argvOf(values)).toEqual(values);
      }),
      { numRuns: 25 },
    );
  });

  it("a value that looks like a bwrap option after the command is the command's argument, not bwrap's", async () => {
    expect(await argvOf(["--bind", "/", "/", "--", "--unshare-all"])).toEqual(["--bind", "/", "/", "--", "--unshare-all"]);
  });

  it("a write path that does not exist yet is created (a folder when it ends with /, else an empty file) and bound writable", async () => {
    const place = join(dir, "place");
    mkdirSync(place);
    const prepared = prepareSandbox(probeOk().path, {
      network: false,
      write: [{ path: join(place, "new", "out.txt"), folder: false, fromValue: true }, { path: join(place, "newdir"), folder: true, fromValue: true }],
      readDeny: [],
    }, place, place);
    const r = await confinedRunner(nodeProcessRunner, prepared).run({
      command: "sh",
      args: ["-c", 'echo one > new/out.txt && echo two > newdir/x.txt && { echo three > other.txt || echo refused >&2; }'],
      cwd: place,
    });
    expect(readFileSync(join(place, "new", "out.txt"), "utf8")).toBe("one\n");
    expect(readFileSync(join(place, "newdir", "x.txt"), "utf8")).toBe("two\n");
    expect(Buffer.from(r.stderr).toString()).toContain("refused");
  });

  it("a write path the call's values chose grants no more than the recipe wrote: a file is no folder, a folder is not / nor the home folder nor above it", () => {
    const home = join(dir, "grant-home");
    const work = join(home, "work");
    mkdirSync(work, { recursive: true });
    writeFileSync(join(work, "existing.txt"), "x");
    symlinkSync(work, join(work, "link-to-folder"));
    const grant = (path: string, folder: boolean, fromValue = true) => () =>
      prepareSandbox(probeOk().path, { network: false, write: [{ path, folder, fromValue }], readDeny: [] }, work, home);
    // a file grant (`{out}`) given a folder, directly or through a link
    expect(grant(work, false)).toThrow(`sandbox.write: ${work} is a folder, and the recipe grants a file there`);
    expect(grant(join(work, "link-to-folder"), false)).toThrow(`${join(work, "link-to-folder")} (${work}) is a folder`);
    // a folder grant (`{dir}/`) given the root, the home folder or a folder above it
    expect(grant("/", true)).toThrow("would make the whole file system writable");
    expect(grant(home, true)).toThrow("would make the home folder writable");
    expect(grant(dir, true)).toThrow(`would make ${dir}, which holds the home folder, writable`);
    // a device, or a file of the kernel's own file systems, is no output file
    expect(grant("/dev/null", false)).toThrow("sandbox.write: /dev/null is no regular file or folder");
    expect(grant("/proc/self/environ", false)).toThrow("is no regular file or folder");
    // nor a file to be made there (refused before it is made)
    expect(grant("/dev/shm/pi-recipes-never-made", false)).toThrow("is no regular file or folder");
    expect(existsSync("/dev/shm/pi-recipes-never-made")).toBe(false);
    // a value may not lead out of the folder the recipe names before it (`build/{name}/`), by
    // `..` or through a link
    mkdirSync(join(work, "build"));
    symlinkSync(home, join(work, "build", "up"));
    const under = (path: string) => () =>
      prepareSandbox(probeOk().path, { network: false, write: [{ path, folder: true, fromValue: true, under: join(work, "build") }], readDeny: [] }, work, home);
    expect(under(join(work, "escaped"))).toThrow(`sandbox.write: ${join(work, "escaped")} is outside ${join(work, "build")}`);
    expect(under(join(work, "build", "up"))).toThrow("is outside");
    expect(under(join(work, "build", "made"))).not.toThrow();
    // what the recipe wrote is granted: a file (existing or new), a folder inside home; and a path
    // the recipe itself names (no value chose it) is the recipe's to name
    expect(grant(join(work, "existing.txt"), false)).not.toThrow();
    expect(grant(join(work, "new.txt"), false)).not.toThrow();
    expect(grant(join(work, "sub"), true)).not.toThrow();
    expect(grant(work, true)).not.toThrow();
    expect(grant(home, true, false)).not.toThrow();
  });

  it("a read-only folder inside a writable one cannot be swapped out: the folders between them cannot be renamed, and stay writable", async () => {
    // as `sandbox: true` run from the home folder holds the agent dir (~/.pi/agent)
    const home = join(dir, "swap-home");
    const agent = join(home, ".pi", "agent");
    mkdirSync(join(agent, "recipes"), { recursive: true });
    writeFileSync(join(agent, "recipes", "mine.json"), "{}");
    const prepared = prepareSandbox(probeOk().path, { network: false, write: [{ path: home, folder: true, fromValue: false }], readDeny: [] }, home, home, [agent]);
    const sh = (script: string) => confinedRunner(nodeProcessRunner, prepared).run({ command: "sh", args: ["-c", script], cwd: home });
    // moving the folder that holds the agent dir away, to plant a recipe in a new one of that name
    const swap = await sh("mv .pi .pi-old; mv .pi/agent .pi/agent-old; mkdir -p .pi/agent/recipes && echo planted > .pi/agent/recipes/evil.json");
    expect(Buffer.from(swap.stderr).toString()).toContain("Device or resource busy");
    expect(existsSync(join(home, ".pi-old"))).toBe(false);
    expect(existsSync(join(agent, "recipes", "mine.json"))).toBe(true);
    expect(existsSync(join(agent, "recipes", "evil.json"))).toBe(false);
    // the rest stays the command's to write, the folders between included
    expect((await sh("echo ok > .pi/note.txt && mkdir other && echo ok > other/x.txt")).code).toBe(0);
    expect(readFileSync(join(home, ".pi", "note.txt"), "utf8")).toBe("ok\n");
    expect(readFileSync(join(home, "other", "x.txt"), "utf8")).toBe("ok\n");
  });

  it("a write path swapped after its check (for a link to a folder) is not bound: the run fails and nothing is written there", async () => {
    const place = join(dir, "swap-after-check");
    const victim = join(dir, "swap-victim");
    mkdirSync(place);
    mkdirSync(victim);
    const out = join(place, "out.txt");
    const outDir = join(place, "outdir");
    const prepared = prepareSandbox(probeOk().path, {
      network: false,
      write: [{ path: out, folder: false, fromValue: true }, { path: outDir, folder: true, fromValue: true }],
      readDeny: [],
    }, place, place);
    const run = () => confinedRunner(nodeProcessRunner, prepared).run({ command: "sh", args: ["-c", "touch out.txt/pwned; touch outdir/pwned; echo ran"], cwd: place });
    // unchanged, it runs (and may write inside the granted folder)
    expect(Buffer.from((await run()).stdout).toString()).toBe("ran\n");
    expect(existsSync(join(outDir, "pwned"))).toBe(true);
    // what another confined command writing this folder could do between the check and the mount
    rmSync(out);
    symlinkSync(victim, out);
    const swapped = await run();
    expect(swapped.code).not.toBe(0);
    expect(Buffer.from(swapped.stderr).toString()).toContain(`sandbox.write: ${out} changed after it was checked`);
    expect(Buffer.from(swapped.stdout).toString()).toBe("");
    expect(existsSync(join(victim, "pwned"))).toBe(false);
    // a folder replaced by another folder (moved into its place) is another folder too
    const folderOnly = prepareSandbox(probeOk().path, { network: false, write: [{ path: outDir, folder: true, fromValue: true }], readDeny: [] }, place, place);
    const runFolder = () => confinedRunner(nodeProcessRunner, folderOnly).run({ command: "sh", args: ["-c", "echo ran"], cwd: place });
    expect(Buffer.from((await runFolder()).stdout).toString()).toBe("ran\n");
    mkdirSync(join(place, "elsewhere"));
    rmSync(outDir, { recursive: true });
    renameSync(join(place, "elsewhere"), outDir);
    expect(Buffer.from((await runFolder()).stderr).toString()).toContain(`${outDir} changed after it was checked`);
  });

  it("hides the host's command sockets it is given (a folder, a socket), but never the root, the home folder or the working directory", () => {
    const home = join(dir, "hidden-home");
    const work = join(home, "work");
    // (inside the working directory: the rest of this test's /tmp folder is not there to hide)
    const runtime = join(work, "hidden-runtime");
    const socket = join(work, "docker.sock");
    mkdirSync(runtime, { recursive: true });
    writeFileSync(socket, "");
    writeFileSync(join(dir, "elsewhere-in-tmp.sock"), "");
    const args = prepareSandbox(probeOk().path, { network: false, write: [], readDeny: [] }, work, home, [], [runtime, socket, join(dir, "absent"), join(dir, "elsewhere-in-tmp.sock"), "/", home, work]).args.join(" ");
    expect(args).toContain(`--tmpfs ${runtime} --remount-ro ${runtime}`);
    expect(args).toContain(`--ro-bind /dev/null ${socket}`);
    // under the host's /tmp and bound by nothing: already gone with the private /tmp
    expect(args).not.toContain("elsewhere-in-tmp");
    expect(args).not.toContain("absent");
    expect(args).not.toContain("--tmpfs / ");
    expect(args).not.toContain(`--tmpfs ${home} `);
    expect(args).not.toContain(`--tmpfs ${work} `);
    // without the network, the local services' socket folders are hidden too (this machine has
    // PostgreSQL's; elsewhere a folder made here stands in for none)
    if (existsSync("/run/postgresql")) {
      const sandboxed = (network: boolean) => prepareSandbox(probeOk().path, { network, write: [], readDeny: [] }, work, home).args.join(" ");
      expect(sandboxed(false)).toContain("--tmpfs /run/postgresql --remount-ro /run/postgresql");
      expect(sandboxed(true)).not.toContain("/run/postgresql");
    } else console.log("no /run/postgresql on this machine: the service socket folders are not checked here");
    // the list: the runtime folder the environment names, then the well-known places
    expect(hostControlPaths({ XDG_RUNTIME_DIR: "/run/user/1000" }).slice(0, 3)).toEqual(["/run/user/1000", "/run/user", "/run/dbus"]);
    expect(hostControlPaths({ XDG_RUNTIME_DIR: "relative" })[0]).toBe("/run/user");
  });

  it("a write path inside the registry's own folders is refused before anything is made there (an empty recipe would block a tool)", () => {
    const agent = join(dir, "plant-agent");
    const work = join(dir, "plant-work");
    mkdirSync(join(agent, "recipes"), { recursive: true });
    mkdirSync(work);
    symlinkSync(join(agent, "recipes"), join(work, "into-recipes"));
    const grant = (path: string, folder: boolean) => () =>
      prepareSandbox(probeOk().path, { network: false, write: [{ path, folder, fromValue: true }], readDeny: [] }, work, work, [agent]);
    const refusal = `is inside ${agent}, the registry's own folder, which stays read-only in every sandbox`;
    expect(grant(join(agent, "recipes", "word_count.json"), false)).toThrow(refusal);
    expect(grant(join(agent, "recipes", "new", "deep.json"), false)).toThrow(refusal);
    expect(grant(join(agent, "recipes", "made"), true)).toThrow(refusal);
    expect(grant(join(work, "into-recipes", "linked.json"), false)).toThrow(refusal);
    expect(readdirSync(join(agent, "recipes"))).toEqual([]);
    // beside it, as before
    expect(grant(join(work, "out.json"), false)).not.toThrow();
    expect(existsSync(join(work, "out.json"))).toBe(true);
  });

  it("files other programs run later stay read-only inside a writable folder: a repository's hooks and config, the home folder's start-up files", async () => {
    const home = join(dir, "later-home");
    const repo = join(home, "repo");
    mkdirSync(join(repo, ".git", "objects"), { recursive: true });
    writeFileSync(join(repo, ".git", "config"), "[core]\n");
    writeFileSync(join(home, ".bashrc"), "# mine\n");
    mkdirSync(join(home, ".config", "systemd", "user"), { recursive: true });
    const sh = async (cwd: string, script: string) => {
      const prepared = prepareSandbox(probeOk().path, { network: false, write: [{ path: cwd, folder: false, fromValue: false, fromCwd: true }], readDeny: [] }, cwd, home);
      const r = await confinedRunner(nodeProcessRunner, prepared).run({ command: "sh", args: ["-c", script], cwd });
      return { code: r.code, out: Buffer.from(r.stdout).toString(), err: Buffer.from(r.stderr).toString() };
    };
    // `sandbox: true` in a repository: a hook (its folder made first), the config, or the .git
    // folder moved away and copied back, none of it lands
    const inRepo = await sh(repo, "echo evil > .git/hooks/pre-commit; echo '[core] hooksPath = x' >> .git/config; mv .git .git-old; touch .git/objects/ok; echo work > work.txt");
    expect(inRepo.err).toContain("Read-only file system");
    expect(inRepo.err).toContain("Device or resource busy");
    expect(existsSync(join(repo, ".git", "hooks", "pre-commit"))).toBe(false);
    expect(readFileSync(join(repo, ".git", "config"), "utf8")).toBe("[core]\n");
    expect(existsSync(join(repo, ".git", "objects", "ok"))).toBe(true);
    expect(readFileSync(join(repo, "work.txt"), "utf8")).toBe("work\n");
    // a repository directly in the writable folder (a folder of projects) is kept too
    const nested = await sh(home, "echo evil > repo/.git/hooks/post-checkout; echo ok > repo/free.txt");
    expect(nested.err).toContain("Read-only file system");
    expect(existsSync(join(repo, ".git", "hooks", "post-checkout"))).toBe(false);
    expect(existsSync(join(repo, "free.txt"))).toBe(true);
    // `sandbox: true` from the home folder: its start-up files and folders stay as they were
    const inHome = await sh(home, "echo evil >> .bashrc; echo evil > .config/systemd/user/x.service; mv .config .config-old; echo ok > notes.txt");
    expect(inHome.err).toContain("Read-only file system");
    expect(readFileSync(join(home, ".bashrc"), "utf8")).toBe("# mine\n");
    expect(existsSync(join(home, ".config", "systemd", "user", "x.service"))).toBe(false);
    expect(existsSync(join(home, ".config-old"))).toBe(false);
    expect(readFileSync(join(home, "notes.txt"), "utf8")).toBe("ok\n");
    // run from a folder of the home folder's own that holds some of them (~/.config), those stay
    const inConfig = await sh(join(home, ".config"), "echo evil > systemd/user/y.service; echo ok > app.conf");
    expect(inConfig.err).toContain("Read-only file system");
    expect(existsSync(join(home, ".config", "systemd", "user", "y.service"))).toBe(false);
    expect(readFileSync(join(home, ".config", "app.conf"), "utf8")).toBe("ok\n");
    // and a value never chooses a path among them
    const valueGrant = (path: string) => () =>
      prepareSandbox(probeOk().path, { network: false, write: [{ path, folder: false, fromValue: true }], readDeny: [] }, repo, home);
    expect(valueGrant(join(home, ".bashrc"))).toThrow(`sandbox.write: ${join(home, ".bashrc")} is among the files other programs run or read as settings later`);
    expect(valueGrant(join(home, ".config", "autostart", "x.desktop"))).toThrow(`is inside ${join(home, ".config")}`);
    expect(valueGrant(join(home, "bin", "ls"))).toThrow(`is inside ${join(home, "bin")}`);
    expect(valueGrant(join(repo, ".git", "hooks", "post-checkout"))).toThrow(`is inside ${join(repo, ".git")}`);
    expect(existsSync(join(home, ".config", "autostart"))).toBe(false);
    expect(valueGrant(join(repo, "out.txt"))).not.toThrow();
  });

  it("without the network, the user's credential stores are hidden; with it, read_deny decides", async () => {
    const home = join(dir, "cred-home");
    mkdirSync(join(home, ".aws"), { recursive: true });
    writeFileSync(join(home, ".aws", "credentials"), "SECRET-AWS\n");
    writeFileSync(join(home, ".netrc"), "SECRET-NETRC\n");
    writeFileSync(join(home, "notes.txt"), "PUBLIC\n");
    const read = async (network: boolean) => {
      const prepared = prepareSandbox(probeOk().path, { network, write: [], readDeny: [] }, home, home);
      const r = await confinedRunner(nodeProcessRunner, prepared).run({ command: "sh", args: ["-c", "cat .aws/credentials .netrc notes.txt"], cwd: home });
      return Buffer.from(r.stdout).toString();
    };
    const offline = await read(false);
    expect(offline).not.toContain("SECRET");
    expect(offline).toContain("PUBLIC");
    expect(await read(true)).toContain("SECRET-AWS");
  });

  it("a grant of the working directory (`.`, `sandbox: true`) is refused when that is the root, not when it is a project or home", () => {
    const cwdGrant = (cwd: string) => () =>
      prepareSandbox(probeOk().path, { network: false, write: [{ path: cwd, folder: false, fromValue: false, fromCwd: true }], readDeny: [] }, cwd, join(dir, "grant-home"));
    expect(cwdGrant("/")).toThrow("sandbox.write: / is the root, so a grant of the working directory would leave nothing read-only");
    expect(cwdGrant(dir)).not.toThrow();
    // the recipe's own absolute `/` is its author's to write (and no value chose it)
    expect(() => prepareSandbox(probeOk().path, { network: false, write: [{ path: "/", folder: true, fromValue: false }], readDeny: [] }, dir, dir)).not.toThrow();
  });
});

function probeOk(): { readonly path: string } {
  const available = probeBubblewrap(process.env);
  if (!available.ok) throw new Error(available.reason);
  return available;
}
