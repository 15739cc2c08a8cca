/**
 * Replay providers: one local HTTP server on 127.0.0.1 that speaks the provider APIs the gateway calls
 * (OpenAI, Anthropic, Google Gemini, Replicate, any OpenAI-compatible service) and answers with the project's
 * recorded fixtures (test/fixtures/unified). No network: point the real `@ai-sdk/*` providers at it by base URL.
 *
 *   const replay = await startReplayProviders();
 *   const gateway = createGateway({ providers: replay.providers() });   // every provider → this server
 *   replay.enqueue(fixture('openai.chat/RATE_LIMITED/rate-limit-429.json'));  // the next request gets a 429
 *   ...
 *   replay.requests   // what reached the server: method, path, headers, parsed body
 *   replay.aborted    // requests whose client went away before the answer ended
 *   replay.reset()    // forget queued answers and recorded requests
 *   await replay.close();
 *
 * With nothing queued, each endpoint answers its default success (streamed when the request asks for a
 * stream); a Chat Completions request with tools answers a `get_weather` tool call, or the answer after it when
 * its last message is a tool result. `enqueue` takes answers in the fixtures' own shape (`status`, `headers`, `body`, `body_base64`,
 * `events`, `sse`) plus test controls: `delayMs` (answer late), `eventDelayMs` (between stream events),
 * `dropAfterEvents` (destroy the connection mid-stream), `stallAfterEvents` (go quiet mid-stream), `hang` (never answer), `holdUntil` (answer once the test
 * lets it: a request kept in flight for as long as the test needs, whatever the machine's speed), `match` (only for a path
 * containing it). Answers carry an `x-request-id` header unless they set their own. Replicate bodies have
 * their `https://api.replicate.com` URLs rewritten to this server, so video jobs are polled here too.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

/** A promise for `holdUntil` and the function that settles it. */
export function createHold(): { promise: Promise<void>; release: () => void } {
  let release!: () => void;
  const promise = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { promise, release };
}

/** Where the recorded fixtures live. */
export const FIXTURES_DIR = join(import.meta.dirname, '..', 'fixtures', 'unified');

/** One answer of the replay server: a fixture's shape plus test controls. */
export interface ReplayAnswer {
  /** HTTP status (200 by default). */
  status?: number;
  /** Response headers. */
  headers?: Record<string, string>;
  /** A JSON body (objects and arrays) or a raw text body (strings, such as an HTML error page). */
  body?: unknown;
  /** A binary body, base64-encoded (speech audio). */
  body_base64?: string;
  /** Stream events, sent as server-sent events in the dialect of the endpoint. */
  events?: unknown[];
  /** A raw server-sent-events body, sent as it is. */
  sse?: string;
  /** Wait this long before answering. */
  delayMs?: number;
  /** Wait this long between stream events. */
  eventDelayMs?: number;
  /** Destroy the connection after this many stream events (a connection dropped mid-stream). */
  dropAfterEvents?: number;
  /** Send nothing after this many stream events, the connection left open until the client goes away. */
  stallAfterEvents?: number;
  /** Never answer (until the client goes away). */
  hang?: boolean;
  /** Answer only once this settles: the test decides how long the request stays in flight, not a clock. */
  holdUntil?: Promise<unknown>;
  /** Only for requests whose path contains this; other requests pass this queued answer by. */
  match?: string;
}

/** A request that reached the replay server. */
export interface ReplayRequest {
  /** HTTP method. */
  method: string;
  /** Path with query. */
  path: string;
  /** Request headers, lowercase names. */
  headers: Record<string, string>;
  /** The parsed JSON body, or the raw text when it is not JSON. */
  body: unknown;
}

/** A running replay server. */
export interface ReplayProviders {
  /** `http://127.0.0.1:PORT`. */
  url: string;
  /** Base URLs per provider type, as the AI SDK providers take them. */
  baseURL: { openai: string; anthropic: string; google: string; replicate: string; compatible: string };
  /**
   * Gateway provider settings that point every provider at this server: `openai`, `anthropic`, `google`,
   * `replicate` and `openrouter` (openai-compatible), with a dummy key.
   */
  providers(): Record<string, { type?: string; baseURL: string; apiKey: string }>;
  /** Queue answers for the next requests (first in, first out). */
  enqueue(...answers: ReplayAnswer[]): void;
  /** Requests received so far. */
  requests: ReplayRequest[];
  /** Requests whose client disconnected before the answer ended. */
  aborted: ReplayRequest[];
  /** Forget queued answers and recorded requests (between tests). */
  reset(): void;
  /** Stop the server and drop its connections. */
  close(): Promise<void>;
}

