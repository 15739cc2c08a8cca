/** Deepest level a tree shows; deeper values are shown as JSON text. */
const MAX_DEPTH = 8;

/** Most members or items shown per level. */
const MAX_ITEMS = 100;

function Leaf({ value }: { value: unknown }) {
  if (typeof value === 'string') return <span class="str">{JSON.stringify(value)}</span>;
  return <span class="lit">{JSON.stringify(value) ?? String(value)}</span>;
}

/** A member's name as a JSON Pointer token (`~` and `/` escaped). */
function tokenOf(key: string): string {
  return key.replaceAll('~', '~0').replaceAll('/', '~1');
}

/** Props of {@link JsonTree}. */
export interface JsonTreeProps {
  /** The value to show. */
  value: unknown;
  /**
   * Messages by the JSON Pointer of the value they are about (a schema's violations): each such member is
   * marked and says its message beside it, so the mark is never colour alone.
   */
  marks?: ReadonlyMap<string, string>;
  /** The pointer of `value` inside the whole tree ('' at the root). */
  pointer?: string;
  /** How deep `value` is. */
  depth?: number;
}

/** A JSON value as a nested list of names and values, for people to read a structured answer. */
export function JsonTree({ value, marks, pointer = '', depth = 0 }: JsonTreeProps) {
  if (typeof value !== 'object' || value === null) return <Leaf value={value} />;
  const entries: [string, unknown][] = Array.isArray(value)
    ? value.map((item, index) => [String(index), item])
    : Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return <span class="lit">{Array.isArray(value) ? '[]' : '{}'}</span>;
  if (depth >= MAX_DEPTH) return <code>{JSON.stringify(value)}</code>;
  return (
    <ul class="tree">
      {entries.slice(0, MAX_ITEMS).map(([key, item]) => {
        const at = `${pointer}/${tokenOf(key)}`;
        const mark = marks?.get(at);
        return (
          <li key={key} class={mark === undefined ? undefined : 'violation'}>
            <span class="key">{key}</span>
            {': '}
            <JsonTree
              value={item}
              depth={depth + 1}
              pointer={at}
              {...(marks === undefined ? {} : { marks })}
            />
            {mark !== undefined && <span class="why"> ✗ {mark}</span>}
          </li>
        );
      })}
      {entries.length > MAX_ITEMS && <li class="hint">… {entries.length - MAX_ITEMS} more</li>}
    </ul>
  );
}
