/**
 * A fault-injection provider: one local HTTP server on 127.0.0.1 speaking OpenAI Chat Completions
 * (`/v1/chat/completions`) and Anthropic Messages (`/v1/messages`), whose behaviour the test chooses per
 * request by the model id it asks for (`faulty:endless-line` → model `endless-line`). A second local server is
 * "another origin" that redirects point at; it records what reaches it.
 *
 *   const faults = await startFaultProvider();
 *   const gateway = createGateway({ providers: faults.providers() });
 *   await gateway.request('/v1/text', { method: 'POST', body: JSON.stringify({ model: 'faulty:huge-body', input: 'x' }) });
 *   faults.requests   // what reached it: path, headers, model
 *   faults.aborted    // models of requests whose client went away before the answer ended
 *   faults.elsewhere  // requests that reached the other origin
 *
 * Behaviours: `ok`, `endless-line`, `endless-body`, `huge-body`, `truncated-stream`, `html-200`, `redirect`,
 * `redirect-same-origin`, `echo-key`, `echo-key-answer`, `echo-key-stream`, `slow-first-byte`, `reset-mid-stream`, `reset-before-text`,
 * `schema-200`, `many-events`, `stall-mid-stream`, `trickle-event`, `gzip-bomb`, `deep-tool-arguments`, `proto-tool-arguments`,
 * `many-tool-calls`, `many-codings`, `header-overflow`, `1xx-flood`. Endless answers stop once the client goes away (or after `ENDLESS_CAP` bytes, so
 * a test that fails cannot fill the machine).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';

/** A gzip body that decodes to 64 MiB: the start of a JSON object whose string never ends. Made on first use. */
let gzipBomb: Buffer | undefined;
function gzipBombBody(): Buffer {
  gzipBomb ??= gzipSync(Buffer.concat([Buffer.from('{"id":"'), Buffer.alloc(64 * 1024 * 1024, 0x61)]));
  return gzipBomb;
}

/** What one request to the fault provider looked like. */
export interface FaultRequest {
  /** Path with query. */
  path: string;
  /** Request headers, lowercase names. */
  headers: Record<string, string>;
  /** The model id, which chose the behaviour. */
  model: string;
  /** Whether the request asked for a stream. */
  stream: boolean;
}

/** A running fault provider. */
export interface FaultProvider {
  /** `http://127.0.0.1:PORT/v1`, the base URL for the AI SDK providers. */
  baseURL: string;
  /** Gateway provider settings: `faulty` (openai) and `faulty-anthropic` (anthropic), both with `key`. */
  providers(key?: string): Record<string, { type: 'openai' | 'anthropic'; baseURL: string; apiKey: string }>;
  /** Requests that reached it, in order. */
  readonly requests: FaultRequest[];
  /** Models of requests whose client went away before the answer ended. */
  readonly aborted: string[];
  /** Requests that reached the other origin. */
  readonly elsewhere: { path: string; headers: Record<string, string>; body: string }[];
  /** Wait until `count` requests ended by the client going away (bounded by the test's timeout). */
  waitForAborts(count: number): Promise<void>;
  /** Forget recorded requests. */
  reset(): void;
  /** Stop both servers. */
  close(): Promise<void>;
}

/** The most bytes an endless answer sends before it gives up on its own. */
export const ENDLESS_CAP = 512 * 1024 * 1024;

const CHUNK = Buffer.alloc(64 * 1024, 'x');

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    );
  });
}

/** Write `CHUNK`s until the client goes away or the cap is reached; resolves when done. */
function writeEndlessly(res: ServerResponse, prefix: string): void {
  let sent = 0;
  res.write(prefix);
  const more = () => {
    while (!res.destroyed && sent < ENDLESS_CAP) {
      sent += CHUNK.length;
      if (!res.write(CHUNK)) {
        res.once('drain', more);
        return;
      }
    }
    if (!res.destroyed) res.end();
  };
  more();
}

function openAiChunk(model: string, delta: Record<string, unknown>, finish: string | null = null): string {
  const chunk = {
    id: 'chatcmpl-fault',
    object: 'chat.completion.chunk',
    created: 1,
    model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  };
  return `data: ${JSON.stringify(chunk)}\n\n`;
}

