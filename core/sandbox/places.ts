// The places a sandbox's write grant is judged by, as arithmetic on absolute, normalized POSIX
// paths. One rule for both who may choose a write path: a caller's value, judged where the sandbox
// is built (adapters/process/bwrap.ts), and an agent writing a recipe through register_tool with
// PI_RECIPES_SANDBOX=on (core/register/validate-content.ts).

/** `inner` is `outer` or lies inside it (so every path lies inside `/`). */
export const within = (inner: string, outer: string): boolean => inner === outer || inner.startsWith(outer.endsWith("/") ? outer : `${outer}/`);

/**
 * The place among the files other programs run or read later, outside every sandbox, that `path`
 * lies in, if any: an entry of the home folder `home` whose name starts with a dot (all of them:
 * the shell's and the desktop's start-up files and settings live there, and new ones can be made
 * there) or `~/bin` (on the user's PATH), or a `.git` folder anywhere (its hooks and config run at
 * the next commit).
 */
export function startUpPlace(path: string, home: string): string | undefined {
  if (path !== home && within(path, home)) {
    const first = path.slice(home.length + (home.endsWith("/") ? 0 : 1)).split("/")[0]!;
    if (first.startsWith(".") || first === "bin") return `${home}/${first}`;
  }
  const names = path.split("/");
  const git = names.indexOf(".git");
  return git < 0 ? undefined : names.slice(0, git + 1).join("/");
}
