// Lists of distinct names kept in first-seen order (argument names, free-text placeholders). Most
// hold a handful, where an array's `includes` is the cheapest test; a recipe may hold thousands
// (150,000 placeholders fit in one file), where it made each addition cost the whole list. Past
// SMALL entries a set kept beside the list answers instead.

const SMALL = 64;
const sets = new WeakMap<string[], Set<string>>();

/** Appends `name` to `list` unless it holds it already. `list` holds distinct names; a list that
 *  was also appended to directly is indexed again (its set's size no longer matches). */
export function addNew(list: string[], name: string): void {
  if (list.length < SMALL) {
    if (!list.includes(name)) list.push(name);
    return;
  }
  let set = sets.get(list);
  if (set === undefined || set.size !== list.length) sets.set(list, (set = new Set(list)));
  if (set.has(name)) return;
  set.add(name);
  list.push(name);
}
