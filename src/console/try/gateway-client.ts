/**
 * A thin client for the verdict gateway (docs/gateway.md): it sends requests and hands back the envelope, the
 * HTTP status and the trace id. It never looks at which provider answered; the views render by shape.
 */

import { MODALITY_PATHS } from '../../gateway/route-table.js';
import { explainUnreachable } from './explain-unreachable.js';

/** The modalities the gateway serves, with their endpoint: from the gateway's route table (plain data). */
export const MODALITIES = MODALITY_PATHS;

/** One key of {@link MODALITIES}. */
export type Modality = keyof typeof MODALITIES;

/** Where the gateway is and how to authenticate to it. */
export interface GatewayConnection {
  /** Base URL of the gateway; empty for the page's own origin. */
  baseUrl: string;
  /** A gateway key sent as a Bearer token; empty for none. */
  key: string;
}

/** What came back from one call: the body (an envelope when the gateway answered), status and trace id. */
export interface GatewayAnswer {
  /** The HTTP status, or 0 when no response arrived. */
  status: number;
  /** The parsed body, or undefined when it was not JSON. */
  body: unknown;
  /** The `x-trace-id` response header, when present. */
  traceId: string | null;
  /** Milliseconds from sending to the complete answer, measured by the page. */
  elapsedMs: number;
  /** Why no envelope could be read (network failure, body not JSON), for people. */
  problem?: string;
}

/** A request to one modality. */
export interface TryRequest {
  /** The route or `provider:model`. */
  model: string;
  /** Which endpoint. */
  modality: Modality;
  /** The prompt or text (all but transcription). */
  prompt: string;
  /** The audio to transcribe (transcription only). */
  audio?: File;
  /** Ask for a streamed text answer. */
  stream: boolean;
}

function urlOf(connection: GatewayConnection, path: string): string {
  return `${connection.baseUrl.replace(/\/+$/, '')}${path}`;
}

function headersOf(connection: GatewayConnection): Record<string, string> {
  return connection.key === '' ? {} : { authorization: `Bearer ${connection.key}` };
}

async function answerOf(response: Response, started: number): Promise<GatewayAnswer> {
  const text = await response.text();
  const base = {
    status: response.status,
    traceId: response.headers.get('x-trace-id'),
    elapsedMs: Math.round(performance.now() - started),
  };
  try {
    return { ...base, body: JSON.parse(text) };
  } catch {
    return { ...base, body: undefined, problem: `The answer (HTTP ${response.status}) is not JSON.` };
  }
}

async function networkFailure(
  error: unknown,
  started: number,
  connection: GatewayConnection,
): Promise<GatewayAnswer> {
  const aborted = error instanceof DOMException && error.name === 'AbortError';
  const elapsedMs = Math.round(performance.now() - started);
  return {
    status: 0,
    body: undefined,
    traceId: null,
    elapsedMs,
    // A refused origin and a gateway that is down look the same to the page; telling them apart says what to fix.
    problem: aborted ? 'Cancelled.' : await explainUnreachable(connection.baseUrl, location.origin),
  };
}

/** Reads the routes and aliases the gateway offers from `GET /v1/models`. */
export async function fetchModels(
  connection: GatewayConnection,
  signal?: AbortSignal,
): Promise<GatewayAnswer> {
  const started = performance.now();
  try {
    const response = await fetch(urlOf(connection, '/v1/models'), {
      headers: headersOf(connection),
      ...(signal === undefined ? {} : { signal }),
    });
    return await answerOf(response, started);
  } catch (error) {
    return networkFailure(error, started, connection);
  }
}

async function bodyOf(request: TryRequest): Promise<BodyInit> {
  if (request.modality === 'transcriptions') {
    const form = new FormData();
    form.set('model', request.model);
    if (request.audio !== undefined) form.set('file', request.audio, request.audio.name);
    return form;
  }
  const key = request.modality === 'text' || request.modality === 'speech' ? 'input' : 'prompt';
  return JSON.stringify({
    model: request.model,
    [key]: request.prompt,
    ...(request.modality === 'text' && request.stream ? { stream: true } : {}),
  });
}

/**
 * Sends one request. A streamed text answer calls `onDelta` with each piece of text as it arrives and ends
 * with the final event's envelope as the body.
 */
export async function sendRequest(
  connection: GatewayConnection,
  request: TryRequest,
  onDelta: (text: string) => void,
  signal: AbortSignal,
): Promise<GatewayAnswer> {
  const started = performance.now();
  const body = await bodyOf(request);
  const headers: Record<string, string> = { ...headersOf(connection) };
  if (typeof body === 'string') headers['content-type'] = 'application/json';
  try {
    const response = await fetch(urlOf(connection, MODALITIES[request.modality]), {
      method: 'POST',
      headers,
      body,
      signal,
    });
    const type = response.headers.get('content-type') ?? '';
    if (!type.startsWith('text/event-stream') || response.body === null)
      return await answerOf(response, started);
    const final = await readEventStream(response.body, onDelta);
    return {
      status: response.status,
      traceId: response.headers.get('x-trace-id'),
      elapsedMs: Math.round(performance.now() - started),
      body: final,
      ...(final === undefined ? { problem: 'The stream ended without its final envelope.' } : {}),
    };
  } catch (error) {
    return networkFailure(error, started, connection);
  }
}

/** One server-sent event: its name (`message` when unnamed) and its data lines joined. */
export interface ServerSentEvent {
  /** The `event:` field. */
  event: string;
  /** The `data:` lines, joined with line feeds. */
  data: string;
}

/**
 * Splits a growing SSE text into the complete events it holds and the unfinished rest (the WHATWG
 * event-stream format: fields per line, an empty line ends an event).
 */
export function takeEvents(buffer: string): { events: ServerSentEvent[]; rest: string } {
  const events: ServerSentEvent[] = [];
  const blocks = buffer.split(/\r\n\r\n|\n\n|\r\r/);
  const rest = blocks.pop() ?? '';
  for (const block of blocks) {
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split(/\r\n|\n|\r/)) {
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    }
    if (data.length > 0) events.push({ event, data: data.join('\n') });
  }
  return { events, rest };
}

/** The text piece a delta event carries, whatever its member is called. */
function deltaText(payload: unknown): string | undefined {
  if (typeof payload !== 'object' || payload === null) return undefined;
  for (const key of ['delta', 'text', 'content']) {
    const value = (payload as Record<string, unknown>)[key];
    if (typeof value === 'string') return value;
  }
  return undefined;
}

function isEnvelope(payload: unknown): boolean {
  return (
    typeof payload === 'object' &&
    payload !== null &&
    typeof (payload as { success?: unknown }).success === 'boolean'
  );
}

/** Reads a text stream: deltas go to `onDelta`; the last event holding an envelope is returned. */
async function readEventStream(
  stream: ReadableStream<Uint8Array>,
  onDelta: (text: string) => void,
): Promise<unknown> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let final: unknown;
  for (;;) {
    const { value, done } = await reader.read();
    if (value !== undefined) buffer += decoder.decode(value, { stream: true });
    const { events, rest } = takeEvents(done ? `${buffer}\n\n` : buffer);
    buffer = rest;
    for (const event of events) {
      let payload: unknown;
      try {
        payload = JSON.parse(event.data);
      } catch {
        continue;
      }
      if (isEnvelope(payload)) final = payload;
      else {
        const text = deltaText(payload);
        if (text !== undefined) onDelta(text);
      }
    }
    if (done) return final;
  }
}
