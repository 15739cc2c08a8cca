import { useEffect, useRef, useState } from 'preact/hooks';
import { MODALITY_NOUNS, ROUTE_NAMES } from '../../gateway/basics/route-table.js';
import { RadioGroup } from '../ui/radio-group.js';
import { KeyLimits } from '../usage/key-limits.js';
import { EnvelopeView } from './envelope-view.js';
import { addToHistory, type HistoryEntry, loadHistory, saveHistory } from './history.js';
import { type Catalog, readCatalog, routeGroups, unlistedProviders } from './read-catalog.js';
import { RoutePicker } from './route-picker.js';
import {
  fetchModels,
  type GatewayAnswer,
  type GatewayConnection,
  type Modality,
  type Progress,
  sendRequest,
  VIDEO_POLL_MS,
} from './send-request.js';

/** The modalities as the segmented control names them: the route table's noun of each, capitalised. */
export const MODALITY_LABELS = Object.fromEntries(
  ROUTE_NAMES.filter((name): name is Modality => name !== 'embeddings').map((modality) => {
    const noun = MODALITY_NOUNS[modality];
    return [modality, noun.charAt(0).toUpperCase() + noun.slice(1)];
  }),
) as Readonly<Record<Modality, string>>;

/** The prompt field's label where it is not just "Prompt". */
const PROMPT_LABELS: Partial<Record<Modality, string>> = {
  images: 'Image prompt',
  speech: 'Text to speak',
  videos: 'Video prompt',
};

/** Nothing shown yet: no text, no tool call, no video job. */
const NOTHING_YET: Progress = { text: '', calls: [] };

