// A disk that can lose power, under FileSystem ports that can die. The model is what POSIX
// promises, not what a kind file system usually gives:
//
// - File data written since the file's last fsync (handle.sync) is not durable. At a power
//   failure each such file independently keeps its new bytes, falls back to its last synced
//   bytes (a new file: empty), is cut short at any length, or holds garbage over part of it.
//   Data belongs to the inode: a hard link shares it, a rename carries it.
// - A directory entry change (create, unlink, rename, link, symlink, mkdir, rmdir) is not
//   durable until every folder it touched has been fsynced (fsyncDir) after it; a rename needs
//   both of its folders. At a power failure each such change independently survives or is undone
//   (newest first; an undo that later changes made meaningless is skipped). Fsyncing a file does
//   not make its name durable.
// - What was durable stays. So a mutation that returned, and that its caller then made durable,
//   survives every later power failure: acknowledged means durable, and the checks can demand it.
// - Not modelled: `rm` of a folder tree is durable at once (only cleanup code uses it); utimes.
//
// Choices are made by a seeded generator, so a failing case replays exactly. Without a seed the
// failure is the worst case: every non-durable change is undone and all unsynced data falls back.
//
// A process is a port over the disk (`disk.process()`). It dies when the disk loses power, or
// alone (`kill()`), which loses nothing the disk had accepted. Every mutation of any process is
// counted on the disk; the disk loses power before mutation number `failAt`.
import { dirname, posix } from "node:path";
import type { Volume } from "memfs";
import type { MemFileSystem } from "../../adapters/fs/memfs.js";
import { isSimulatedCrash, SimulatedCrash } from "./crash-error.js";
import { processView, type ProcessView } from "./crash-process.js";

export { isSimulatedCrash, SimulatedCrash, type ProcessView };

const EMPTY = new Uint8Array(0);

/** a file that lost its name; its bytes come back if the change that removed it is undone.
 *  `synced`: its durable bytes when it was not synced (its inode number may be reused since). */
interface Ghost {
  readonly bytes: Uint8Array;
  readonly synced: Uint8Array | undefined;
}

type Change =
  | { readonly kind: "create"; readonly path: string; readonly ino: number }
  | { readonly kind: "mkdir"; readonly path: string; readonly ino: number }
  | { readonly kind: "unlink"; readonly path: string; readonly ghost: Ghost }
  | { readonly kind: "rmdir"; readonly path: string }
  | { readonly kind: "rename"; readonly from: string; readonly to: string; readonly ino: number; readonly replaced: Ghost | undefined };

interface Pending {
  readonly change: Change;
  readonly label: string;
  /** folders still to be fsynced before the change is durable */
  readonly folders: Set<string>;
}

/** a name's node; `bytes`: a file's content (read on first use), undefined for anything else */
interface Node {
  readonly ino: number;
  readonly nlink: number;
  readonly kind: string;
  readonly bytes: Uint8Array | undefined;
}

/** mulberry32: small, seedable, good enough to pick crash outcomes */
function generator(seed: number): (n: number) => number {
  let a = seed >>> 0;
  return (n) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}

export class CrashDisk {
  /** mutations completed by all processes */
  mutations = 0;
  powerLost = false;
  readonly trace: string[] = [];
  /** inode → its bytes as of its last fsync, for inodes written since */
  private readonly dirty = new Map<number, Uint8Array>();
  private readonly pending: Pending[] = [];
  /** mutations under way in other processes; a power failure lets them land (not durable) first */
  private readonly inflight = new Set<Promise<unknown>>();

  /** @param failAt the disk loses power before this mutation (Infinity: only on `powerFail`) */
  constructor(readonly inner: MemFileSystem, readonly failAt: number = Infinity, readonly seed?: number) {}

  get vol(): Volume {
    return this.inner.vol;
  }

  /** What is at `path` now (nothing: undefined); a file's bytes are read when asked for, as most
   *  callers only need the inode or already know the bytes they would keep. */
  private node(path: string): Node | undefined {
    let st;
    try {
      st = this.vol.lstatSync(path);
    } catch {
      return undefined;
    }
    const kind = st.isDirectory() ? "dir" : st.isFile() ? "file" : "other";
    const vol = this.vol;
    let bytes: Uint8Array | undefined;
    return {
      ino: Number(st.ino),
      nlink: Number(st.nlink),
      kind,
      get bytes() {
        if (kind === "file" && bytes === undefined) bytes = new Uint8Array(vol.readFileSync(path) as Buffer);
        return bytes;
      },
    };
  }

