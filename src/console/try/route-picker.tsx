import type { RouteGroup } from './read-catalog.js';

/** The select value standing for "type a route". */
const ANOTHER = '\u0000another';

/** Props of {@link RoutePicker}. */
export interface RoutePickerProps {
  /** The select's label. */
  label: string;
  /** The routes to offer, grouped (aliases first). */
  groups: readonly RouteGroup[];
  /** The route chosen or typed. */
  value: string;
  /** True when the route was typed rather than picked. */
  typed: boolean;
  /** Called with a route picked from the list. */
  onPick: (route: string) => void;
  /** Called with the text of a typed route (empty when "Another route" is chosen). */
  onType: (route: string) => void;
}

/**
 * A route picker: the routes `GET /v1/models` offers, grouped by provider with the aliases first, and
 * "Another route" for typing any `provider:model`.
 */
export function RoutePicker({ label, groups, value, typed, onPick, onType }: RoutePickerProps) {
  const listed = groups.some((g) => g.routes.some((r) => r.route === value));
  const typing = typed || !listed;
  return (
    <div class="route-picker">
      <label>
        {label}
        <select
          value={typing ? ANOTHER : value}
          onChange={(event) => {
            const chosen = event.currentTarget.value;
            if (chosen === ANOTHER) onType(value);
            else onPick(chosen);
          }}
        >
          {groups.map((group) => (
            <optgroup key={group.label} label={group.label}>
              {group.routes.map((r) => (
                <option key={r.route} value={r.route}>
                  {r.label}
                </option>
              ))}
            </optgroup>
          ))}
          <option value={ANOTHER}>Another route: type provider:model</option>
        </select>
      </label>
      {typing && (
        <label>
          {`${label} to send`}
          <input
            value={value}
            required
            spellcheck={false}
            autocomplete="off"
            placeholder="provider:model or an alias"
            onInput={(event) => onType(event.currentTarget.value)}
          />
        </label>
      )}
    </div>
  );
}