/** A fixture file (relative to test/fixtures/unified) as a replay answer. */
export function fixture(
  path: string,
  controls: Omit<ReplayAnswer, 'body' | 'events' | 'sse'> = {},
): ReplayAnswer {
  const data = JSON.parse(readFileSync(join(FIXTURES_DIR, path), 'utf8')) as ReplayAnswer & {
    expect?: unknown;
    description?: unknown;
    stream?: unknown;
  };
  const { expect: _expect, description: _description, stream: _stream, ...answer } = data;
  return { ...answer, ...controls };
}

/** The default success of each endpoint: `[non-streamed, streamed]`. */
const DEFAULTS: { test: RegExp; answers: [string, string?] }[] = [
  {
    test: /\/chat\/completions$/,
    answers: [
      'openai.chat/success/text-with-cached-and-reasoning-usage.json',
      'openai.chat/success/stream-text.json',
    ],
  },
  {
    test: /\/responses$/,
    answers: [
      'openai.responses/success/text-with-reasoning.json',
      'openai.responses/success/stream-text.json',
    ],
  },
  {
    test: /\/messages$/,
    answers: [
      'anthropic.messages/success/text-with-prompt-cache.json',
      'anthropic.messages/success/stream-text-and-tool.json',
    ],
  },
  {
    test: /:(stream)?[gG]enerateContent/,
    answers: [
      'google.generate-content/success/text-with-thoughts.json',
      'google.generate-content/success/stream-text.json',
    ],
  },
  { test: /\/images\/generations$/, answers: ['openai.images/success/b64-json-with-usage.json'] },
  { test: /\/audio\/speech$/, answers: ['openai.speech/success/mp3.json'] },
  { test: /\/audio\/transcriptions$/, answers: ['openai.transcription/success/json.json'] },
  // Replicate: creating a prediction answers "processing"; its status URL then answers "succeeded".
  { test: /\/predictions$/, answers: ['replicate.prediction/success/processing.json'] },
  { test: /\/predictions\/[^/]+$/, answers: ['replicate.prediction/success/single-video-url.json'] },
];

/**
 * A Chat Completions request that offers tools: a tool call (`get_weather`) for a new question, the answer after
 * it once the request carries a tool result (the docs' tool-call round trip).
 */
function toolTurnAnswer(path: string, body: unknown, streamed: boolean): ReplayAnswer | undefined {
  const request = body as { tools?: unknown; messages?: { role?: unknown }[] } | undefined;
  if (streamed || !/\/chat\/completions$/.test(path) || !Array.isArray(request?.tools)) return undefined;
  return fixture(
    request.messages?.at(-1)?.role === 'tool'
      ? 'openai.chat/success/text-after-tool-result.json'
      : 'openai.chat/success/tool-calls.json',
  );
}

function defaultAnswer(path: string, streamed: boolean, body?: unknown): ReplayAnswer {
  const toolTurn = toolTurnAnswer(path.split('?')[0] ?? path, body, streamed);
  if (toolTurn !== undefined) return toolTurn;
  const entry = DEFAULTS.find((candidate) => candidate.test.test(path.split('?')[0] ?? path));
  if (entry === undefined) {
    return {
      status: 404,
      body: { error: { message: `The replay server has no default for ${path}.`, type: 'not_found' } },
    };
  }
  const [plain, stream] = entry.answers;
  return fixture(streamed && stream !== undefined ? stream : plain);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function sseFrame(path: string, event: unknown): string {
  const data = typeof event === 'string' ? event : JSON.stringify(event);
  const type = (event as { type?: unknown } | null)?.type;
  // Anthropic names each event; OpenAI and Gemini send data lines only.
  return path.includes('/messages') && typeof type === 'string'
    ? `event: ${type}\ndata: ${data}\n\n`
    : `data: ${data}\n\n`;
}

async function readRequest(req: IncomingMessage): Promise<ReplayRequest> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  let body: unknown = text;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    // Not JSON (multipart audio): kept as text.
  }
  const headers = Object.fromEntries(
    Object.entries(req.headers).map(([key, value]) => [
      key,
      Array.isArray(value) ? value.join(', ') : (value ?? ''),
    ]),
  );
  return { method: req.method ?? 'GET', path: req.url ?? '/', headers, body };
}

