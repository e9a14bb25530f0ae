// "Did you mean ...?": the closest known word to a mistyped one, for argument names, recipe
// fields, CLI verbs and keys.

/** Edit distance (insertions, deletions, substitutions, and swaps of neighbours). */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    const row: number[] = [i];
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        row.push(j);
        continue;
      }
      const up = rows[i - 1]!;
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(up[j]! + 1, row[j - 1]! + 1, up[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      row.push(d);
    }
    rows.push(row);
  }
  return rows[a.length]![b.length]!;
}

/** Longer than this, a word is no typo of a name: nothing is suggested for it (the distance of
 *  two words costs the product of their lengths, and a recipe field named by a million letters
 *  took a cold listing a minute and a gigabyte). */
export const MAX_SUGGESTED_LENGTH = 128;

/** The known word nearest to `word`, when it is near enough to be a plausible typo. */
export function closest(word: string, known: Iterable<string>): string | undefined {
  if (word.length > MAX_SUGGESTED_LENGTH) return undefined;
  const limit = Math.max(1, Math.floor(word.length / 3));
  const lower = word.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const k of known) {
    // the distance is at least the difference of the lengths: too far without computing it
    if (Math.abs(k.length - word.length) > limit) continue;
    const d = editDistance(lower, k.toLowerCase());
    if (d < bestDistance && d <= limit) {
      best = k;
      bestDistance = d;
    }
  }
  return best;
}

/** ` Did you mean "x"?`, or nothing. */
export const didYouMean = (word: string, known: Iterable<string>): string => {
  const near = closest(word, known);
  return near === undefined ? "" : ` Did you mean "${near}"?`;
};
