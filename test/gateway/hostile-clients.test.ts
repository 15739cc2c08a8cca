import { describe, expect, test } from 'vitest';
import { runFaultSuite } from '../helpers/fault-suite.js';
import { CLI_PATH } from '../helpers/spawn-cli.js';

describe('verdict gateway under faulty providers and hostile clients', () => {
  test('every answer is an envelope with its status, the gateway never dies, and its memory returns', async () => {
    // A 200 MiB heap: a gateway that buffered what faulty providers send without bound would die of it.
    const report = await runFaultSuite({ cliPath: CLI_PATH, nodeOptions: '--max-old-space-size=200' });
    expect(report.problems).toEqual([]);
    expect(report.alive).toBe(true);
    expect(report.exitCode).toBe(0);
    // Slow headers and bodies, redirects, bounds, streams cut short and the shutdown each got their code.
    // (A request that arrives while the gateway's loop is busy may meet the headers timeout too: hence "at least".)
    expect(report.codes.REQUEST_TIMEOUT).toBeGreaterThanOrEqual(60);
    expect(report.codes.INTERNAL_ERROR).toBeUndefined();
    expect(report.codes).toMatchObject({
      INVALID_PROVIDER_RESPONSE: expect.any(Number),
      PROVIDER_UNAVAILABLE: expect.any(Number),
      PROVIDER_ERROR: expect.any(Number),
      PROVIDER_TIMEOUT: expect.any(Number),
      AUTHENTICATION_ERROR: 4,
      VALIDATION_ERROR: 2,
    });
    // Clients that left while queued are their own label, never a 429 or a 5xx of the gateway.
    const text = report.logLines.filter((line) => line.route === '/v1/text');
    expect(text.filter((line) => line.code === 'client_closed').length).toBeGreaterThanOrEqual(20);
    expect(text.some((line) => line.status === 429 || line.code === 'INTERNAL_ERROR')).toBe(false);
    // The three streams in flight at shutdown ended with a final failure event, each with a log line.
    const atShutdown = text.filter((line) => line.code === 'PROVIDER_UNAVAILABLE' && line.status === 200);
    expect(atShutdown.length).toBeGreaterThanOrEqual(3);
    if (report.rssMiB !== undefined) {
      // Each bound caps what one answer can hold (64 MiB by default), so memory levels off instead of growing.
      expect(report.rssMiB.settled).toBeLessThan(report.rssMiB.baseline + 192);
    }
  }, 180_000);
});
