/** One column of Compare: the route it sends to, and whether it was typed rather than picked from the list. */
export interface Column {
  /** The route or `provider:model`. */
  model: string;
  /** True when typed: a typed route is the user's and never changed for them. */
  typed: boolean;
}

/**
 * The columns with a route from `offered` in every picked column whose route is not on offer, each a route no
 * other column sends to while there are such routes left: with two routes on offer, two columns compare two
 * different routes, never one route with itself.
 */
export function pickRoutes(columns: readonly Column[], offered: readonly string[]): Column[] {
  const kept = columns.map((column) => column.typed || offered.includes(column.model));
  const used = new Set(columns.filter((_, index) => kept[index]).map((column) => column.model));
  return columns.map((column, index) => {
    if (kept[index]) return column;
    const model =
      offered.find((route) => !used.has(route)) ?? offered[index % Math.max(offered.length, 1)] ?? '';
    used.add(model);
    return { model, typed: false };
  });
}
