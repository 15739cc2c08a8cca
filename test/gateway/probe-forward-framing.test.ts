import { beforeEach, describe, expect, test } from 'vitest';
import { createGateway, type GatewayOptions } from '../../src/gateway/index.js';
import { fixture, type ReplayProviders } from '../helpers/replay-providers.js';
import { useReplay } from './use-replay.js';

/**
 * Hostile provider bytes on the same-format forwarding path: whatever a provider's stream holds, the client's
 * stream stays well-formed server-sent events, each event whole and the gateway's own error event apart from the
 * provider's.
 */

const replayServer = useReplay();
let replay: ReplayProviders;
beforeEach(() => {
  replay = replayServer();
});

const KEY = 'gateway-key-for-framing-probes';

function gatewayOf(options: Partial<GatewayOptions> = {}) {
  return createGateway({
    providers: replay.providers() as GatewayOptions['providers'],
    keys: [KEY],
    retries: 0,
    log: () => undefined,
    ...options,
  });
}

function post(gateway: ReturnType<typeof gatewayOf>, path: string, body: unknown) {
  return gateway.request(path, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** The events of a server-sent-events text as a client reads them: only events ended by a blank line count. */
function clientEvents(text: string): { event: string | undefined; data: string }[] {
  const events: { event: string | undefined; data: string }[] = [];
  const blocks = text.replace(/\r\n|\r/g, '\n').split('\n\n');
  // The last block has no blank line after it: a client drops it.
  blocks.pop();
  for (const block of blocks) {
    let event: string | undefined;
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(line.charAt(5) === ' ' ? 6 : 5));
    }
    if (data.length > 0) events.push({ event, data: data.join('\n') });
  }
  return events;
}

const OPENAI_STREAM = (fixture('openai.chat/success/stream-text.json').events ?? []) as unknown[];
const openAiRequest = {
  model: 'openai:gpt-4.1-mini',
  messages: [{ role: 'user', content: 'Capital of France?' }],
  stream: true,
};

describe('a forwarded OpenAI stream whose last event has no blank line after it', () => {
  test('a stream cut after an unterminated event still ends with a separate, parseable error event', async () => {
    const frames = OPENAI_STREAM.slice(0, 3).map((event) => `data: ${JSON.stringify(event)}`);
    // The provider's last event is not ended by a blank line, and no [DONE] follows: the stream is cut.
    replay.enqueue({ sse: `${frames.slice(0, 2).join('\n\n')}\n\n${frames[2]}` });
    const answer = await post(gatewayOf(), '/openai/v1/chat/completions', openAiRequest);
    expect(answer.status).toBe(200);
    const events = clientEvents(await answer.text());
    // Every event the client reads is JSON, and the last is the gateway's error event.
    for (const event of events) expect(() => JSON.parse(event.data)).not.toThrow();
    const last = JSON.parse(events.at(-1)?.data ?? '{}') as { error?: { verdict_code?: string } };
    expect(last.error?.verdict_code).toBe('INVALID_PROVIDER_RESPONSE');
  });

  test('a whole stream whose [DONE] has no blank line after it reaches the client with its [DONE] event', async () => {
    const body = `${OPENAI_STREAM.map((event) => `data: ${JSON.stringify(event)}\n\n`).join('')}data: [DONE]`;
    replay.enqueue({ sse: body });
    const answer = await post(gatewayOf(), '/openai/v1/chat/completions', openAiRequest);
    const events = clientEvents(await answer.text());
    expect(events.at(-1)?.data).toBe('[DONE]');
  });
});

describe('a forwarded Anthropic stream whose last event has no blank line after it', () => {
  test('the client reads message_stop', async () => {
    const events = (fixture('anthropic.messages/success/stream-text-and-tool.json').events ?? []) as {
      type: string;
    }[];
    const body = events.map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}`).join('\n\n');
    replay.enqueue({ sse: body });
    const answer = await post(gatewayOf(), '/anthropic/v1/messages', {
      model: 'anthropic:claude-sonnet-4-5',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'Hi' }],
      stream: true,
    });
    expect(answer.status).toBe(200);
    const read = clientEvents(await answer.text());
    expect(read.at(-1)?.event).toBe('message_stop');
  });
});
