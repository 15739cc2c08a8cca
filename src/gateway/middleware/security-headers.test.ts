import { describe, expect, test } from 'vitest';
import { createGateway } from '../create-gateway.js';

const EXPECTED = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

function securityHeadersOf(response: Response) {
  return {
    'x-content-type-options': response.headers.get('x-content-type-options'),
    'referrer-policy': response.headers.get('referrer-policy'),
    csp: response.headers.get('content-security-policy') ?? '',
  };
}

describe('createSecurityHeaders', () => {
  const gateway = createGateway({
    providers: { demo: { type: 'demo' } },
    console: (request) =>
      new URL(request.url).pathname === '/'
        ? new Response('<!doctype html><title>console</title>', { headers: { 'content-type': 'text/html' } })
        : undefined,
  });
  const post = (body: unknown) =>
    gateway.request('/v1/text', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  test('every answer carries them: the console page, an envelope, a stream, a failure, a 404', async () => {
    const answers = [
      await gateway.request('/'),
      await post({ model: 'demo:chat', input: 'Hi' }),
      await post({ model: 'demo:chat', input: 'Hi', stream: true }),
      await post({ model: 'demo:chat' }),
      await gateway.request('/v1/nothing'),
      await gateway.request('/healthz'),
    ];
    for (const answer of answers) {
      await answer.body?.cancel();
      const shown = securityHeadersOf(answer);
      expect(shown).toMatchObject(EXPECTED);
      expect(shown.csp).toContain("frame-ancestors 'none'");
      expect(shown.csp).toContain("script-src 'self'");
      expect(shown.csp).not.toContain('unsafe');
    }
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 400, 404, 200]);
  });
});