function anthropicEvent(type: string, data: Record<string, unknown>): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
}

function completion(model: string, text: string) {
  return {
    id: 'chatcmpl-fault',
    object: 'chat.completion',
    created: 1,
    model,
    choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
  };
}

/** A completion whose one tool call carries `args` as its arguments text. */
function toolCallCompletion(model: string, args: string) {
  return {
    ...completion(model, ''),
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_fault', type: 'function', function: { name: 'lookup', arguments: args } }],
        },
        finish_reason: 'tool_calls',
      },
    ],
  };
}

/** A completion with `count` tool calls. */
function manyToolCalls(model: string, count: number) {
  const calls = Array.from({ length: count }, (_, index) => ({
    id: `call_${index}`,
    type: 'function',
    function: { name: 'lookup', arguments: '{}' },
  }));
  const answer = toolCallCompletion(model, '{}');
  return {
    ...answer,
    choices: [{ ...answer.choices[0], message: { role: 'assistant', content: null, tool_calls: calls } }],
  };
}

function anthropicMessage(model: string, text: string) {
  return {
    id: 'msg_fault',
    type: 'message',
    role: 'assistant',
    model,
    content: [{ type: 'text', text }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 3, output_tokens: 2 },
  };
}

/** Start the fault provider and its other origin on 127.0.0.1. */
export async function startFaultProvider(): Promise<FaultProvider> {
  const requests: FaultRequest[] = [];
  const aborted: string[] = [];
  const elsewhere: FaultProvider['elsewhere'] = [];
  const abortWaiters: (() => void)[] = [];
  const other = createServer(async (req, res) => {
    elsewhere.push({
      path: req.url ?? '/',
      headers: req.headers as Record<string, string>,
      body: await readBody(req),
    });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(completion('elsewhere', 'Served by another origin.')));
  });
  const otherUrl = await listen(other);
  const server = createServer(async (req, res) => {
    const text = await readBody(req).catch(() => '');
    let body: { model?: unknown; stream?: unknown } = {};
    try {
      body = JSON.parse(text);
    } catch {}
    const model = typeof body.model === 'string' ? body.model : '';
    const stream = body.stream === true;
    const anthropic = (req.url ?? '').includes('/messages');
    requests.push({ path: req.url ?? '/', headers: req.headers as Record<string, string>, model, stream });
    res.on('close', () => {
      if (!res.writableFinished) {
        aborted.push(model);
        for (const wake of abortWaiters.splice(0)) wake();
      }
    });
    const sse = () =>
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const json = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    switch (model) {
      case 'endless-line':
        sse();
        return writeEndlessly(res, anthropic ? 'event: content_block_delta\ndata: ' : 'data: ');
      case 'endless-body':
        res.writeHead(200, { 'content-type': 'application/json' });
        return writeEndlessly(res, '{"id":"');
      case 'gzip-bomb':
        // 64 MiB of JSON text in a few hundred kilobytes of gzip: the bound counts what the provider's body decodes to.
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        return res.end(gzipBombBody());
      case 'huge-body':
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(2 * 1024 ** 3) });
        return writeEndlessly(res, '{"id":"');
      case 'many-events':
        sse();
        for (let index = 0; index < 2000 && !res.destroyed; index++) res.write(': keep-alive\n\n');
        return res.end();
      case 'truncated-stream':
        sse();
        if (anthropic) {
          res.write(
            anthropicEvent('message_start', { message: { ...anthropicMessage(model, ''), content: [] } }),
          );
          res.write(
            anthropicEvent('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
          );
          res.write(
            anthropicEvent('content_block_delta', {
              index: 0,
              delta: { type: 'text_delta', text: 'Half an' },
            }),
          );
        } else {
          res.write(openAiChunk(model, { role: 'assistant', content: '' }));
          res.write(openAiChunk(model, { content: 'Half an' }));
        }
        return res.end();
      case 'reset-mid-stream': {
        sse();
        const cut = () => setImmediate(() => res.socket?.destroy());
        if (anthropic) {
          res.write(
            anthropicEvent('message_start', { message: { ...anthropicMessage(model, ''), content: [] } }),
          );
          res.write(
            anthropicEvent('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
          );
          res.write(
            anthropicEvent('content_block_delta', {
              index: 0,
              delta: { type: 'text_delta', text: 'Half an' },
            }),
            cut,
          );
        } else {
          res.write(openAiChunk(model, { role: 'assistant', content: '' }));
          res.write(openAiChunk(model, { content: 'Half an' }), cut);
        }
        return;
      }
      case 'reset-before-text': {
        // The first request is cut before any text; the next one answers, so a retry succeeds.
        const seen = requests.filter((request) => request.model === model).length;
        if (seen > 1) break;
        sse();
        res.write(openAiChunk(model, { role: 'assistant', content: '' }), () =>
          setImmediate(() => res.socket?.destroy()),
        );
        return;
      }
      case 'stall-mid-stream':
        // One delta, then nothing until the client goes away.
        sse();
        res.write(openAiChunk(model, { role: 'assistant', content: '' }));
        res.write(openAiChunk(model, { content: 'Half an' }));
        return;
      case 'trickle-event': {
        // A whole stream, an event after its first delta written in three pieces a little apart.
        sse();
        res.write(openAiChunk(model, { role: 'assistant', content: '' }));
        res.write(openAiChunk(model, { content: 'First, ' }));
        const piece = openAiChunk(model, { content: 'written in pieces.' });
        const third = Math.floor(piece.length / 3);
        setTimeout(() => res.write(piece.slice(0, third)), 100);
        setTimeout(() => res.write(piece.slice(third, 2 * third)), 200);
        setTimeout(() => {
          res.write(piece.slice(2 * third));
          res.write(openAiChunk(model, {}, 'stop'));
          res.end('data: [DONE]\n\n');
        }, 300);
        return;
      }
      case 'html-200':
        res.writeHead(200, { 'content-type': 'text/html' });
        return res.end('<!doctype html><title>Sign in</title><p>Please sign in.</p>');
      case 'redirect':
        res.writeHead(307, { location: `${otherUrl}/v1${anthropic ? '/messages' : '/chat/completions'}` });
        return res.end();
      case 'redirect-same-origin':
        res.writeHead(307, { location: '/v1/elsewhere' });
        return res.end();
      case 'echo-key': {
        const sent = req.headers.authorization ?? `x-api-key ${req.headers['x-api-key'] ?? ''}`;
        const message = `Incorrect API key provided: ${sent}.`;
        return json(401, {
          error: { message, type: 'invalid_request_error', code: 'invalid_api_key', param: sent },
          detail: sent,
        });
      }
      case 'echo-key-answer': {
        // A success that carries the key it was sent in every field a provider controls.
        const key = (req.headers.authorization ?? '').replace(/^Bearer /, '');
        const answer = toolCallCompletion(`gpt-${key}`, JSON.stringify({ q: key }));
        const choice = answer.choices[0];
        if (choice !== undefined) {
          Object.assign(choice.message, {
            content: `the key is ${key}`,
            reasoning_content: `thinking of ${key}`,
          });
        }
        res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': `req-${key}` });
        return res.end(JSON.stringify({ ...answer, id: `chatcmpl-${key}` }));
      }
      case 'echo-key-stream': {
        // A stream that carries the key it was sent whole and split across deltas, in text and tool arguments.
        const key = (req.headers.authorization ?? '').replace(/^Bearer /, '');
        const half = Math.floor(key.length / 2);
        res.writeHead(200, { 'content-type': 'text/event-stream', 'x-request-id': `req-${key}` });
        res.write(openAiChunk(`gpt-${key}`, { role: 'assistant', content: `whole ${key} then ` }));
        res.write(openAiChunk(`gpt-${key}`, { content: `split ${key.slice(0, half)}` }));
        res.write(openAiChunk(`gpt-${key}`, { content: `${key.slice(half)} end` }));
        const call = (args: string, first: boolean) => ({
          tool_calls: [
            {
              index: 0,
              ...(first ? { id: 'call_fault', type: 'function' } : {}),
              function: { ...(first ? { name: 'lookup' } : {}), arguments: args },
            },
          ],
        });
        res.write(openAiChunk(`gpt-${key}`, call(`{"q":"${key.slice(0, half)}`, true)));
        res.write(openAiChunk(`gpt-${key}`, call(`${key.slice(half)}"}`, false), 'tool_calls'));
        return res.end('data: [DONE]\n\n');
      }
      case 'slow-first-byte':
        // Never answers: the gateway's time-to-first-byte bound ends it.
        return;
      case 'schema-200':
        return json(200, { unexpected: true, choices: 'not a list' });
      case 'deep-tool-arguments':
        // Valid JSON nested 50 000 levels deep: a recursive reader runs out of stack.
        return json(200, toolCallCompletion(model, `${'['.repeat(50_000)}${']'.repeat(50_000)}`));
      case 'proto-tool-arguments':
        return json(200, toolCallCompletion(model, '{"__proto__":{"admin":true},"city":"Paris"}'));
      case 'many-tool-calls':
        if (!stream) return json(200, manyToolCalls(model, 2000));
        // 2 000 calls in 20 chunks of 100, under the stream's event bound.
        sse();
        res.write(openAiChunk(model, { role: 'assistant', content: null }));
        for (let chunk = 0; chunk < 20; chunk++) {
          const calls = Array.from({ length: 100 }, (_, offset) => ({
            index: chunk * 100 + offset,
            id: `call_${chunk * 100 + offset}`,
            type: 'function',
            function: { name: 'lookup', arguments: '{}' },
          }));
          res.write(openAiChunk(model, { tool_calls: calls }));
        }
        res.write(openAiChunk(model, {}, 'tool_calls'));
        res.write('data: [DONE]\n\n');
        return res.end();
      case 'many-codings':
        res.writeHead(200, {
          'content-type': 'application/json',
          'content-encoding': Array(6).fill('gzip').join(', '),
        });
        return res.end(gzipSync('{}'));
      case '1xx-flood': {
        // Informational answers without end, until the client goes away.
        const socket = res.socket;
        if (socket === null) return;
        let sent = 0;
        const flood = () => {
          while (!socket.destroyed && sent < 2_000_000) {
            sent++;
            if (!socket.write('HTTP/1.1 100 Continue\r\n\r\n')) return socket.once('drain', flood);
          }
        };
        return flood();
      }
      case 'header-overflow': {
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        for (let index = 0; index < 40; index++) headers[`x-filler-${index}`] = 'a'.repeat(1000);
        res.writeHead(200, headers);
        return res.end(JSON.stringify(completion(model, 'Hi.')));
      }
    }
    if (stream) {
      sse();
      if (anthropic) {
        res.write(
          anthropicEvent('message_start', { message: { ...anthropicMessage(model, ''), content: [] } }),
        );
        res.write(
          anthropicEvent('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
        );
        res.write(
          anthropicEvent('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'Hi.' } }),
        );
        res.write(anthropicEvent('content_block_stop', { index: 0 }));
        res.write(
          anthropicEvent('message_delta', {
            delta: { stop_reason: 'end_turn' },
            usage: { output_tokens: 2 },
          }),
        );
        res.write(anthropicEvent('message_stop', {}));
      } else {
        res.write(openAiChunk(model, { role: 'assistant', content: '' }));
        res.write(openAiChunk(model, { content: 'Hi.' }));
        res.write(openAiChunk(model, {}, 'stop'));
        res.write('data: [DONE]\n\n');
      }
      return res.end();
    }
    json(200, anthropic ? anthropicMessage(model, 'Hi.') : completion(model, 'Hi.'));
  });
  const url = await listen(server);
  return {
    baseURL: `${url}/v1`,
    providers: (key = 'sk-fault-provider-key-0123456789') => ({
      faulty: { type: 'openai', baseURL: `${url}/v1`, apiKey: key },
      'faulty-anthropic': { type: 'anthropic', baseURL: `${url}/v1`, apiKey: key },
    }),
    requests,
    aborted,
    elsewhere,
    async waitForAborts(count) {
      while (aborted.length < count) await new Promise<void>((wake) => abortWaiters.push(wake));
    },
    reset() {
      requests.length = 0;
      aborted.length = 0;
      elsewhere.length = 0;
    },
    async close() {
      server.closeAllConnections();
      other.closeAllConnections();
      await Promise.all([
        new Promise((done) => server.close(done)),
        new Promise((done) => other.close(done)),
      ]);
    },
  };
}
