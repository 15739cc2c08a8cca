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

/** Each `curl` of a page's console blocks (the demo's answers), with the lines the page shows under it. */
function demoCurlsOf(page: string, name: string) {
  return [...page.matchAll(/```console\n([\s\S]*?)```/g)]
    .flatMap(([, body]) => parseTranscript((body as string).replace(/\n$/, '').split('\n')))
    .filter((step) => step.command.startsWith('curl '))
    .map((step) => {
      const parsed = /^curl -sN? localhost:8787(\S+)(?: -H '([^:]+): ([^']+)')? -d '([^']+)'$/.exec(
        step.command,
      );
      if (parsed === null)
        throw new Error(`${name}: a curl example this test cannot replay: ${step.command}`);
      const [, path, header, value, body] = parsed;
      return {
        path: path as string,
        headers: header === undefined ? {} : { [header]: value as string },
        body: body as string,
        shown: step.expected,
      };
    });
}

const README_EXAMPLES = demoCurlsOf(README, 'README.md');
/** The demo provider's section of docs/gateway.md: its console block is answered by `--demo`. */
const DEMO_SECTION = DOC.slice(
  DOC.indexOf('### The demo provider'),
  DOC.indexOf('\n### ', DOC.indexOf('### The demo provider') + 1),
);
const DEMO_EXAMPLES = demoCurlsOf(DEMO_SECTION, 'docs/gateway.md');

/** Replays each curl against the demo provider, as `verdict gateway --demo` serves it, and compares the output. */
async function expectDemoAnswers(examples: ReturnType<typeof demoCurlsOf>) {
  const gateway = createGateway({ providers: { demo: { type: 'demo' } } });
  for (const example of examples) {
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
}

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

describe('the demo curls of docs/gateway.md and README.md', () => {
  test('docs/gateway.md has a request per modality, a stream, a failure, an object and a tool-call round trip', () => {
    expect(
      DEMO_EXAMPLES.map((example) => [
        example.path,
        JSON.parse(example.body).model,
        JSON.parse(example.body).stream === true,
      ]),
    ).toEqual([
      ['/v1/text', 'demo:chat', false],
      ['/v1/text', 'demo:chat', true],
      ['/v1/images', 'demo:image', false],
      ['/v1/speech', 'demo:tts', false],
      ['/v1/transcriptions', 'demo:stt', false],
      ['/v1/videos', 'demo:video', false],
      ['/v1/text', 'demo:fail', false],
      ['/v1/text', 'demo:chat', false],
      ['/v1/text', 'demo:chat', false],
      ['/v1/text', 'demo:chat', false],
    ]);
  });

  test('the README shows an answer and a failure of the demo', () => {
    expect(README_EXAMPLES.map((example) => JSON.parse(example.body).model)).toEqual([
      'demo:chat',
      'demo:fail',
    ]);
  });

  test('every curl of docs/gateway.md prints what `verdict gateway --demo` answers (trace ids, latencies and `…` elisions aside)', async () => {
    await expectDemoAnswers(DEMO_EXAMPLES);
  });

  test('every curl of the README prints what `verdict gateway --demo` answers', async () => {
    await expectDemoAnswers(README_EXAMPLES);
  });
});
