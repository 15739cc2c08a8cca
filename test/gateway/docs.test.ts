import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { createGateway } from '../../src/gateway/index.js';
import { matchesOutput, parseTranscript } from '../docs/markdown-examples.js';
import type { ReplayProviders } from '../helpers/replay-providers.js';
import { parseSse, readEnvelope } from './envelope-assertions.js';
import { useReplay } from './use-replay.js';

const DOC = readFileSync(new URL('../../docs/gateway.md', import.meta.url), 'utf8');
const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** Each `curl` example of docs/gateway.md with the answer printed under it. */
const EXAMPLES = [
  ...DOC.matchAll(
    /```sh\ncurl -sN? localhost:8787(\S+) -H '([^:]+): ([^']+)' -d '([^']+)'\n```\n```(json|text)\n([\s\S]*?)```/g,
  ),
].map(([, path, header, value, body, kind, answer]) => ({
  path: path as string,
  headers: { [header as string]: value as string },
  body: body as string,
  kind: kind as string,
  answer: (answer as string).trim(),
}));

function withoutLatency(envelope: unknown): unknown {
  const copy = structuredClone(envelope) as { metadata?: Record<string, unknown> };
  delete copy.metadata?.latency_ms;
  return copy;
}

/** Each `curl` of the README's console blocks, with the lines the README shows under it. */
const README_EXAMPLES = [...README.matchAll(/```console\n([\s\S]*?)```/g)]
  .flatMap(([, body]) => parseTranscript((body as string).replace(/\n$/, '').split('\n')))
  .filter((step) => step.command.startsWith('curl '))
  .map((step) => {
    const parsed = /^curl -sN? localhost:8787(\S+)(?: -H '([^:]+): ([^']+)')? -d '([^']+)'$/.exec(
      step.command,
    );
    if (parsed === null)
      throw new Error(`README.md: a curl example this test cannot replay: ${step.command}`);
    const [, path, header, value, body] = parsed;
    return {
      path: path as string,
      headers: header === undefined ? {} : { [header]: value as string },
      body: body as string,
      shown: step.expected,
    };
  });

/** A gateway in front of the replay providers, with the keys and base URLs the docs' examples set. */
function docsGateway(replay: ReplayProviders) {
  return createGateway({
    env: {
      OPENAI_API_KEY: 'sk-docs',
      OPENAI_BASE_URL: replay.baseURL.openai,
      ANTHROPIC_API_KEY: 'sk-ant-docs',
      ANTHROPIC_BASE_URL: replay.baseURL.anthropic,
      REPLICATE_API_TOKEN: 'r8-docs',
      REPLICATE_BASE_URL: replay.baseURL.replicate,
    },
    videoPollMs: 10,
  });
}

const replay = useReplay();

describe('docs/gateway.md', () => {
  test('has an example per modality and for failures', () => {
    expect(EXAMPLES.map((example) => example.path)).toEqual([
      '/v1/text',
      '/v1/text',
      '/v1/images',
      '/v1/speech',
      '/v1/transcriptions',
      '/v1/videos',
      '/v1/text',
      '/v1/text',
    ]);
  });

  test('every example gives the answer the page shows (latency aside), in the page order', async () => {
    const gateway = docsGateway(replay());
    for (const example of EXAMPLES) {
      const response = await gateway.request(example.path, {
        method: 'POST',
        headers: example.headers,
        body: example.body,
      });
      if (example.kind === 'text') {
        const got = parseSse(await response.text());
        const shown = parseSse(example.answer);
        expect(got.map((event) => event.event)).toEqual(shown.map((event) => event.event));
        got.forEach((event, index) => {
          expect(withoutLatency(JSON.parse(event.data))).toEqual(
            withoutLatency(JSON.parse(shown[index]?.data ?? '')),
          );
        });
      } else {
        const { envelope } = await readEnvelope(response);
        expect(withoutLatency(envelope)).toEqual(withoutLatency(JSON.parse(example.answer)));
      }
    }
  });
});

describe('README.md', () => {
  test('its gateway blocks have a request per modality, a streamed text and a tool-call round trip', () => {
    expect(
      README_EXAMPLES.map((example) => [example.path, JSON.parse(example.body).stream === true]),
    ).toEqual([
      ['/v1/text', false],
      ['/v1/text', true],
      ['/v1/images', false],
      ['/v1/speech', false],
      ['/v1/transcriptions', false],
      ['/v1/videos', false],
      ['/v1/text', false],
      ['/v1/text', false],
    ]);
  });

  test('every curl prints what `verdict gateway --demo` answers (trace ids, latencies and `…` elisions aside)', async () => {
    // The README's block is what `verdict gateway --demo` answers, with no provider key at all.
    const gateway = createGateway({ providers: { demo: { type: 'demo' } } });
    for (const example of README_EXAMPLES) {
      const response = await gateway.request(example.path, {
        method: 'POST',
        headers: example.headers,
        body: example.body,
      });
      const printed = (await response.text()).replace(/\n+$/, '').split('\n');
      expect({ curl: example.body, printed }).toEqual({
        curl: example.body,
        printed: matchesOutput(example.shown, printed) ? printed : example.shown,
      });
    }
  });
});
