import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, LookupFunction } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { createProviderFetch } from '../../src/gateway/ai-sdk/provider-fetch.js';
import { createAddressAllowList, isInternalAddress } from '../../src/gateway/basics/internal-address.js';
import { createGateway, type GatewayOptions } from '../../src/gateway/index.js';
import { fixture, type ReplayProviders } from '../helpers/replay-providers.js';
import { useReplay } from './use-replay.js';

// A provider's answer names the files to download (a Replicate output); a name that resolves to the gateway's
// own network must not be fetched, whatever the name looks like.
const replayServer = useReplay();
let replay: ReplayProviders;
let internal: Server;
let internalPort = 0;
let internalHits = 0;
let internalBody: Buffer = Buffer.from('{"secret":"internal only"}');
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

/** Names this test resolves itself; everything else goes to the system resolver. */
const NAMES: Record<string, LookupAddress[]> = {
  'files.internal-service.example': [{ address: '127.0.0.1', family: 4 }],
  'mapped.example': [{ address: '::ffff:127.0.0.1', family: 6 }],
  'metadata.example': [{ address: '169.254.169.254', family: 4 }],
  'mixed.example': [
    { address: '93.184.216.34', family: 4 },
    { address: '10.0.0.7', family: 4 },
  ],
};
const lookup: LookupFunction = (hostname, options, callback) => {
  const known = NAMES[hostname];
  if (known === undefined) return dnsLookup(hostname, options, callback);
  if (options.all) return (callback as unknown as (error: null, all: LookupAddress[]) => void)(null, known);
  const [first] = known as [LookupAddress];
  callback(null, first.address, first.family);
};

beforeAll(async () => {
  internal = createServer((_req, res) => {
    internalHits++;
    res.writeHead(200, { 'content-type': 'image/png' });
    res.end(internalBody);
  });
  await new Promise<void>((resolve) => internal.listen(0, '127.0.0.1', resolve));
  internalPort = (internal.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((resolve) => internal.close(resolve));
});
beforeEach(() => {
  replay = replayServer();
  internalHits = 0;
  internalBody = Buffer.from('{"secret":"internal only"}');
});

function gatewayWith(allowDownloadAddresses?: string[]) {
  const providerFetch = createProviderFetch({ lookup, allowDownloadAddresses });
  return createGateway({
    providers: replay.providers() as GatewayOptions['providers'],
    retryBaseMs: 1,
    fetch: providerFetch.fetch,
  });
}

/** A Replicate prediction that succeeded with its images at `urls`. */
function predictionWith(urls: string[]) {
  const answer = fixture('replicate.prediction/success/image-urls.json');
  return { ...answer, body: { ...(answer.body as object), output: urls }, match: '/predictions' };
}

async function images(gateway: ReturnType<typeof createGateway>) {
  const answer = await gateway.request('/v1/images', {
    method: 'POST',
    body: JSON.stringify({ model: 'replicate:owner/model', prompt: 'a fox' }),
    headers: { 'content-type': 'application/json' },
  });
  return { status: answer.status, envelope: await answer.json() };
}

describe('downloads a provider asks for', () => {
  test('a host name resolving to an internal address is refused at connect time as a provider fault', async () => {
    for (const host of [
      'files.internal-service.example',
      'mapped.example',
      'metadata.example',
      'mixed.example',
    ]) {
      replay.enqueue(predictionWith([`http://${host}:${internalPort}/out-0.png`]));
      const { status, envelope } = await images(gatewayWith());
      expect(status).toBe(502);
      expect(envelope.error).toMatchObject({
        code: 'INVALID_PROVIDER_RESPONSE',
        details: { download_refused: 'internal_address', is_retryable: false },
      });
      expect(JSON.stringify(envelope)).not.toContain('internal only');
    }
    expect(internalHits).toBe(0);
  });

  test('an internal address in the URL itself is refused, not an INTERNAL_ERROR', async () => {
    replay.enqueue(predictionWith([`http://10.1.2.3:${internalPort}/out-0.png`]));
    const { envelope } = await images(gatewayWith());
    expect(envelope.error.code).toBe('INVALID_PROVIDER_RESPONSE');
    expect(envelope.error.details.is_retryable).toBe(false);
    expect(internalHits).toBe(0);
  });

  test('an operator may allow an internal range; what it serves must still be an image', async () => {
    replay.enqueue(predictionWith([`http://files.internal-service.example:${internalPort}/out-0.png`]));
    const refused = await images(gatewayWith(['127.0.0.0/8']));
    expect(internalHits).toBe(1);
    expect(refused.envelope.error).toMatchObject({ code: 'INVALID_PROVIDER_RESPONSE' });
    expect(refused.envelope.error.message).toMatch(/not an image/);
    expect(JSON.stringify(refused.envelope)).not.toContain('internal only');
    internalBody = PNG;
    replay.enqueue(predictionWith([`http://files.internal-service.example:${internalPort}/out-0.png`]));
    const served = await images(gatewayWith(['127.0.0.0/8']));
    expect(served.status).toBe(200);
    expect(served.envelope.images[0].data).toBe(PNG.toString('base64'));
  });
});

describe('isInternalAddress', () => {
  test.each([
    ['127.0.0.1', true],
    ['10.20.30.40', true],
    ['172.31.255.255', true],
    ['192.168.1.1', true],
    ['169.254.169.254', true],
    ['100.64.0.1', true],
    ['0.0.0.0', true],
    ['::1', true],
    ['::', true],
    ['fd00:ec2::254', true],
    ['fe80::1', true],
    ['::ffff:127.0.0.1', true],
    ['::ffff:7f00:1', true],
    ['64:ff9b::a00:1', true],
    ['2002:a9fe:a9fe::1', true],
    ['[::1]', true],
    ['not an address', true],
    ['93.184.216.34', false],
    ['8.8.8.8', false],
    ['2606:4700::1111', false],
    ['::ffff:8.8.8.8', false],
  ])('%s is internal: %s', (address, expected) => {
    expect(isInternalAddress(address)).toBe(expected);
  });

  test('an allow list takes addresses and ranges of both families', () => {
    const allowed = createAddressAllowList(['10.1.2.0/24', '::1']);
    expect(allowed('10.1.2.9')).toBe(true);
    expect(allowed('10.1.3.9')).toBe(false);
    expect(allowed('::1')).toBe(true);
    expect(allowed('::ffff:10.1.2.9')).toBe(true);
  });
});
