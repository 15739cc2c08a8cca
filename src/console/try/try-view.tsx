import { useEffect, useRef, useState } from 'preact/hooks';
import type { TextRequest, TextSuccess } from '../../client/index.js';
import { MODALITY_NOUNS, ROUTE_NAMES } from '../../gateway/basics/route-table.js';
import { CodePanel } from '../code/code-panel.js';
import {
  CatalogCallout,
  ConnectionPanel,
  useCatalog,
  useConnection,
} from '../connection/gateway-connection.js';
import { RadioGroup } from '../ui/radio-group.js';
import { KeyLimits } from '../usage/key-limits.js';
import { Conversation, ToolResults } from './conversation.js';
import { EnvelopeView } from './envelope-view.js';
import { addToHistory, type HistoryEntry, loadHistory, saveHistory } from './history.js';
import { ParametersPanel } from './parameters-panel.js';
import { routeGroups, textOptionsOf, unlistedProviders } from './read-catalog.js';
import {
  type Attachment,
  answerTurn,
  createPlaygroundRequest,
  type PlaygroundRequest,
  pendingTurns,
  type RequestProblem,
  type Turn,
  toTextRequest,
  unansweredCalls,
} from './request-model.js';
import { RoutePicker } from './route-picker.js';
import {
  type GatewayAnswer,
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

/** Largest file a user turn takes: the gateway's body limit is larger, and base64 grows a file by a third. */
const MAX_ATTACHMENT_BYTES = 8 * 1024 * 1024;

/** Most files one message carries: enough to compare a few pages or pictures, far below the gateway's limit. */
const MAX_ATTACHMENTS = 10;

/** A file as a turn's attachment, its bytes as base64. */
async function readAttachment(file: File): Promise<Attachment> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  // In slices: one call with millions of arguments overflows the stack.
  for (let at = 0; at < bytes.length; at += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  return { name: file.name, mediaType: file.type || 'application/octet-stream', data: btoa(binary) };
}

/** The turns to list above the answer: all but the last answer, which the answer card shows. */
function earlierTurns(turns: readonly Turn[], answer: GatewayAnswer | null): readonly Turn[] {
  const last = turns[turns.length - 1];
  return answer?.envelope.success === true && last?.role === 'assistant' ? turns.slice(0, -1) : turns;
}

/**
 * The Try view: pick a route and a modality and send. Text is a conversation: a system prompt, turns that
 * accumulate (edited, regenerated, cleared), parameters, tools answered by hand and a JSON-schema answer; the
 * request being built is one {@link PlaygroundRequest}, the envelope rendered by its shape.
 */
export function TryView() {
  const connectionState = useConnection();
  const { connection } = connectionState;
  const { catalog, note, blocked, keyRequired, load } = useCatalog(connection);
  const [request, setRequest] = useState<PlaygroundRequest>(() => createPlaygroundRequest());
  // The text request last sent: Copy as code writes it while the next message is still empty.
  const [lastBody, setLastBody] = useState<TextRequest | undefined>();
  const [typed, setTyped] = useState(false);
  const [audio, setAudio] = useState<File | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState<Progress>(NOTHING_YET);
  const [answer, setAnswer] = useState<GatewayAnswer | null>(null);
  const [problems, setProblems] = useState<RequestProblem[]>([]);
  const [history, setHistory] = useState<HistoryEntry[]>(loadHistory);
  const abort = useRef<AbortController | null>(null);
  const answerBox = useRef<HTMLDivElement>(null);
  const form = useRef<HTMLFormElement>(null);
  const { model, modality, prompt, stream } = request;
  const update = (change: Partial<PlaygroundRequest>) => setRequest((old) => ({ ...old, ...change }));
  const groups = routeGroups(catalog, modality);
  const unlisted = unlistedProviders(catalog, modality);
  const offered = textOptionsOf(catalog, model);
  const text = modality === 'text';
  // The body Send would post, which Copy as code writes out; its problems say why there is none yet.
  const built = text ? toTextRequest(request, offered) : undefined;

  // A route picked from the list follows the modality: the first route serving it is the default.
  useEffect(() => {
    if (typed) return;
    const routes = groups.flatMap((g) => g.routes.map((r) => r.route));
    if (!routes.includes(model)) update({ model: routes[0] ?? '' });
  }, [catalog, modality]);

  /** Sends `sent` (the request as it stands, or one changed for a regenerate or tool results). */
  const send = async (sent: PlaygroundRequest = request) => {
    let body: TextRequest | undefined;
    setProblems([]);
    if (sent.modality === 'text') {
      const built = toTextRequest(sent, textOptionsOf(catalog, sent.model));
      setProblems(built.ok ? [] : built.problems);
      if (!built.ok) return;
      body = built.body;
      setLastBody(built.body);
      // The message joins the conversation as it is sent; the answer joins it when it comes.
      setRequest({ ...sent, turns: [...sent.turns, ...pendingTurns(sent)], prompt: '', attachments: [] });
    }
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
      {
        model: sent.model,
        modality: sent.modality,
        prompt: sent.prompt,
        stream: sent.stream,
        ...(body === undefined ? {} : { body }),
        ...(audio === undefined ? {} : { audio }),
      },
      (shown) => {
        if (abort.current === controller) setProgress(shown);
      },
      controller.signal,
    );
    if (abort.current !== controller) return;
    setAnswer(result);
    setBusy(false);
    const envelope = result.envelope;
    if (sent.modality === 'text' && envelope.success) {
      const metadata = envelope.metadata as TextSuccess['metadata'];
      const turn = answerTurn(envelope.content, metadata.tool_calls ?? []);
      setRequest((old) => ({ ...old, turns: [...old.turns, turn] }));
    }
    const outcome = envelope.success ? 'ok' : envelope.error.code;
    const said = sent.modality === 'text' ? lastUserText(sent) : sent.prompt;
    setHistory((old) => {
      // A transcription sends audio, not the text left in the prompt field by an earlier request.
      const next = addToHistory(old, {
        at: new Date().toISOString(),
        model: sent.model,
        modality: sent.modality,
        prompt: sent.modality === 'transcriptions' ? '' : said,
        ...(sent.modality === 'transcriptions' && audio !== undefined
          ? { audioName: audio.name.slice(0, 256) }
          : {}),
        stream: sent.stream,
        outcome,
      });
      saveHistory(next);
      return next;
    });
  };

  /** Sends the conversation again without its last answer. */
  const regenerate = () => {
    const last = request.turns[request.turns.length - 1];
    if (last?.role !== 'assistant') return;
    void send({ ...request, turns: request.turns.slice(0, -1), prompt: '', attachments: [] });
  };

  const open = (entry: HistoryEntry) => {
    const listed = routeGroups(catalog, entry.modality).some((g) =>
      g.routes.some((r) => r.route === entry.model),
    );
    setTyped(!listed);
    update({ modality: entry.modality, model: entry.model, prompt: entry.prompt, stream: entry.stream });
  };

  const attach = async (files: FileList | null) => {
    const room = Math.max(0, MAX_ATTACHMENTS - request.attachments.length);
    const given = [...(files ?? [])];
    const chosen = given.slice(0, room);
    const tooBig = chosen.filter((file) => file.size > MAX_ATTACHMENT_BYTES);
    setProblems([
      ...tooBig.map((file) => ({
        field: 'attachments',
        message: `${file.name} is larger than ${MAX_ATTACHMENT_BYTES / 1024 / 1024} MB.`,
      })),
      ...(given.length > room
        ? [{ field: 'attachments', message: `A message carries at most ${MAX_ATTACHMENTS} files.` }]
        : []),
    ]);
    const read = await Promise.all(
      chosen.filter((file) => file.size <= MAX_ATTACHMENT_BYTES).map(readAttachment),
    );
    setRequest((old) => ({ ...old, attachments: [...old.attachments, ...read] }));
  };

  const pending = text && !busy ? unansweredCalls(request.turns) : [];
  const lastTurn = request.turns[request.turns.length - 1];

  return (
    <section aria-labelledby="try-title" class="try">
      <h2 id="try-title">Try the gateway</h2>
      <CatalogCallout blocked={blocked} connection={connectionState} />
      <div class="split">
        <div class="request">
          <form
            ref={form}
            class="panel grid"
            aria-label="Request"
            onSubmit={(event) => {
              event.preventDefault();
              void send();
            }}
            onKeyDown={(event) => {
              // Ctrl+Enter (⌘+Enter on a Mac) sends from any field, as in the playgrounds people know.
              if (event.key !== 'Enter' || !(event.ctrlKey || event.metaKey)) return;
              event.preventDefault();
              if (!busy) form.current?.requestSubmit();
            }}
          >
            <RadioGroup
              legend="Modality"
              name="modality"
              choices={MODALITY_LABELS}
              value={modality}
              onChange={(chosen) => update({ modality: chosen })}
              variant="segmented"
            />
            <RoutePicker
              label="Route"
              groups={groups}
              value={model}
              typed={typed}
              onPick={(route) => {
                setTyped(false);
                update({ model: route });
              }}
              onType={(route) => {
                setTyped(true);
                update({ model: route });
              }}
            />
            <p class="hint" role="status">
              {note}
              {unlisted.length > 0 &&
                ` For ${unlisted.join(', ')}, choose Another route and type provider:model.`}
            </p>
            {text && (
              <label>
                System prompt
                <textarea
                  rows={2}
                  value={request.system}
                  placeholder="How the model should answer (optional)"
                  onInput={(e) => update({ system: e.currentTarget.value })}
                />
              </label>
            )}
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
                {text ? 'Message' : (PROMPT_LABELS[modality] ?? 'Prompt')}
                <textarea
                  rows={4}
                  required={!text}
                  value={prompt}
                  onInput={(e) => update({ prompt: e.currentTarget.value })}
                />
              </label>
            )}
            {text && (
              <Attachments
                attachments={request.attachments}
                onAttach={(files) => void attach(files)}
                onRemove={(index) =>
                  update({ attachments: request.attachments.filter((_, i) => i !== index) })
                }
              />
            )}
            {problems.length > 0 && (
              <div class="card failure problems" role="alert" aria-label="The request cannot be sent">
                <ul>
                  {problems.map((problem) => (
                    <li key={`${problem.field}${problem.message}`}>
                      <code>{problem.field}</code>: {problem.message}
                    </li>
                  ))}
                </ul>
              </div>
            )}
            <div class="row">
              <button
                type="submit"
                class="primary"
                disabled={busy}
                aria-keyshortcuts="Control+Enter Meta+Enter"
              >
                Send
              </button>
              {busy && (
                <button type="button" onClick={() => abort.current?.abort()}>
                  Stop
                </button>
              )}
              {text && (
                <label class="choice">
                  <input
                    type="checkbox"
                    checked={stream}
                    onChange={(e) => update({ stream: e.currentTarget.checked })}
                  />
                  Stream the answer
                </label>
              )}
            </div>
            <p class="hint">Ctrl+Enter (⌘+Enter on a Mac) sends.</p>
          </form>
        </div>
        <div class="response" ref={answerBox} aria-live="polite" aria-busy={busy}>
          {text && (
            <Conversation
              turns={earlierTurns(request.turns, busy ? null : answer)}
              busy={busy}
              onEdit={(index, edited) =>
                setRequest((old) => ({
                  ...old,
                  turns: old.turns.map((turn, i) =>
                    i !== index || turn.role === 'tool' ? turn : { ...turn, text: edited },
                  ),
                }))
              }
              onClear={() => {
                update({ turns: [] });
                setAnswer(null);
              }}
            />
          )}
          {busy && <AnswerSoFar progress={progress} />}
          {answer !== null && <EnvelopeView answer={answer} streamed={progress.text} id="try" />}
          {text && !busy && lastTurn?.role === 'assistant' && (
            <div class="row">
              <button type="button" onClick={regenerate}>
                Regenerate
              </button>
            </div>
          )}
          {pending.length > 0 && (
            <ToolResults
              calls={pending}
              busy={busy}
              onSend={(results) =>
                void send({
                  ...request,
                  prompt: '',
                  attachments: [],
                  turns: [
                    ...request.turns,
                    ...results.map(
                      ({ call, content }): Turn => ({
                        role: 'tool',
                        toolCallId: call.id,
                        name: call.name,
                        content,
                      }),
                    ),
                  ],
                })
              }
            />
          )}
          <KeyLimits baseUrl={connection.baseUrl} gatewayKey={connection.key} refresh={answer} />
          {!busy && answer === null && request.turns.length === 0 && (
            <p class="placeholder">
              The answer appears here: its content, usage, cost, latency and trace id.
            </p>
          )}
        </div>
        <div class="aside">
          {text && <ParametersPanel request={request} offered={offered} onChange={update} />}
          <ConnectionPanel
            state={connectionState}
            keyRequired={keyRequired}
            onReload={() => void load(connection)}
          />
          <CodePanel
            request={built?.ok === true ? built.body : text ? lastBody : undefined}
            {...(built?.ok === false
              ? lastBody === undefined
                ? {
                    unavailable: `No request to write yet: ${built.problems.map((p) => p.message).join(' ')}`,
                  }
                : { note: 'The request last sent; a new message makes it the next one.' }
              : {})}
            baseUrl={connection.baseUrl === '' ? location.origin : connection.baseUrl}
            keyed={keyRequired || connection.key !== ''}
          />
          <History
            entries={history}
            onOpen={open}
            onRerun={(entry) => {
              open(entry);
              void send({
                ...createPlaygroundRequest(entry.model),
                modality: entry.modality,
                prompt: entry.prompt,
                stream: entry.stream,
                system: request.system,
                parameters: request.parameters,
                tools: request.tools,
                responseFormat: request.responseFormat,
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

/** The user's last message of a text request: what History lists for it. */
function lastUserText(sent: PlaygroundRequest): string {
  if (sent.prompt !== '') return sent.prompt;
  for (let i = sent.turns.length - 1; i >= 0; i--) {
    const turn = sent.turns[i];
    if (turn?.role === 'user') return turn.text;
  }
  return '';
}

/** The files attached to the next message, each removable, and the field that adds more. */
function Attachments({
  attachments,
  onAttach,
  onRemove,
}: {
  attachments: readonly Attachment[];
  onAttach: (files: FileList | null) => void;
  onRemove: (index: number) => void;
}) {
  return (
    <div class="attachments">
      <label>
        Attach an image or a PDF
        <input
          type="file"
          accept="image/png,image/jpeg,image/webp,image/gif,application/pdf"
          multiple
          onChange={(e) => {
            onAttach(e.currentTarget.files);
            e.currentTarget.value = '';
          }}
        />
      </label>
      {attachments.length > 0 && (
        <ul aria-label="Attached files">
          {attachments.map((file, index) => (
            <li key={`${file.name}${index}`}>
              {file.mediaType.startsWith('image/') ? (
                <img class="thumb" src={`data:${file.mediaType};base64,${file.data}`} alt={file.name} />
              ) : (
                <code>{file.name}</code>
              )}{' '}
              <button type="button" class="quiet" onClick={() => onRemove(index)}>
                {`Remove ${file.name}`}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
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
                  <span class="prompt">
                    {entry.modality === 'transcriptions'
                      ? `Audio file ${entry.audioName ?? '(not named)'}`
                      : entry.prompt}
                  </span>
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
