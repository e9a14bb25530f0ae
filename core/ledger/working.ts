// A working copy of the ledger store for one commit: the index, the ledgers it touches, and the
// writes and deletes that turn the old store into the new one. The pure operations (fold, seed,
// move) drive it; the runtime commits the resulting plan in one journaled step.
import type { IndexEntry, LedgerIndex, LedgerRecord } from "./codec.js";
import { allocateId, otherFormat } from "./keys.js";
import { freshLedger, moved, moveType } from "./transitions.js";

/** What the runtime read before planning. `ledgers` holds every ledger the plan may touch: those
 *  of the keys involved and of the relocation candidates (missing keys with a matching
 *  fingerprint); `missing` holds index keys whose recipe file no longer exists. */
export interface LedgerSnapshot {
  readonly index: LedgerIndex;
  readonly ledgers: ReadonlyMap<string, LedgerRecord>;
  readonly missing: ReadonlySet<string>;
}

export interface LedgerPlan {
  readonly index: LedgerIndex;
  /** ledger id → complete new record */
  readonly writes: ReadonlyMap<string, LedgerRecord>;
  /** ledger ids whose files go */
  readonly deletes: readonly string[];
  readonly diagnostics: readonly string[];
  /** false when committing would change nothing */
  readonly changed: boolean;
}

/** A key this pass attaches, with its content's fingerprint. */
export interface Claim {
  readonly key: string;
  readonly fingerprint: string;
}

export class Working {
  readonly paths: Record<string, IndexEntry>;
  readonly applied: Record<string, number>;
  private readonly ledgers: Map<string, LedgerRecord>;
  private readonly inUse: Set<string>;
  private readonly writes = new Map<string, LedgerRecord>();
  private readonly deletes = new Set<string>();
  readonly diagnostics: string[] = [];
  private dirty = false;

  constructor(private readonly snapshot: LedgerSnapshot) {
    this.paths = { ...snapshot.index.paths };
    this.applied = { ...snapshot.index.applied };
    this.ledgers = new Map(snapshot.ledgers);
    this.inUse = new Set(Object.values(snapshot.index.paths).map((e) => e.ledger));
  }

  touch(): void {
    this.dirty = true;
  }

  ledger(id: string): LedgerRecord | undefined {
    return this.ledgers.get(id);
  }

  /** the lineage of an indexed key, when its ledger could be read */
  lookup(key: string): { id: string; record: LedgerRecord } | undefined {
    const entry = this.paths[key];
    if (entry === undefined) return undefined;
    const record = this.ledgers.get(entry.ledger);
    return record === undefined ? undefined : { id: entry.ledger, record };
  }

  put(key: string, id: string, record: LedgerRecord): void {
    const before = this.ledgers.get(id);
    if (before !== record) {
      this.ledgers.set(id, record);
      this.writes.set(id, record);
      this.deletes.delete(id);
      this.dirty = true;
    }
    const entry = this.paths[key];
    if (entry?.ledger !== id || entry.fingerprint !== record.fingerprint) {
      this.paths[key] = { ledger: id, fingerprint: record.fingerprint };
      this.dirty = true;
    }
    this.inUse.add(id);
  }

  /** removes a key from the index and, when no other key refers to it, its ledger */
  drop(key: string): void {
    const entry = this.paths[key];
    if (entry === undefined) return;
    delete this.paths[key];
    this.dirty = true;
    if (Object.values(this.paths).some((e) => e.ledger === entry.ledger)) return;
    this.inUse.delete(entry.ledger);
    this.ledgers.delete(entry.ledger);
    this.writes.delete(entry.ledger);
    this.deletes.add(entry.ledger);
  }

  allocate(name: string): string {
    return allocateId(name, (id) => this.inUse.has(id));
  }

