import { useEffect, useRef, useState } from 'preact/hooks';
import { ROUTE_NAMES } from '../../gateway/basics/route-table.js';
import { EnvelopeView } from '../try/envelope-view.js';
import { routeGroups } from '../try/read-catalog.js';
import { RoutePicker } from '../try/route-picker.js';
import {
  type GatewayAnswer,
  type GatewayConnection,
  type Modality,
  sendRequest,
} from '../try/send-request.js';
import { ConnectionPanel, MODALITY_LABELS, useCatalog } from '../try/try-view.js';
import { RadioGroup } from '../ui/radio-group.js';

/** Fewest and most routes compared at once. */
const MIN_ROUTES = 2;
const MAX_ROUTES = 4;

/** Compare sends a prompt; a transcription needs an audio file, so it is left to Try. */
type Compared = Exclude<Modality, 'transcriptions'>;

/** The modalities Compare offers: every one of the route table but transcriptions, with their labels. */
const COMPARED = Object.fromEntries(
  ROUTE_NAMES.filter(
    (modality): modality is Compared => modality !== 'transcriptions' && modality !== 'embeddings',
  ).map((modality) => [modality, MODALITY_LABELS[modality]]),
) as Readonly<Record<Compared, string>>;

type Column = { model: string; typed: boolean };

/**
 * The Compare view: one request sent to two to four routes at once, each answer rendered by the same
 * envelope component as Try, side by side, so that content, usage, latency, finish reason and error code
 * line up whatever provider answered.
 */
export function CompareView() {
  const [connection, setConnection] = useState<GatewayConnection>({ baseUrl: '', key: '' });
  const { catalog, note, load } = useCatalog(connection);
  const [modality, setModality] = useState<Compared>('text');
  const [prompt, setPrompt] = useState('');
  const [columns, setColumns] = useState<Column[]>([
    { model: '', typed: false },
    { model: '', typed: false },
  ]);
  const [answers, setAnswers] = useState<(GatewayAnswer | null)[]>([]);
  const [busy, setBusy] = useState(false);
  const abort = useRef<AbortController | null>(null);
  const groups = routeGroups(catalog, modality);

  // Routes picked from the list follow the modality: each column takes the next route on offer.
  useEffect(() => {
    const offered = groups.flatMap((g) => g.routes.map((r) => r.route));
    setColumns((old) =>
      old.map((column, index) =>
        column.typed || offered.includes(column.model)
          ? column
          : { model: offered[index % Math.max(offered.length, 1)] ?? '', typed: false },
      ),
    );
  }, [catalog, modality]);

  const set = (index: number, column: Column) =>
    setColumns((old) => old.map((c, i) => (i === index ? column : c)));

  const send = async () => {
    abort.current?.abort();
    const controller = new AbortController();
    abort.current = controller;
    setBusy(true);
    setAnswers(columns.map(() => null));
    await Promise.all(
      columns.map(async (column, index) => {
        const result = await sendRequest(
          connection,
          { model: column.model, modality, prompt, stream: false },
          () => {},
          controller.signal,
        );
        if (abort.current === controller) setAnswers((old) => old.map((a, i) => (i === index ? result : a)));
      }),
    );
    if (abort.current === controller) setBusy(false);
  };

  return (
    <section aria-labelledby="compare-title" class="compare">
      <h2 id="compare-title">Compare routes</h2>
      <p class="hint">One request to several routes at once; each answer is the same unified envelope.</p>
      <form
        class="panel grid"
        aria-label="Request to compare"
        onSubmit={(event) => {
          event.preventDefault();
          void send();
        }}
      >
        <RadioGroup
          legend="Modality"
          name="compare-modality"
          choices={COMPARED}
          value={modality}
          onChange={setModality}
          variant="segmented"
        />
        <div class="route-columns">
          {columns.map((column, index) => (
            <div class="route-column" key={String(index)}>
              <RoutePicker
                label={`Route ${index + 1}`}
                groups={groups}
                value={column.model}
                typed={column.typed}
                onPick={(route) => set(index, { model: route, typed: false })}
                onType={(route) => set(index, { model: route, typed: true })}
              />
              {columns.length > MIN_ROUTES && (
                <button
                  type="button"
                  class="quiet"
                  onClick={() => {
                    setColumns((old) => old.filter((_, i) => i !== index));
                    setAnswers([]);
                  }}
                >
                  Remove route {index + 1}
                </button>
              )}
            </div>
          ))}
        </div>
        <p class="hint" role="status">
          {note}
        </p>
        <label>
          Prompt
          <textarea rows={3} required value={prompt} onInput={(e) => setPrompt(e.currentTarget.value)} />
        </label>
        <div class="row">
          <button type="submit" class="primary" disabled={busy}>
            Send to {columns.length} routes
          </button>
          {columns.length < MAX_ROUTES && (
            <button
              type="button"
              onClick={() => {
                const offered = groups.flatMap((g) => g.routes.map((r) => r.route));
                const unused = offered.find((route) => !columns.some((c) => c.model === route));
                setColumns((old) => [...old, { model: unused ?? '', typed: unused === undefined }]);
                setAnswers([]);
              }}
            >
              Add a route
            </button>
          )}
          {busy && (
            <button type="button" onClick={() => abort.current?.abort()}>
              Cancel
            </button>
          )}
        </div>
      </form>
      <ConnectionPanel
        connection={connection}
        onChange={setConnection}
        onReload={() => void load(connection)}
      />
      {answers.length > 0 && (
        <div class={`columns n${columns.length}`} aria-busy={busy}>
          {columns.map((column, index) => {
            const answer = answers[index] ?? null;
            const name = `Route ${index + 1}: ${column.model}`;
            return (
              <section class="column" key={String(index)} aria-label={name}>
                <h3 class="route-name">
                  <span class="hint">Route {index + 1}</span> <code>{column.model}</code>
                </h3>
                {answer === null ? (
                  <p class="placeholder">Waiting for the answer…</p>
                ) : (
                  <EnvelopeView
                    answer={answer}
                    streamed=""
                    id={`compare-${index}`}
                    label={`Answer from ${column.model}`}
                  />
                )}
              </section>
            );
          })}
        </div>
      )}
    </section>
  );
}
