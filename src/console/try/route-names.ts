/**
 * The route names a `GET /v1/models` envelope lists, in order and without repeats: the strings, or the `name`,
 * `id`, `alias` or `model` of the objects, found in `metadata.routes`, `metadata.aliases` or `metadata.models`.
 */
export function routeNames(body: unknown): string[] {
  const metadata = (body as { metadata?: unknown } | null | undefined)?.metadata;
  if (typeof metadata !== 'object' || metadata === null) return [];
  const names: string[] = [];
  for (const key of ['routes', 'aliases', 'models']) {
    const list = (metadata as Record<string, unknown>)[key];
    const entries = Array.isArray(list)
      ? list
      : typeof list === 'object' && list !== null
        ? Object.keys(list)
        : [];
    for (const entry of entries) {
      const name = typeof entry === 'string' ? entry : nameOf(entry);
      if (name !== undefined && !names.includes(name)) names.push(name);
    }
  }
  return names;
}

function nameOf(entry: unknown): string | undefined {
  if (typeof entry !== 'object' || entry === null) return undefined;
  for (const key of ['name', 'id', 'alias', 'model']) {
    const value = (entry as Record<string, unknown>)[key];
    if (typeof value === 'string' && value !== '') return value;
  }
  return undefined;
}
