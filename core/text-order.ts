// The one order of text in the registry: by UTF-16 code units, as `<` compares strings. It does
// not depend on the host's locale or ICU data, so tool lists, views, ledgers and journals come out
// the same on every machine.

/** -1, 0 or 1 as `a` sorts before, with or after `b`. */
export const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
