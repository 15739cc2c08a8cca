/**
 * Edit distance between two words, counting an insertion, a deletion, a substitution or a swap of two neighbours
 * as one edit (so `normalzie` is one edit from `normalize`).
 */
function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number) => rows[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, at(i - 2, j - 2) + 1);
      const row = rows[i];
      if (row !== undefined) row[j] = best;
    }
  }
  return at(a.length, b.length);
}

/** Longest words compared: a command-line word longer than this is not a typo of a name. */
const MAX_WORD = 64;

/**
 * The known name closest to a word that is not one, for a "did you mean" hint on an unknown command or option:
 * the unique name the word starts (`--tool-def` → `tool-definition`), else the nearest name within a third of the
 * word's length in edits (at least one), the first listed on a tie; `undefined` when nothing is that close.
 * Case is ignored.
 * @example suggestClosest('normalise', ['validate', 'normalize']) // 'normalize'
 */
export function suggestClosest(word: string, names: readonly string[]): string | undefined {
  const typed = word.toLowerCase();
  if (typed === '' || typed.length > MAX_WORD) return undefined;
  const started = names.filter((name) => typed.length >= 3 && name.toLowerCase().startsWith(typed));
  if (started.length === 1) return started[0];
  const limit = Math.max(1, Math.floor(typed.length / 3));
  let best: { name: string; distance: number } | undefined;
  for (const name of names) {
    if (Math.abs(name.length - typed.length) > limit) continue;
    const distance = editDistance(typed, name.toLowerCase());
    if (distance <= limit && (best === undefined || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}