/** What the answer has shown while it is on its way: streamed text and tool calls, or the video job polled. */
function AnswerSoFar({ progress }: { progress: Progress }) {
  const waiting = progress.text === '' && progress.calls.length === 0;
  return (
    <section class="card answer" aria-label="Answer so far">
      <p class="content">
        {progress.jobId !== undefined
          ? `The video is being made: this page asks the gateway for it every ${VIDEO_POLL_MS / 1000} s.`
          : waiting
            ? 'Waiting for the answer…'
            : progress.text}
      </p>
      {progress.calls.length > 0 && (
        <ol class="calls" aria-label="Tool calls so far">
          {progress.calls.map((call) => (
            <li key={call.id}>
              <code class="name">{call.name}</code> <code>{call.arguments}</code>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

/** The Connection panel: where the gateway is and its key, folded away until needed. */
export function ConnectionPanel({
  connection,
  onChange,
  onReload,
}: {
  connection: GatewayConnection;
  onChange: (connection: GatewayConnection) => void;
  onReload: () => void;
}) {
  return (
    <details class="connection panel">
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
          Gateway key (optional)
          <input
            type="password"
            autocomplete="off"
            value={connection.key}
            onInput={(e) => onChange({ ...connection, key: e.currentTarget.value })}
          />
        </label>
        <button type="submit">Reload routes</button>
      </form>
    </details>
  );
}

/** Loads the catalog of `GET /v1/models` and says, for people, what it holds or why there is none. */
export function useCatalog(connection: GatewayConnection) {
  const [catalog, setCatalog] = useState<Catalog>({ providers: [], aliases: [] });
  const [note, setNote] = useState('Loading the routes…');
  const load = async (target: GatewayConnection) => {
    setNote('Loading the routes…');
    const listed = await fetchModels(target);
    const found = readCatalog(listed.envelope);
    setCatalog(found);
    const failed = listed.envelope.success ? undefined : listed.envelope;
    if (found.providers.length > 0 || found.aliases.length > 0) {
      const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
      setNote(
        `Routes from GET /v1/models: ${count(found.providers.length, 'provider', 'providers')}, ${count(found.aliases.length, 'alias', 'aliases')}.`,
      );
    } else if (failed === undefined) {
      setNote(`GET /v1/models listed no routes (HTTP ${listed.status}); type a provider:model.`);
    } else if (
      listed.status === 0 ||
      (failed.provider === 'system' && failed.error.code === 'INVALID_PROVIDER_RESPONSE')
    ) {
      // No answer, or one that is no envelope (a static server's 404 page): no gateway there.
      setNote(
        `${listed.problem ?? `No gateway answers here: ${failed.error.message}`} Check and Receipt work without one.`,
      );
    } else {
      setNote(
        `GET /v1/models failed (HTTP ${listed.status}, ${failed.error.code}): ${failed.error.message}` +
          (listed.status === 401 ? ' Enter the gateway key under Connection.' : ''),
      );
    }
  };
  // The routes are loaded once; Reload routes loads them again.
  useEffect(() => {
    void load(connection);
  }, []);
  return { catalog, note, load };
}

/** The Try view: pick a route and a modality, send, and see the envelope rendered by its shape. */
export function TryView() {
  const [connection, setConnection] = useState<GatewayConnection>({ baseUrl: '', key: '' });
  const { catalog, note, load } = useCatalog(connection);
  const [model, setModel] = useState('');
  const [typed, setTyped] = useState(false);
  const [modality, setModality] = useState<Modality>('text');
  const [prompt, setPrompt] = useState('');
  const [audio, setAudio] = useState<File | undefined>(undefined);
  const [stream, setStream] = useState(true);
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState<Progress>(NOTHING_YET);
  const [answer, setAnswer] = useState<GatewayAnswer | null>(null);
  const [history, setHistory] = useState<HistoryEntry[]>(loadHistory);
  const abort = useRef<AbortController | null>(null);
  const answerBox = useRef<HTMLDivElement>(null);
  const groups = routeGroups(catalog, modality);
  const unlisted = unlistedProviders(catalog, modality);

  // A route picked from the list follows the modality: the first route serving it is the default.
  useEffect(() => {
    if (typed) return;
    const offered = groups.flatMap((g) => g.routes.map((r) => r.route));
    if (!offered.includes(model)) setModel(offered[0] ?? '');
  }, [catalog, modality]);

  const send = async (request = { model, modality, prompt, stream }) => {
    abort.current?.abort();
    const controller = new AbortController();
    abort.current = controller;
    setBusy(true);
    setProgress(NOTHING_YET);
    setAnswer(null);
    // Stacked on a narrow screen, the answer is below the form: bring it into view.
    if (matchMedia('(max-width: 60rem)').matches)
      requestAnimationFrame(() => answerBox.current?.scrollIntoView({ block: 'start' }));
    const result = await sendRequest(
      connection,
      { ...request, ...(audio === undefined ? {} : { audio }) },
      (shown) => {
        if (abort.current === controller) setProgress(shown);
      },
      controller.signal,
    );
    if (abort.current !== controller) return;
    setAnswer(result);
    setBusy(false);
    const outcome = result.envelope.success ? 'ok' : result.envelope.error.code;
    setHistory((old) => {
      const next = addToHistory(old, { at: new Date().toISOString(), ...request, outcome });
      saveHistory(next);
      return next;
    });
  };

  const open = (entry: HistoryEntry) => {
    const listed = routeGroups(catalog, entry.modality).some((g) =>
      g.routes.some((r) => r.route === entry.model),
    );
    setModality(entry.modality);
    setModel(entry.model);
    setTyped(!listed);
    setPrompt(entry.prompt);
    setStream(entry.stream);
  };

  return (
    <section aria-labelledby="try-title" class="try">
      <h2 id="try-title">Try the gateway</h2>
      <div class="split">
        <div class="request">
          <form
            class="panel grid"
            aria-label="Request"
            onSubmit={(event) => {
              event.preventDefault();
              void send();
            }}
          >
            <RadioGroup
              legend="Modality"
              name="modality"
              choices={MODALITY_LABELS}
              value={modality}
              onChange={setModality}
              variant="segmented"
            />
            <RoutePicker
              label="Route"
              groups={groups}
              value={model}
              typed={typed}
              onPick={(route) => {
                setTyped(false);
                setModel(route);
              }}
              onType={(route) => {
                setTyped(true);
                setModel(route);
              }}
            />
            <p class="hint" role="status">
              {note}
              {unlisted.length > 0 &&
                ` For ${unlisted.join(', ')}, choose Another route and type provider:model.`}
            </p>
            {modality === 'transcriptions' ? (
              <label>
                Audio file
                <input
                  type="file"
                  accept="audio/*"
                  required
                  onChange={(e) => setAudio(e.currentTarget.files?.[0] ?? undefined)}
                />
              </label>
            ) : (
              <label>
                {PROMPT_LABELS[modality] ?? 'Prompt'}
                <textarea
                  rows={4}
                  required
                  value={prompt}
                  onInput={(e) => setPrompt(e.currentTarget.value)}
                />
              </label>
            )}
            <div class="row">
              <button type="submit" class="primary" disabled={busy}>
                Send
              </button>
              {busy && (
                <button type="button" onClick={() => abort.current?.abort()}>
                  Cancel
                </button>
              )}
              {modality === 'text' && (
                <label class="choice">
                  <input
                    type="checkbox"
                    checked={stream}
                    onChange={(e) => setStream(e.currentTarget.checked)}
                  />
                  Stream the answer
                </label>
              )}
            </div>
          </form>
        </div>
        <div class="response" ref={answerBox} aria-live="polite" aria-busy={busy}>
          {busy && <AnswerSoFar progress={progress} />}
          {answer !== null && <EnvelopeView answer={answer} streamed={progress.text} id="try" />}
          <KeyLimits baseUrl={connection.baseUrl} gatewayKey={connection.key} refresh={answer} />
          {!busy && answer === null && (
            <p class="placeholder">The answer appears here: its content, usage, latency and trace id.</p>
          )}
        </div>
        <div class="aside">
          <ConnectionPanel
            connection={connection}
            onChange={setConnection}
            onReload={() => void load(connection)}
          />
          <History
            entries={history}
            onOpen={open}
            onRerun={(entry) => {
              open(entry);
              void send({
                model: entry.model,
                modality: entry.modality,
                prompt: entry.prompt,
                stream: entry.stream,
              });
            }}
            onClear={() => {
              saveHistory([]);
              setHistory([]);
            }}
          />
        </div>
      </div>
    </section>
  );
}

function History({
  entries,
  onOpen,
  onRerun,
  onClear,
}: {
  entries: HistoryEntry[];
  onOpen: (entry: HistoryEntry) => void;
  onRerun: (entry: HistoryEntry) => void;
  onClear: () => void;
}) {
  return (
    <details class="panel history">
      <summary>History ({entries.length})</summary>
      <p class="hint">The last requests of this browser, kept in its local storage and sent nowhere.</p>
      {entries.length > 0 && (
        <>
          <ol class="history-list" aria-label="History">
            {entries.map((entry) => {
              const what = `${MODALITY_LABELS[entry.modality]} · ${entry.model}`;
              return (
                <li key={`${entry.at}${entry.model}`}>
                  <span class="what">
                    <code>{entry.model}</code> <span class="hint">{MODALITY_LABELS[entry.modality]}</span>{' '}
                    <span class={entry.outcome === 'ok' ? 'tag ok' : 'tag bad'}>{entry.outcome}</span>
                  </span>
                  <span class="prompt">{entry.prompt === '' ? '(audio)' : entry.prompt}</span>
                  <span class="row">
                    <button
                      type="button"
                      class="quiet"
                      aria-label={`Open ${what}`}
                      onClick={() => onOpen(entry)}
                    >
                      Open
                    </button>
                    <button
                      type="button"
                      class="quiet"
                      aria-label={`Re-run ${what}`}
                      onClick={() => onRerun(entry)}
                    >
                      Re-run
                    </button>
                  </span>
                </li>
              );
            })}
          </ol>
          <button type="button" class="quiet" onClick={onClear}>
            Clear history
          </button>
        </>
      )}
    </details>
  );
}
