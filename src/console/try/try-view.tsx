import { useEffect, useRef, useState } from 'preact/hooks';
import { RadioGroup } from '../ui/radio-group.js';
import { KeyLimits } from '../usage/key-limits.js';
import { EnvelopeView } from './envelope-view.js';
import {
  fetchModels,
  type GatewayAnswer,
  type GatewayConnection,
  type Modality,
  sendRequest,
} from './gateway-client.js';
import { type Catalog, readCatalog, routeSuggestions } from './read-catalog.js';

const MODALITY_LABELS: Record<Modality, string> = {
  text: 'Text',
  images: 'Image',
  speech: 'Speech',
  transcriptions: 'Transcription',
  videos: 'Video',
};

const PROMPT_LABELS: Record<Modality, string> = {
  text: 'Prompt',
  images: 'Image prompt',
  speech: 'Text to speak',
  transcriptions: 'Prompt',
  videos: 'Video prompt',
};

/** The Try view: pick a route and a modality, send, and see the envelope rendered by its shape. */
export function TryView() {
  const [connection, setConnection] = useState<GatewayConnection>({ baseUrl: '', key: '' });
  const [catalog, setCatalog] = useState<Catalog>({ providers: [], aliases: [] });
  const [routesNote, setRoutesNote] = useState('Loading the routes…');
  const [model, setModel] = useState('');
  const [modality, setModality] = useState<Modality>('text');
  const [prompt, setPrompt] = useState('');
  const [audio, setAudio] = useState<File | undefined>(undefined);
  const [stream, setStream] = useState(true);
  const [busy, setBusy] = useState(false);
  const [streamed, setStreamed] = useState('');
  const [answer, setAnswer] = useState<GatewayAnswer | null>(null);
  const abort = useRef<AbortController | null>(null);

  const loadRoutes = async (target: GatewayConnection) => {
    setRoutesNote('Loading the routes…');
    const listed = await fetchModels(target);
    const found = readCatalog(listed.body);
    setCatalog(found);
    if (found.providers.length > 0 || found.aliases.length > 0) {
      const first = found.aliases[0];
      if (first !== undefined) setModel((current) => (current === '' ? first : current));
      setRoutesNote(
        [
          found.providers.length > 0 &&
            `Providers: ${found.providers.map((p) => `${p.id}${p.demo ? ' (offline demo, recorded answers)' : ''} (${p.modalities.join(', ')})`).join('; ')}.`,
          found.aliases.length > 0 && `Aliases: ${found.aliases.join(', ')}.`,
          'Type provider:model or an alias.',
        ]
          .filter(Boolean)
          .join(' '),
      );
    } else if (listed.status === 0 || listed.body === undefined) {
      setRoutesNote(
        `${listed.problem ?? `No gateway answers here (HTTP ${listed.status}).`} Check and Receipt work without one.`,
      );
    } else {
      const error = (listed.body as { error?: { code?: unknown; message?: unknown } } | null)?.error;
      setRoutesNote(
        error === undefined
          ? `GET /v1/models listed no routes (HTTP ${listed.status}); type a provider:model.`
          : `GET /v1/models failed (HTTP ${listed.status}, ${String(error.code)}): ${String(error.message)}` +
              (listed.status === 401 ? ' Enter the gateway key under Connection.' : ''),
      );
    }
  };
  useEffect(() => {
    void loadRoutes(connection);
  }, []);

  const send = async () => {
    abort.current?.abort();
    const controller = new AbortController();
    abort.current = controller;
    setBusy(true);
    setStreamed('');
    setAnswer(null);
    let text = '';
    const result = await sendRequest(
      connection,
      { model, modality, prompt, stream, ...(audio === undefined ? {} : { audio }) },
      (delta) => {
        text += delta;
        setStreamed(text);
      },
      controller.signal,
    );
    if (abort.current === controller) {
      setAnswer(result);
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="try-title">
      <h2 id="try-title">Try the gateway</h2>
      <details class="connection">
        <summary>Connection</summary>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void loadRoutes(connection);
          }}
        >
          <label>
            Gateway URL (empty: this page's server)
            <input
              type="url"
              value={connection.baseUrl}
              placeholder="http://127.0.0.1:8787"
              onInput={(e) => setConnection({ ...connection, baseUrl: e.currentTarget.value })}
            />
          </label>
          <label>
            Gateway key (optional)
            <input
              type="password"
              autocomplete="off"
              value={connection.key}
              onInput={(e) => setConnection({ ...connection, key: e.currentTarget.value })}
            />
          </label>
          <button type="submit">Reload routes</button>
        </form>
      </details>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void send();
        }}
      >
        <label>
          Route
          <input
            list="routes"
            value={model}
            required
            spellcheck={false}
            placeholder="provider:model"
            onInput={(e) => setModel(e.currentTarget.value)}
          />
          <datalist id="routes">
            {routeSuggestions(catalog, modality).map((r) => (
              <option key={r} value={r} />
            ))}
          </datalist>
        </label>
        <p class="hint" role="status">
          {routesNote}
        </p>
        <RadioGroup
          legend="Modality"
          name="modality"
          choices={MODALITY_LABELS}
          value={modality}
          onChange={setModality}
        />
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
            {PROMPT_LABELS[modality]}
            <textarea rows={4} required value={prompt} onInput={(e) => setPrompt(e.currentTarget.value)} />
          </label>
        )}
        {modality === 'text' && (
          <label class="choice">
            <input type="checkbox" checked={stream} onChange={(e) => setStream(e.currentTarget.checked)} />
            Stream the answer
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
        </div>
      </form>
      <div aria-live="polite" aria-busy={busy}>
        {busy && (
          <section class="card answer" aria-label="Answer so far">
            <p class="content">{streamed === '' ? 'Waiting for the answer…' : streamed}</p>
          </section>
        )}
        {answer !== null && <EnvelopeView answer={answer} streamed={streamed} />}
        <KeyLimits baseUrl={connection.baseUrl} gatewayKey={connection.key} refresh={answer} />
      </div>
    </section>
  );
}
