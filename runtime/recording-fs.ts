// A file system port that remembers what was read through it: each file read (or found by a
// stat), each folder listed with what it held, each path looked at that was a folder or nothing
// at all. A cache of a result computed through it (runtime/view-cache.ts) can then tell, later,
// that none of what the computation read has changed. Anything it cannot vouch for makes the
// record `opaque`: a write of any kind (the computation had an effect, so skipping it would skip
// that effect), a read that failed for another reason than "not there", a symlink looked at
// without following it, a path resolved through links.
import { isFsError, type DirEntry, type FileSystem, type FileStat } from "../adapters/fs/FileSystem.js";

export interface FsReads {
  /** files read, or found by a stat (their identity is what a cache compares) */
  readonly files: ReadonlySet<string>;
  /** folders listed: each entry as `kind/name`, sorted; null: no folder there */
  readonly dirs: ReadonlyMap<string, readonly string[] | null>;
  /** paths a stat found to be a folder ("dir") or nothing (null) */
  readonly kinds: ReadonlyMap<string, "dir" | null>;
  /** something was written, or read in a way not recorded here */
  readonly opaque: boolean;
}

export const listingOf = (entries: readonly { readonly name: string; readonly kind: string }[]): string[] =>
  entries.map((e) => `${e.kind}/${e.name}`).sort();

const nothing = (): void => undefined;
/** the failure codes that mean "nothing there" (recorded as such, and so compared later) */
export const isNotThere = (code: string): boolean => code === "ENOENT" || code === "ENOTDIR";
const missing = (e: unknown): boolean => isFsError(e) && isNotThere(e.code);

export function recordingFs(fs: FileSystem): { readonly fs: FileSystem; reads(): FsReads } {
  const files = new Set<string>();
  const dirs = new Map<string, readonly string[] | null>();
  const kinds = new Map<string, "dir" | null>();
  let opaque = false;

  /** runs a read; "not there" is recorded by `absent`, any other failure makes the record opaque */
  const read = async <A>(run: () => Promise<A>, absent: () => void): Promise<A> => {
    try {
      return await run();
    } catch (e) {
      if (missing(e)) absent();
      else opaque = true;
      throw e;
    }
  };
  const stat = (p: string, follow: boolean): Promise<FileStat> =>
    read(
      async () => {
        const st = await (follow ? fs.stat(p) : fs.lstat(p));
        if (st.kind === "file") files.add(p);
        else if (st.kind === "dir") kinds.set(p, "dir");
        else opaque = true;
        return st;
      },
      () => kinds.set(p, null),
    );
  const write = <A extends unknown[], R>(run: (...a: A) => Promise<R>) => (...a: A): Promise<R> => {
    opaque = true;
    return run(...a);
  };

  const recorded: FileSystem = {
    name: fs.name,
    capabilities: fs.capabilities,
    // a file read is compared by its identity, which is "no regular file" when it was not there
    readFile: (p) => (files.add(p), read(() => fs.readFile(p), nothing)),
    readAt: (p, position, length) => (files.add(p), read(() => fs.readAt(p, position, length), nothing)),
    open: (p, flag, mode) => {
      if (flag !== "r") opaque = true;
      files.add(p);
      return read(() => fs.open(p, flag, mode), nothing);
    },
    readdir: (p) =>
      read(
        async (): Promise<readonly DirEntry[]> => {
          const entries = await fs.readdir(p);
          dirs.set(p, listingOf(entries));
          return entries;
        },
        () => dirs.set(p, null),
      ),
    stat: (p) => stat(p, true),
    lstat: (p) => stat(p, false),
    realpath: (p) => {
      opaque = true;
      return fs.realpath(p);
    },
    readlink: (p) => {
      opaque = true;
      return fs.readlink(p);
    },
    writeFile: write(fs.writeFile.bind(fs)),
    rename: write(fs.rename.bind(fs)),
    unlink: write(fs.unlink.bind(fs)),
    mkdir: write(fs.mkdir.bind(fs)),
    rmdir: write(fs.rmdir.bind(fs)),
    rm: write(fs.rm.bind(fs)),
    symlink: write(fs.symlink.bind(fs)),
    link: write(fs.link.bind(fs)),
    fsyncDir: write(fs.fsyncDir.bind(fs)),
    utimes: write(fs.utimes.bind(fs)),
    ...(fs.chmod === undefined ? {} : { chmod: write(fs.chmod.bind(fs)) }),
  };
  return { fs: recorded, reads: () => ({ files, dirs, kinds, opaque }) };
}