  /** the file at a name about to go; its inode's tracking ends with its last name */
  private ghost(n: Node): Ghost | undefined {
    if (n.bytes === undefined) return undefined;
    const ghost = { bytes: n.bytes, synced: this.dirty.get(n.ino) };
    if (n.nlink <= 1) this.dirty.delete(n.ino);
    return ghost;
  }

  private record(change: Change, label: string, folders: readonly string[]): void {
    this.pending.push({ change, label, folders: new Set(folders) });
  }

  /** the inode at `path` is being written: remember its durable bytes first */
  private dirtying(path: string): void {
    const n = this.node(path);
    if (n === undefined || n.kind !== "file" || this.dirty.has(n.ino)) return;
    this.dirty.set(n.ino, n.bytes ?? EMPTY);
  }

  /** Runs one mutation: counts it, loses power first when it is the fatal one. */
  async mutate<A>(label: string, run: () => Promise<A>): Promise<A> {
    if (this.powerLost) throw new SimulatedCrash(`${label} (power is off)`, -1);
    if (this.mutations >= this.failAt) {
      this.trace.push(`CRASH before ${label}`);
      await this.powerFail();
      throw new SimulatedCrash(label, this.mutations);
    }
    this.mutations++;
    this.trace.push(label);
    const running = run();
    this.inflight.add(running);
    try {
      const result = await running;
      // power failed while it ran (another process's mutation): never acknowledged
      if (this.powerLost) throw new SimulatedCrash(`${label} (power failed while it ran)`, -1);
      return result;
    } catch (e) {
      if (this.powerLost && !isSimulatedCrash(e)) throw new SimulatedCrash(`${label} (power failed while it ran)`, -1);
      throw e;
    } finally {
      this.inflight.delete(running);
    }
  }

  // ---- the effects each kind of mutation has on the model, around the real operation ----

  /** a mutation that may create `path`; `fresh`: a new inode (not a link to an existing one) */
  async create<A>(path: string, label: string, fresh: boolean, run: () => Promise<A>): Promise<A> {
    const before = this.node(path);
    // a create that fails (EEXIST from `wx` or link) wrote nothing: the existing file keeps its
    // durable bytes; one that succeeds over an existing file (a truncating write) dirtied it
    const durable = before !== undefined && before.kind === "file" && !this.dirty.has(before.ino) ? before : undefined;
    // (its bytes are read now, before the write replaces them)
    const durableBytes = durable === undefined ? undefined : (durable.bytes ?? EMPTY);
    const result = await run();
    if (durable !== undefined && !this.dirty.has(durable.ino)) this.dirty.set(durable.ino, durableBytes!);
    const after = this.node(path);
    if (before === undefined && after !== undefined) {
      if (fresh && after.kind === "file") this.dirty.set(after.ino, EMPTY);
      this.record({ kind: "create", path, ino: after.ino }, label, [dirname(path)]);
    }
    return result;
  }

  written(path: string): void {
    this.dirtying(path);
  }

  synced(path: string): void {
    const n = this.node(path);
    if (n !== undefined) this.dirty.delete(n.ino);
  }

  async rename(from: string, to: string, label: string, run: () => Promise<void>): Promise<void> {
    const moved = this.node(from);
    const replaced = this.node(to);
    // a replaced file's bytes are its ghost's: read them before the rename replaces them
    if (replaced !== undefined && replaced.ino !== moved?.ino) void replaced.bytes;
    await run();
    if (moved === undefined) return;
    const ghost = replaced === undefined || replaced.ino === moved.ino ? undefined : this.ghost(replaced);
    this.record({ kind: "rename", from, to, ino: moved.ino, replaced: ghost }, label, [dirname(from), dirname(to)]);
  }

  async unlink(path: string, label: string, run: () => Promise<void>): Promise<void> {
    const gone = this.node(path);
    // read before the name goes: they are the ghost's bytes
    void gone?.bytes;
    await run();
    const ghost = gone === undefined ? undefined : this.ghost(gone);
    if (ghost !== undefined) this.record({ kind: "unlink", path, ghost }, label, [dirname(path)]);
  }

  async mkdir(path: string, recursive: boolean, label: string, run: () => Promise<void>): Promise<void> {
    const missing: string[] = [];
    for (let d = path; this.node(d) === undefined && (recursive || d === path); d = dirname(d)) {
      missing.unshift(d);
      if (dirname(d) === d) break;
    }
    await run();
    for (const d of missing) {
      const n = this.node(d);
      if (n !== undefined) this.record({ kind: "mkdir", path: d, ino: n.ino }, label, [dirname(d)]);
    }
  }

