import { useEffect, useRef, useState } from 'preact/hooks';
import { describeProviderVariables, providerVariables } from '../../gateway/config/provider-variables.js';
import { type Catalog, readCatalog } from '../try/read-catalog.js';
import { fetchModels, type GatewayConnection } from '../try/send-request.js';
import { Callout } from './callout.js';

/** What keeps a view from sending anything, found when the routes are loaded. */
export type Blocked = 'needs_key' | 'no_provider';

/** Where the Connection panel is and what it should do next, shared by a view and its callouts. */
export interface ConnectionState {
  /** The gateway and key. */
  connection: GatewayConnection;
  /** Replaces them. */
  setConnection: (connection: GatewayConnection) => void;
  /** Whether the panel is unfolded. */
  open: boolean;
  /** Folds or unfolds it. */
  setOpen: (open: boolean) => void;
  /** Unfolds the panel and puts the focus in its key field. */
  askForKey: () => void;
  /** Counts the requests to focus the key field; the panel focuses it each time this changes. */
  keyRequests: number;
}

/** The Connection panel's state, kept by each view that talks to the gateway. */
export function useConnection(): ConnectionState {
  const [connection, setConnection] = useState<GatewayConnection>({ baseUrl: '', key: '' });
  const [open, setOpen] = useState(false);
  const [keyRequests, setKeyRequests] = useState(0);
  return {
    connection,
    setConnection,
    open,
    setOpen,
    keyRequests,
    askForKey: () => {
      setOpen(true);
      setKeyRequests((n) => n + 1);
    },
  };
}

/** The Connection panel: where the gateway is and its key, folded away until needed. */
export function ConnectionPanel({
  state,
  keyRequired,
  onReload,
}: {
  state: ConnectionState;
  /** The gateway refused a call without a key: the key field says it is needed. */
  keyRequired: boolean;
  onReload: () => void;
}) {
  const { connection, setConnection: onChange } = state;
  const keyField = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (state.keyRequests > 0) keyField.current?.focus();
  }, [state.keyRequests]);
  return (
    <details
      class="connection panel"
      open={state.open}
      onToggle={(event) => state.setOpen(event.currentTarget.open)}
    >
      <summary>Connection</summary>
      <form
        class="grid"
        onSubmit={(event) => {
          event.preventDefault();
          onReload();
        }}
      >
        <label>
          Gateway URL (empty: this page's server)
          <input
            type="url"
            value={connection.baseUrl}
            placeholder="http://127.0.0.1:8787"
            onInput={(e) => onChange({ ...connection, baseUrl: e.currentTarget.value })}
          />
        </label>
        <label>
          {keyRequired ? 'Gateway key (this gateway needs one)' : 'Gateway key (optional)'}
          <input
            ref={keyField}
            type="password"
            autocomplete="off"
            required={keyRequired}
            value={connection.key}
            onInput={(e) => onChange({ ...connection, key: e.currentTarget.value })}
          />
        </label>
        <button type="submit">Reload routes</button>
      </form>
    </details>
  );
}

/** The routes of `GET /v1/models`, what to say about them, and what blocks the view, if anything. */
export interface CatalogState {
  catalog: Catalog;
  /** The routes found, or why there are none, for people. */
  note: string;
  /** A state the view shows as a callout rather than a note. */
  blocked: Blocked | undefined;
  /** Whether the gateway asked for a key at least once: the key field then says it is needed. */
  keyRequired: boolean;
  /** Loads the routes again. */
  load: (connection: GatewayConnection) => Promise<void>;
}

/** Loads the catalog of `GET /v1/models` and says, for people, what it holds or why there is none. */
export function useCatalog(connection: GatewayConnection): CatalogState {
  const [catalog, setCatalog] = useState<Catalog>({ providers: [], aliases: [] });
  const [note, setNote] = useState('Loading the routes…');
  const [blocked, setBlocked] = useState<Blocked | undefined>();
  const [keyRequired, setKeyRequired] = useState(false);
  const load = async (target: GatewayConnection) => {
    setNote('Loading the routes…');
    const listed = await fetchModels(target);
    const found = readCatalog(listed.envelope);
    setCatalog(found);
    const failed = listed.envelope.success ? undefined : listed.envelope;
    setBlocked(undefined);
    if (found.providers.length > 0 || found.aliases.length > 0) {
      const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
      setNote(
        `Routes from GET /v1/models: ${count(found.providers.length, 'provider', 'providers')}, ${count(found.aliases.length, 'alias', 'aliases')}.`,
      );
    } else if (failed === undefined) {
      setNote(`GET /v1/models listed no routes (HTTP ${listed.status}).`);
      setBlocked('no_provider');
    } else if (
      listed.status === 0 ||
      (failed.provider === 'system' && failed.error.code === 'INVALID_PROVIDER_RESPONSE')
    ) {
      // No answer, or one that is no envelope (a static server's 404 page): no gateway there.
      setNote(
        `${listed.problem ?? `No gateway answers here: ${failed.error.message}`} Check and Receipt work without one.`,
      );
    } else {
      setNote(`GET /v1/models failed (HTTP ${listed.status}, ${failed.error.code}): ${failed.error.message}`);
      if (listed.status === 401) {
        setBlocked('needs_key');
        setKeyRequired(true);
      }
    }
  };
  // The routes are loaded once; Reload routes loads them again.
  useEffect(() => {
    void load(connection);
  }, []);
  return { catalog, note, blocked, keyRequired, load };
}

/** The providers' variables, the first few named in the sentence and every one in the list under it. */
const VARIABLES = providerVariables();
/** How many providers the sentence names before "or one of the others". */
const NAMED = 3;

/** The callout for what blocks a view that sends requests: a missing key, or a gateway with no provider. */
export function CatalogCallout({
  blocked,
  connection,
}: {
  blocked: Blocked | undefined;
  connection: ConnectionState;
}) {
  if (blocked === 'needs_key') {
    return (
      <Callout
        title="This gateway needs a key"
        action={{ label: 'Enter the key', run: connection.askForKey }}
      >
        <p>
          It lists its routes and answers only to a request with a gateway key. Enter it under Connection: the
          page sends it as <code>Authorization: Bearer …</code> to this gateway only and keeps it in memory.
        </p>
      </Callout>
    );
  }
  if (blocked === 'no_provider') {
    const first = VARIABLES.slice(0, NAMED).map(({ variables }) => describeProviderVariables(variables));
    return (
      <Callout title="No provider configured">
        <p>
          This gateway has no provider to send a request to. Start it with <code>--demo</code> to try
          everything offline (<code>npx verdict gateway --demo</code>), or set a provider key before starting
          it, such as{' '}
          {first.map((name, index) => (
            <span key={name}>
              {index === 0 ? '' : index === first.length - 1 ? ' or ' : ', '}
              <code>{name}</code>
            </span>
          ))}
          .
        </p>
        <details>
          <summary>Every provider and its variables ({VARIABLES.length})</summary>
          <ul class="variables">
            {VARIABLES.map(({ provider, variables }) => (
              <li key={provider}>
                {provider}: <code>{describeProviderVariables(variables)}</code>
              </li>
            ))}
          </ul>
        </details>
      </Callout>
    );
  }
  return null;
}
