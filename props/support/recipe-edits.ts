// Random edits of a real recipe root, shared by the properties of the caches that must answer as
// a discovery without them would: writes, rewrites that keep the size and force one mtime (edits
// inside one timestamp tick), renames, deletes, imports, drafts, symbolic links named like
// recipes and stray entries (never loaded, but said while they are there), and a drafts folder
// that cannot be listed (said while it lasts: a file in its place, which fails a listing as a
// folder of mode 000 does, also for root).
import { existsSync, lstatSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fc } from "@fast-check/vitest";

export const NAMES = ["r0", "r1", "r2", "r3"];

export type Op =
  | { readonly kind: "write"; readonly k: number; readonly variant: number; readonly md: boolean }
  | { readonly kind: "sameTick"; readonly k: number; readonly future: boolean }
  | { readonly kind: "rename"; readonly k: number; readonly j: number }
  | { readonly kind: "delete"; readonly k: number }
  | { readonly kind: "draft"; readonly k: number; readonly variant: number; readonly sameTick: boolean }
  | { readonly kind: "undraft"; readonly k: number }
  | { readonly kind: "link"; readonly k: number }
  | { readonly kind: "unlink"; readonly k: number }
  | { readonly kind: "stray"; readonly k: number }
  | { readonly kind: "unstray"; readonly k: number }
  | { readonly kind: "blockDrafts" }
  | { readonly kind: "unblockDrafts" }
  | { readonly kind: "check" };

export const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant("write" as const), k: fc.nat(3), variant: fc.nat(6), md: fc.boolean() }),
  fc.record({ kind: fc.constant("sameTick" as const), k: fc.nat(3), future: fc.boolean() }),
  fc.record({ kind: fc.constant("rename" as const), k: fc.nat(3), j: fc.nat(3) }),
  fc.record({ kind: fc.constant("delete" as const), k: fc.nat(3) }),
  fc.record({ kind: fc.constant("draft" as const), k: fc.nat(1), variant: fc.nat(5), sameTick: fc.boolean() }),
  fc.record({ kind: fc.constant("undraft" as const), k: fc.nat(1) }),
  fc.record({ kind: fc.constant("link" as const), k: fc.nat(1) }),
  fc.record({ kind: fc.constant("unlink" as const), k: fc.nat(1) }),
  fc.record({ kind: fc.constant("stray" as const), k: fc.nat(2) }),
  fc.record({ kind: fc.constant("unstray" as const), k: fc.nat(2) }),
  fc.constant({ kind: "blockDrafts" as const }),
  fc.constant({ kind: "unblockDrafts" as const }),
  fc.constant({ kind: "check" as const }),
);

const linkAt = (root: string, k: number): string => join(root, `linked${k}.json`);
/** entries meant as recipes by their names but never loaded: a folder named like one, an
 *  upper-case ending, a YAML file */
const strayAt = (root: string, k: number): string => join(root, ["folder.json", "Upper.JSON", "notes.yaml"][k]!);
const isThere = (path: string): boolean => {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
};

/** Recipe texts: the first two have the same size and differ in what `list` shows (the second is
 *  disabled, so it is no tool), the next import others. */
export function text(k: number, variant: number, md: boolean): string {
  const other = NAMES[(k + 1 + (variant % 2)) % NAMES.length]!;
  if (variant < 2) {
    const disabled = variant === 0 ? "false" : " true";
    if (md) return `---\ndescription: d${k}\ndisabled: ${disabled}\n---\n\n\`\`\`template\necho ${variant === 0 ? "A" : "B"}${k} {x}\n\`\`\`\n`;
    return `{"description":"d${k}","template":"echo ${variant === 0 ? "A" : "B"}${k} {x}","disabled":${disabled}}`;
  }
  const body =
    variant === 2 ? { description: `d${k}`, imports: { part: other }, template: [`echo I${k}`, { name: "part" }] }
    : variant === 3 ? { description: `d${k}`, imports: { part: other }, template: [{ name: "part" }, `echo J${k}`] }
    : variant === 4 ? { description: `d${k}`, template: other }
    : variant === 5 ? {
        description: `d${k}`,
        args: ["n:int", "mode:enum(a,b)", "dry:bool"],
        arg_descriptions: { n: "how many" },
        defaults: { mode: "a" },
        template: [`echo R${k} {n}`, { label: "two", retry: 2, template: "echo {mode} {dry} {out=o.txt}" }],
      }
    : undefined;
  if (body === undefined) return "{ not json";
  if (!md) return JSON.stringify(body);
  return `---\ndescription: d${k}\n---\n\n\`\`\`template\n${typeof body.template === "string" ? body.template : "echo md"}\n\`\`\`\n`;
}

