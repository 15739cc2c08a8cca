import { describe, expect, test } from 'vitest';
import { explainUnreachable, type Probe } from './explain-unreachable.js';
import { readCatalog } from './read-catalog.js';

const PAGE = 'http://127.0.0.1:5173';
const answers: Probe = async () => ({ type: 'opaque' });
const refuses: Probe = async () => {
  throw new TypeError('Failed to fetch');
};

describe('explainUnreachable', () => {
  test('a gateway on another origin that answers the no-cors probe refuses the origin: CORS, and both fixes', async () => {
    const probed: { url: string; init: RequestInit }[] = [];
    const message = await explainUnreachable('http://127.0.0.1:8787/', PAGE, async (url, init) => {
      probed.push({ url, init });
      return answers(url, init);
    });
    expect(probed).toEqual([
      { url: 'http://127.0.0.1:8787/healthz', init: expect.objectContaining({ mode: 'no-cors' }) },
    ]);
    expect(message).toContain(`refuses requests from this page's origin (${PAGE})`);
    expect(message).toContain('http://127.0.0.1:8787/');
    expect(message).toContain(`add "${PAGE}" to cors.origins`);
  });

  test('a gateway on another origin that does not answer at all is down: start it or fix the address', async () => {
    const message = await explainUnreachable('http://127.0.0.1:8787', PAGE, refuses);
    expect(message).toMatch(/^No gateway answers at http:\/\/127\.0\.0\.1:8787: start it/);
    expect(message).toContain('--demo');
    expect(message).not.toContain('cors');
  });

  test('the page’s own origin cannot be refused by CORS: no probe, the gateway is down', async () => {
    for (const baseUrl of ['', `${PAGE}/`]) {
      let probes = 0;
      const message = await explainUnreachable(baseUrl, PAGE, async () => {
        probes++;
      });
      expect(probes).toBe(0);
      expect(message).toContain(`No gateway answers at ${PAGE}`);
    }
  });
});

describe('readCatalog', () => {
  test('keeps the demo label of GET /v1/models', () => {
    const catalog = readCatalog({
      metadata: {
        providers: [
          { id: 'demo', modalities: ['text'], demo: true },
          { id: 'openai', modalities: ['text'] },
        ],
      },
    });
    expect(catalog.providers.map(({ id, label }) => ({ id, label }))).toEqual([
      { id: 'demo', label: 'offline demo, recorded answers' },
      { id: 'openai', label: undefined },
    ]);
  });
});
