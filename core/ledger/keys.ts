// Names the ledger files by: path keys (a recipe's path relative to the recipe root), lineage
// names (the basename without `.json`/`.md`) and ledger ids (the file name stem of a ledger).

/** `x.json` / `drafts/x.md` for a path inside the root, undefined for one outside it (packaged
 *  components, ad hoc files: they get no ledger) or for the usage store itself. */
export function pathKey(recipeRoot: string, path: string): string | undefined {
  const root = recipeRoot.endsWith("/") ? recipeRoot.slice(0, -1) : recipeRoot;
  if (!path.startsWith(`${root}/`)) return undefined;
  const key = path.slice(root.length + 1);
  const parts = key.split("/");
  if (parts.some((p) => p === "" || p === "." || p === "..") || parts[0] === ".usage") return undefined;
  return key;
}

/** The lineage (tool) name of a path key: its basename without a trailing `.json` or `.md`. */
export function lineageName(key: string): string {
  const base = key.slice(key.lastIndexOf("/") + 1);
  if (base.endsWith(".json") && base.length > 5) return base.slice(0, -5);
  if (base.endsWith(".md") && base.length > 3) return base.slice(0, -3);
  return base;
}

/** The key (or path) of the same tool in the other recipe format (`x.json` for `x.md` and back); the key
 *  itself for one that is neither. */
export function otherFormat(key: string): string {
  if (key.endsWith(".json")) return `${key.slice(0, -5)}.md`;
  if (key.endsWith(".md")) return `${key.slice(0, -3)}.json`;
  return key;
}

/** The ledger file name of an id; `%2E` keeps `.` and `..` from naming a folder. */
export const ledgerFileName = (id: string): string => `${encodeURIComponent(id).replace(/^\./, "%2E")}.json`;

/** The id for a lineage named `name`: the name itself while free, else `name/2`, `name/3`…
 *  (`/` cannot occur in a name, so a suffixed id never equals another recipe's name). */
export function allocateId(name: string, inUse: (id: string) => boolean): string {
  if (!inUse(name)) return name;
  for (let n = 2; ; n++) if (!inUse(`${name}/${n}`)) return `${name}/${n}`;
}