/** Applies `o` to the recipe root `root`. `fixed` is the one time forced mtimes take (see the
 *  properties); with `blindCtime` it is in the future. */
export function applyEdit(root: string, o: Op, fixed: Date, blindCtime: boolean): void {
  const path = (k: number, md: boolean): string => join(root, `${NAMES[k]}.${md ? "md" : "json"}`);
  const existing = (k: number): string | undefined => [path(k, false), path(k, true)].find((p) => existsSync(p));
  const drafts = join(root, "drafts");
  const draft = (k: number): string => join(drafts, `${NAMES[k]}.json`);
  // where the drafts folder waits while a file stands in its place (outside the root)
  const aside = join(dirname(root), "drafts-aside");
  const blocked = (): boolean => isThere(drafts) && !lstatSync(drafts).isDirectory();
  switch (o.kind) {
    case "write":
      writeFileSync(path(o.k, o.md), text(o.k, o.variant, o.md));
      break;
    case "sameTick": {
      // toggle between two texts of equal size, and give the file the one fixed mtime
      const p = existing(o.k) ?? path(o.k, false);
      const md = p.endsWith(".md");
      const was = existsSync(p) ? readFileSync(p, "utf8") : "";
      writeFileSync(p, text(o.k, was === text(o.k, 0, md) ? 1 : 0, md));
      const t = o.future || blindCtime ? fixed : new Date(fixed.getTime() - 1000);
      utimesSync(p, t, t);
      break;
    }
    case "rename": {
      const from = existing(o.k);
      if (from !== undefined && o.k !== o.j) renameSync(from, path(o.j, from.endsWith(".md")));
      break;
    }
    case "delete": {
      const p = existing(o.k);
      if (p !== undefined) rmSync(p);
      break;
    }
    case "draft": {
      // a draft (a Discovery lists them); variants 0 and 1 have the same size, and with
      // `sameTick` the one fixed mtime
      if (blocked()) break;
      mkdirSync(drafts, { recursive: true });
      writeFileSync(draft(o.k), text(o.k, o.variant, false));
      if (o.sameTick) utimesSync(draft(o.k), fixed, fixed);
      break;
    }
    case "undraft":
      if (!blocked()) rmSync(draft(o.k), { force: true });
      break;
    case "blockDrafts":
      if (blocked()) break;
      if (isThere(drafts)) renameSync(drafts, aside);
      writeFileSync(drafts, "");
      break;
    case "unblockDrafts":
      if (!blocked()) break;
      rmSync(drafts);
      if (isThere(aside)) renameSync(aside, drafts);
      break;
    case "link":
      // to a recipe outside the root (link 0) or to one of the root's own names (link 1, maybe
      // dangling)
      if (!isThere(linkAt(root, o.k))) {
        const outside = join(dirname(root), "outside.json");
        if (!existsSync(outside)) writeFileSync(outside, text(0, 0, false));
        symlinkSync(o.k === 0 ? outside : path(0, false), linkAt(root, o.k));
      }
      break;
    case "unlink":
      rmSync(linkAt(root, o.k), { force: true });
      break;
    case "stray":
      if (o.k === 0) mkdirSync(strayAt(root, o.k), { recursive: true });
      else writeFileSync(strayAt(root, o.k), text(0, 0, false));
      break;
    case "unstray":
      rmSync(strayAt(root, o.k), { recursive: true, force: true });
      break;
    case "check":
      break;
  }
}
