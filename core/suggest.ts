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

/** The known word nearest to `word`, when it is near enough to be a plausible typo. */
export function closest(word: string, known: Iterable<string>): string | undefined {
  const limit = Math.max(1, Math.floor(word.length / 3));
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const k of known) {
    const d = editDistance(word.toLowerCase(), k.toLowerCase());
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
