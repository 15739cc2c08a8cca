import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { createGateway } from '../../src/gateway/index.js';
import { parseSse, readEnvelope } from './envelope-assertions.js';
import { useReplay } from './use-replay.js';

const DOC = readFileSync(new URL('../../docs/gateway.md', import.meta.url), 'utf8');

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
    const gateway = createGateway({
      env: {
        OPENAI_API_KEY: 'sk-docs',
        OPENAI_BASE_URL: replay().baseURL.openai,
        ANTHROPIC_API_KEY: 'sk-ant-docs',
        ANTHROPIC_BASE_URL: replay().baseURL.anthropic,
        REPLICATE_API_TOKEN: 'r8-docs',
        REPLICATE_BASE_URL: replay().baseURL.replicate,
      },
      videoPollMs: 10,
    });
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