/** Start a replay server on 127.0.0.1 with a free port. */
export async function startReplayProviders(): Promise<ReplayProviders> {
  const queue: ReplayAnswer[] = [];
  const requests: ReplayRequest[] = [];
  const aborted: ReplayRequest[] = [];
  let counter = 0;

  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const request = await readRequest(req);
    requests.push(request);
    let done = false;
    res.once('close', () => {
      if (!done) aborted.push(request);
    });
    const index = queue.findIndex(
      (candidate) => candidate.match === undefined || request.path.includes(candidate.match),
    );
    const streamed =
      (request.body as { stream?: unknown } | undefined)?.stream === true ||
      request.path.includes('streamGenerateContent');
    const chosen =
      index >= 0
        ? (queue.splice(index, 1)[0] as ReplayAnswer)
        : defaultAnswer(request.path, streamed, request.body);
    if (chosen.hang) return;
    if (chosen.holdUntil !== undefined) await chosen.holdUntil.catch(() => undefined);
    if (chosen.delayMs) await sleep(chosen.delayMs);
    if (res.destroyed) return;
    counter++;
    const headers: Record<string, string> = { 'x-request-id': `req_replay_${counter}`, ...chosen.headers };
    const status = chosen.status ?? 200;
    if (chosen.events !== undefined || chosen.sse !== undefined) {
      res.writeHead(status, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...headers });
      if (chosen.sse !== undefined) {
        res.end(chosen.sse);
        done = true;
        return;
      }
      let sent = 0;
      for (const event of chosen.events ?? []) {
        if (chosen.dropAfterEvents !== undefined && sent >= chosen.dropAfterEvents) {
          res.destroy();
          done = true;
          return;
        }
        if (res.destroyed) return;
        if (chosen.stallAfterEvents !== undefined && sent >= chosen.stallAfterEvents) return;
        res.write(sseFrame(request.path, event));
        sent++;
        if (chosen.eventDelayMs) await sleep(chosen.eventDelayMs);
      }
      if (request.path.includes('/chat/completions')) res.write('data: [DONE]\n\n');
      done = true;
      res.end();
      return;
    }
    if (chosen.body_base64 !== undefined) {
      res.writeHead(status, { 'content-type': 'application/octet-stream', ...headers });
      done = true;
      res.end(Buffer.from(chosen.body_base64, 'base64'));
      return;
    }
    // Status URLs in Replicate bodies point back at this server, so a job can be polled here.
    const text =
      typeof chosen.body === 'string'
        ? chosen.body
        : JSON.stringify(chosen.body ?? {}).replaceAll('https://api.replicate.com', url);
    const type = typeof chosen.body === 'string' ? 'text/html' : 'application/json';
    res.writeHead(status, { 'content-type': type, ...headers });
    done = true;
    res.end(text);
  }

  let url = '';
  const server: Server = createServer((req, res) => {
    answer(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const baseURL = {
    openai: `${url}/v1`,
    anthropic: `${url}/v1`,
    google: `${url}/v1beta`,
    replicate: `${url}/v1`,
    compatible: `${url}/api/v1`,
  };
  return {
    url,
    baseURL,
    providers: () => ({
      openai: { baseURL: baseURL.openai, apiKey: 'sk-replay-openai-secret' },
      anthropic: { baseURL: baseURL.anthropic, apiKey: 'sk-ant-replay-secret' },
      google: { baseURL: baseURL.google, apiKey: 'replay-google-secret' },
      replicate: { baseURL: baseURL.replicate, apiKey: 'r8_replay_secret' },
      openrouter: { type: 'openai-compatible', baseURL: baseURL.compatible, apiKey: 'sk-or-replay-secret' },
    }),
    enqueue: (...answers) => queue.push(...answers),
    reset: () => {
      queue.length = 0;
      requests.length = 0;
      aborted.length = 0;
    },
    requests,
    aborted,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * `replay.providers()` plus `openai-responses`: OpenAI's Responses API at the same server, for the tests that
 * drive every upstream family (the drop-in surfaces, agents' requests).
 */
export function providersWithResponses(
  replay: ReplayProviders,
): Record<string, { type?: string; api?: string; baseURL: string; apiKey: string }> {
  return {
    ...replay.providers(),
    'openai-responses': {
      type: 'openai',
      api: 'responses',
      baseURL: replay.baseURL.openai,
      apiKey: 'sk-replay-openai-secret',
    },
  };
}
