// The name every journal file ends with, apart from the journal's codecs (core/journal/record.ts):
// a command checks for pending journals by this suffix before it loads any of the journal engine.

/** journal files are `<plan id>.journal.json` in their folder */
export const JOURNAL_SUFFIX = ".journal.json";

const ASIDE = ".quarantined";

/** The name recovery gives a journal it cannot trust (`<id>.journal.json.quarantined`, then
 *  `-1`, `-2`, ... when that is taken): no journal name any more, so recovery passes it by, and
 *  the recipe views list it by this name. */
export const quarantinedName = (file: string, n: number): string => `${file}${ASIDE}${n === 0 ? "" : `-${n}`}`;

/** Whether `name` is one quarantinedName made. */
export function isQuarantinedJournal(name: string): boolean {
  const at = name.lastIndexOf(`${JOURNAL_SUFFIX}${ASIDE}`);
  return at >= 0 && /^(?:-\d+)?$/.test(name.slice(at + JOURNAL_SUFFIX.length + ASIDE.length));
}

/** What a command says of a journal its recovery set aside (`what`: whose journal it is); the
 *  views tell these notes apart from others by SET_ASIDE. */
export const SET_ASIDE = " was not applied and was kept as ";
export const setAsideNote = (what: string, o: { readonly id: string; readonly quarantinedAs: string; readonly reason: string }): string =>
  `${what} journal ${o.id}${SET_ASIDE}${o.quarantinedAs}: ${o.reason}`;
