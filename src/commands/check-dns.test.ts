import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type DnsResponder, findClosedUdpPort, startDnsResponder } from '../../test/helpers/dns-responder.js';
import { invokeCommand } from '../../test/helpers/invoke-command.js';
import { checkDns, parseDnsServer } from './check-dns.js';

let dns: DnsResponder;

beforeAll(async () => {
  dns = await startDnsResponder({
    'example.test': [
      { type: 'A', address: '192.0.2.10', ttl: 120 },
      { type: 'A', address: '192.0.2.11', ttl: 120 },
      { type: 'AAAA', address: '2001:db8::10', ttl: 60 },
      { type: 'MX', priority: 10, exchange: 'mail.example.test' },
      { type: 'TXT', chunks: ['v=spf1 ', '-all'] },
      { type: 'NS', target: 'ns1.example.test' },
    ],
    'www.example.test': [{ type: 'CNAME', target: 'example.test' }],
    'broken.test': { rcode: 'SERVFAIL' },
    'silent.test': { silent: true },
  });
});

afterAll(() => dns.close());

const query = (options: Record<string, unknown>) =>
  invokeCommand(checkDns, { server: dns.server, ...options });

describe('checkDns', () => {
  test('resolves A records with their TTL from the given server', async () => {
    const result = await query({ name: 'example.test' });
    expect(result).toMatchObject({
      success: true,
      name: 'example.test',
      type: 'A',
      server: dns.server,
      count: 2,
      records: [
        { type: 'A', value: '192.0.2.10', ttl: 120 },
        { type: 'A', value: '192.0.2.11', ttl: 120 },
      ],
    });
  });

  test.each([
    ['AAAA', 'example.test', [{ type: 'AAAA', value: '2001:db8::10', ttl: 60 }]],
    ['MX', 'example.test', [{ type: 'MX', value: 'mail.example.test', priority: 10 }]],
    ['TXT', 'example.test', [{ type: 'TXT', value: 'v=spf1 -all', chunks: ['v=spf1 ', '-all'] }]],
    ['NS', 'example.test', [{ type: 'NS', value: 'ns1.example.test' }]],
    ['CNAME', 'www.example.test', [{ type: 'CNAME', value: 'example.test' }]],
  ])('resolves %s records', async (type, name, records) => {
    const result = await query({ name, type });
    expect(result).toMatchObject({ success: true, type, records });
  });

  test('reports dns_name_not_found for NXDOMAIN', async () => {
    const result = await query({ name: 'missing.test' });
    expect(result).toMatchObject({
      success: false,
      error_code: 'dns_name_not_found',
      dns_error: 'ENOTFOUND',
    });
  });

  test('reports dns_no_records when the name exists without records of the type', async () => {
    const result = await query({ name: 'www.example.test', type: 'MX' });
    expect(result).toMatchObject({ success: false, error_code: 'dns_no_records', dns_error: 'ENODATA' });
  });

  test('reports dns_server_failure for SERVFAIL', async () => {
    const result = await query({ name: 'broken.test' });
    expect(result).toMatchObject({
      success: false,
      error_code: 'dns_server_failure',
      dns_error: 'ESERVFAIL',
    });
  });

  test('reports dns_timeout when the server stays silent, never before the deadline', async () => {
    const started = performance.now();
    const result = await query({ name: 'silent.test', timeout: 0.3 });
    const elapsed = performance.now() - started;
    expect(result).toMatchObject({ success: false, error_code: 'dns_timeout', timeout_ms: 300 });
    // Only the lower bound is asserted: a busy machine can make the answer late, never early.
    expect(elapsed).toBeGreaterThanOrEqual(290);
  });

  test('reports dns_server_unreachable when nothing listens on the port', async () => {
    const port = await findClosedUdpPort();
    const result = await invokeCommand(checkDns, { name: 'example.test', server: `127.0.0.1:${port}` });
    expect(result).toMatchObject({
      success: false,
      error_code: 'dns_server_unreachable',
      dns_error: 'ECONNREFUSED',
      server: `127.0.0.1:${port}`,
    });
  });

  test('reports a host name as --server as invalid_arguments', async () => {
    const result = await query({ name: 'example.test', server: 'dns.example:53' });
    expect(result).toMatchObject({ success: false, error_code: 'invalid_arguments' });
  });
});

describe('parseDnsServer', () => {
  test.each([
    ['1.1.1.1', '1.1.1.1'],
    ['127.0.0.1:5353', '127.0.0.1:5353'],
    ['::1', '::1'],
    ['[::1]', '::1'],
    ['[::1]:5353', '[::1]:5353'],
    ['localhost', undefined],
    ['1.1.1.1:99999', undefined],
    ['[1.1.1.1]:53', undefined],
  ])('%s → %s', (input, expected) => {
    expect(parseDnsServer(input)).toBe(expected);
  });
});