  async rmdir(path: string, label: string, run: () => Promise<void>): Promise<void> {
    await run();
    this.record({ kind: "rmdir", path }, label, [dirname(path)]);
  }

  fsyncedDir(path: string): void {
    for (let i = this.pending.length - 1; i >= 0; i--) {
      const p = this.pending[i]!;
      p.folders.delete(path);
      if (p.folders.size === 0) this.pending.splice(i, 1);
    }
  }

  // ---- the power failure ----

  /** Loses power now: every process dies, non-durable changes are lost as the model says. */
  async powerFail(): Promise<void> {
    if (this.powerLost) return;
    this.powerLost = true;
    await Promise.allSettled([...this.inflight]);
    const pick = this.seed === undefined ? undefined : generator(this.seed);
    // each unsynced inode's fate, decided on the bytes it has now (ghosts: when they lost their name)
    const fateOf = (synced: Uint8Array): ((current: Uint8Array) => Uint8Array) => {
      const choice = pick === undefined ? 0 : pick(4);
      const cut = pick === undefined ? 0 : pick(1 << 16);
      const noise = pick === undefined ? 0 : pick(1 << 30);
      return (current) => {
        if (choice === 0) return synced;
        if (choice === 1) return current;
        if (choice === 2) return current.slice(0, current.length === 0 ? 0 : cut % (current.length + 1));
        const out = current.length === 0 ? new Uint8Array(1 + (noise % 8)) : current.slice();
        const from = out.length === 0 ? 0 : noise % out.length;
        for (let i = from; i < Math.min(out.length, from + 1 + (noise % 16)); i++) out[i] = (noise >>> (i % 24)) & 0xff;
        return out;
      };
    };
    const fate = new Map<number, (current: Uint8Array) => Uint8Array>();
    for (const [ino, synced] of this.dirty) fate.set(ino, fateOf(synced));
    const ghostBytes = (g: Ghost): Uint8Array => (g.synced === undefined ? g.bytes : fateOf(g.synced)(g.bytes));
    const restored = new Map<string, Uint8Array>();
    for (const p of [...this.pending].reverse()) {
      if (pick !== undefined && pick(2) === 0) continue;
      this.trace.push(`  lost: ${p.label}`);
      this.undo(p.change, ghostBytes, restored);
    }
    this.pending.length = 0;
    for (const path of this.files("/")) {
      const restoredBytes = restored.get(path);
      if (restoredBytes !== undefined) {
        this.vol.writeFileSync(path, restoredBytes);
        continue;
      }
      // only a file whose data was not synced has a fate to apply
      const n = this.node(path)!;
      const applyFate = fate.get(n.ino);
      if (applyFate !== undefined) this.vol.writeFileSync(path, applyFate(n.bytes!));
    }
    this.dirty.clear();
  }

  private undo(change: Change, ghostBytes: (g: Ghost) => Uint8Array, restored: Map<string, Uint8Array>): void {
    const vol = this.vol;
    const free = (path: string): boolean => this.node(path) === undefined && this.node(dirname(path))?.kind === "dir";
    switch (change.kind) {
      case "create":
        if (this.node(change.path)?.ino === change.ino) vol.unlinkSync(change.path);
        return;
      case "mkdir":
        if (this.node(change.path)?.ino === change.ino) vol.rmSync(change.path, { recursive: true, force: true });
        return;
      case "unlink":
        if (free(change.path)) {
          vol.writeFileSync(change.path, EMPTY);
          restored.set(change.path, ghostBytes(change.ghost));
        }
        return;
      case "rmdir":
        if (free(change.path)) vol.mkdirSync(change.path);
        return;
      case "rename":
        if (this.node(change.to)?.ino !== change.ino || !free(change.from)) return;
        vol.renameSync(change.to, change.from);
        if (restored.has(change.to)) {
          restored.set(change.from, restored.get(change.to)!);
          restored.delete(change.to);
        }
        if (change.replaced !== undefined) {
          vol.writeFileSync(change.to, EMPTY);
          restored.set(change.to, ghostBytes(change.replaced));
        }
        return;
    }
  }

  private files(dir: string): string[] {
    const out: string[] = [];
    for (const name of this.vol.readdirSync(dir) as string[]) {
      const path = posix.join(dir, String(name));
      const st = this.vol.lstatSync(path);
      if (st.isDirectory()) out.push(...this.files(path));
      else if (st.isFile()) out.push(path);
    }
    return out;
  }

  /** A process on this disk. */
  process(name = "process"): ProcessView {
    return processView(this, name);
  }
}