  /**
   * The lineage a key belongs to, created or followed if need be: an indexed key keeps its own;
   * an unindexed key follows the one former recipe that is gone and had the same fingerprint
   * (an external rename or move), and starts a fresh zero-call lineage otherwise.
   */
  attach(key: string, name: string, fingerprint: string, at: string, claims?: readonly Claim[]): { id: string; record: LedgerRecord } {
    const own = this.lookup(key);
    if (own !== undefined) return own;
    if (this.paths[key] !== undefined) {
      this.diagnostics.push(`Usage ledger of ${key} is unreadable; its lineage starts again.`);
      this.drop(key);
    }
    // (the key itself is not in the index at this point)
    // the same tool in its other format (x.json rewritten as x.md): its lineage goes on, whatever
    // the content (a changed one is a new revision of it), when the other file is gone, or when
    // this one is a recipe's .json beside its .md (the .json shadows it: the tool is this file
    // now, whichever was written first). Not when another new file of this pass (`claims`) holds
    // that lineage's very content: x.json moved to y.json, then a new x.md written; y.json is the
    // tool, followed by its content.
    const sibling = otherFormat(key);
    if (
      sibling !== key &&
      this.lookup(sibling) !== undefined &&
      !this.claimedByContent(sibling, key, claims) &&
      (this.snapshot.missing.has(sibling) || (key.endsWith(".json") && !key.startsWith("drafts/")))
    )
      return this.relocate(sibling, key, name, at);
    const candidates = Object.keys(this.paths)
      .filter((k) => this.snapshot.missing.has(k) && this.paths[k]!.fingerprint === fingerprint && this.lookup(k) !== undefined)
      .sort();
    if (candidates.length === 1) return this.relocate(candidates[0]!, key, name, at);
    if (candidates.length > 1)
      this.diagnostics.push(
        `Usage lineage of ${key} not followed: ${candidates.length} former recipes share its fingerprint (${candidates.join(", ")}); it starts a new lineage.`,
      );
    const id = this.allocate(name);
    if (id !== name) {
      const holder = Object.entries(this.paths).find(([, e]) => e.ledger === name)?.[0] ?? name;
      this.diagnostics.push(`Usage lineage name ${name} is held by ${holder}; ${key} keeps its own lineage as ${id}.`);
    }
    const record = freshLedger({ name, key, fingerprint, at });
    this.put(key, id, record);
    return { id, record };
  }

  /** Whether another key of this pass, not indexed yet, has the content of `sibling`'s lineage
   *  while its file is gone: that key follows it by content, and `key` (its other format) does
   *  not take it. */
  private claimedByContent(sibling: string, key: string, claims: readonly Claim[] | undefined): boolean {
    const held = this.paths[sibling]?.fingerprint;
    // only a lineage whose file is gone can be followed by content at all
    if (!this.snapshot.missing.has(sibling)) return false;
    return claims !== undefined && held !== undefined && claims.some((c) => c.key !== key && c.key !== sibling && c.fingerprint === held && this.paths[c.key] === undefined);
  }

  /** moves the lineage of `fromKey` to `toKey` (named `name`); the old key leaves the index */
  relocate(fromKey: string, toKey: string, name: string, at: string, type?: "renamed" | "moved" | "promoted" | "demoted"): { id: string; record: LedgerRecord } {
    const from = this.lookup(fromKey)!;
    const record = moved(from.record, { name, key: toKey, type: type ?? moveType(fromKey, toKey, from.record.lineage_name, name), at });
    this.drop(fromKey);
    const id = from.record.lineage_name === name && !this.inUse.has(from.id) ? from.id : this.allocate(name);
    this.put(toKey, id, record);
    return { id, record };
  }

  plan(): LedgerPlan {
    // put() takes an id out of the deletes and drop() out of the writes, so the two never overlap
    const deletes = [...this.deletes].sort();
    return {
      index: { paths: this.paths, applied: this.applied },
      writes: this.writes,
      deletes,
      diagnostics: this.diagnostics,
      changed: this.dirty,
    };
  }
}
