// vitest's setupFiles: two of memfs's per-lookup costs, removed for the test processes. The crash
// properties walk memfs paths millions of times (docs/testing.md has the profile), and two things
// on that walk do nothing the tests can observe:
//
// - every directory lookup (`Link.getChild`) stamps the directory's access time with a new Date.
//   Nothing in this repository reads an access time (a file's identity is device, inode, size,
//   modification and change times), so lookups here behave like a file system mounted `noatime`.
//   Every write still sets modification and change times as before.
// - every path is turned into its steps with `path.resolve(process.cwd(), path)`. An absolute path
//   that is already normal (no empty, `.` or `..` segment, no trailing slash) resolves to itself,
//   so its steps are its segments; any other path still goes through `resolve`.
//
// The classes are reached through a volume's own objects rather than imported from memfs's
// internal packages, so the patch applies to exactly the code memfs runs. test/support/
// memfs-lookups.test.ts checks the fast steps against memfs's own rule (resolve, then split) and
// that a patched volume still finds, lists and refuses paths as memfs does.
import { Volume } from "memfs";

interface LinkLike {
  children: Map<string, unknown>;
  getChild(name: string): unknown;
}
interface SuperblockLike {
  root: LinkLike;
  filenameToSteps(filename: string): string[];
}

/** segments `resolve` would change: an empty one (`//`), `.` or `..`, or a trailing slash */
const NOT_NORMAL = /\/\/|\/\.\.?(?:\/|$)|.\/$/;

/** the steps of `filename` as memfs's `filenameToSteps` makes them, or undefined to ask it */
export function normalSteps(filename: unknown): string[] | undefined {
  if (typeof filename !== "string" || filename.charCodeAt(0) !== 47 /* "/" */ || NOT_NORMAL.test(filename)) return undefined;
  return filename.length === 1 ? [] : filename.slice(1).split("/");
}

const PATCHED = Symbol.for("pi-recipes.memfs-lookups");

export function patchMemfsLookups(): void {
  const core = (new Volume() as unknown as { _core: SuperblockLike })._core;
  const superblock = Object.getPrototypeOf(core) as SuperblockLike & { [PATCHED]?: true };
  if (superblock[PATCHED] === true) return;
  const link = Object.getPrototypeOf(core.root) as LinkLike;
  const toSteps = superblock.filenameToSteps;
  superblock.filenameToSteps = function (this: SuperblockLike, filename: string): string[] {
    return normalSteps(filename) ?? toSteps.call(this, filename);
  };
  link.getChild = function (this: LinkLike, name: string): unknown {
    return this.children.get(name);
  };
  superblock[PATCHED] = true;
}

patchMemfsLookups();
