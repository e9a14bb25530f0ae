// The name every journal file ends with, apart from the journal's codecs (core/journal/record.ts):
// a command checks for pending journals by this suffix before it loads any of the journal engine.

/** journal files are `<plan id>.journal.json` in their folder */
export const JOURNAL_SUFFIX = ".journal.json";
