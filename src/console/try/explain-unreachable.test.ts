import { describe, expect, test, vi } from 'vitest';
import { createClient, type UnifiedFailure } from '../../client/index.js';
import { assembleFailure } from '../../unified/assemble-output.js';
import { explainUnreachable } from './explain-unreachable.js';
import { readCatalog } from './read-catalog.js';

const PAGE = 'http://127.0.0.1:5173';

/** A failure as verdict/client makes it when no answer arrived. */
function failure(
  code: 'PROVIDER_UNAVAILABLE' | 'REQUEST_TIMEOUT',
  details: Record<string, unknown>,
): UnifiedFailure {
  return assembleFailure('system', code, 'No answer from the gateway: Failed to fetch', details, {
    trace_id: 'trc_local',
  });
}

describe('explainUnreachable', () => {
  test('a gateway that refuses the origin: CORS, and both fixes', () => {
    const message = explainUnreachable(
      failure('PROVIDER_UNAVAILABLE', {
        reason: 'origin_refused',
        gateway: 'http://127.0.0.1:8787',
        page_origin: PAGE,
      }),
      PAGE,
    );
    expect(message).toContain(`refuses requests from this page's origin (${PAGE})`);
    expect(message).toContain('at http://127.0.0.1:8787/,');
    expect(message).toContain(`add "${PAGE}" to cors.origins`);
  });

  test('a gateway that does not answer at all is down: start it or fix the address', () => {
    const message = explainUnreachable(
      failure('PROVIDER_UNAVAILABLE', { reason: 'unreachable', gateway: 'http://127.0.0.1:8787' }),
      PAGE,
    );
    expect(message).toMatch(/^No gateway answers at http:\/\/127\.0\.0\.1:8787: start it/);
    expect(message).toContain('--demo');
    expect(message).not.toContain('cors');
    expect(explainUnreachable(failure('PROVIDER_UNAVAILABLE', {}), PAGE)).toContain(
      `No gateway answers at ${PAGE}`,
    );
  });

  test('a cancelled call says so', () => {
    expect(explainUnreachable(failure('REQUEST_TIMEOUT', {}), PAGE)).toBe('Cancelled.');
  });

  test('reads the failures verdict/client makes in a page', async () => {
    vi.stubGlobal('location', { origin: PAGE });
    try {
      const calls = (probeAnswers: boolean) =>
        createClient({
          baseURL: 'http://127.0.0.1:8787',
          fetch: async (_url, init) => {
            if (init?.mode === 'no-cors' && probeAnswers) return new Response(null);
            throw new TypeError('Failed to fetch');
          },
        }).models();
      const [refused, down] = await Promise.all([calls(true), calls(false)]);
      if (refused.success || down.success) throw new Error('a failed fetch answered a success');
      expect(explainUnreachable(refused, PAGE)).toContain(`add "${PAGE}" to cors.origins`);
      expect(explainUnreachable(down, PAGE)).toMatch(/^No gateway answers at http:\/\/127\.0\.0\.1:8787: /);
    } finally {
      vi.unstubAllGlobals();
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
      { id: 'demo', label: 'offline demo, generated answers' },
      { id: 'openai', label: undefined },
    ]);
  });
});
