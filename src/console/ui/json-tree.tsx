/** Deepest level a tree shows; deeper values are shown as JSON text. */
const MAX_DEPTH = 8;

/** Most members or items shown per level. */
const MAX_ITEMS = 100;

function Leaf({ value }: { value: unknown }) {
  if (typeof value === 'string') return <span class="str">{JSON.stringify(value)}</span>;
  return <span class="lit">{JSON.stringify(value) ?? String(value)}</span>;
}

/** A JSON value as a nested list of names and values, for people to read a structured answer. */
export function JsonTree({ value, depth = 0 }: { value: unknown; depth?: number }) {
  if (typeof value !== 'object' || value === null) return <Leaf value={value} />;
  const entries: [string, unknown][] = Array.isArray(value)
    ? value.map((item, index) => [String(index), item])
    : Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return <span class="lit">{Array.isArray(value) ? '[]' : '{}'}</span>;
  if (depth >= MAX_DEPTH) return <code>{JSON.stringify(value)}</code>;
  return (
    <ul class="tree">
      {entries.slice(0, MAX_ITEMS).map(([key, item]) => (
        <li key={key}>
          <span class="key">{key}</span>
          {': '}
          <JsonTree value={item} depth={depth + 1} />
        </li>
      ))}
      {entries.length > MAX_ITEMS && <li class="hint">… {entries.length - MAX_ITEMS} more</li>}
    </ul>
  );
}
