import { describe, expect, test } from 'vitest';
import { createClient } from '../client/index.js';
import {
  MODALITY_PATHS,
  providerRouteOf,
  ROUTE_KEYS,
  ROUTE_NAMES,
  ROUTE_TABLE,
  routeEntry,
  routeLabelOf,
} from './basics/route-table.js';
import { checkGatewayConfig } from './config/config.js';
import { createGateway } from './create-gateway.js';
import { createOpenApiDocument } from './openapi.js';
import { MODALITIES_OF } from './providers/providers.js';
import { REQUEST_SCHEMAS } from './request/request-schemas.js';

/** A concrete request path for a table path (`{job_id}` becomes a made-up id). */
function concrete(path: string): string {
  return path.replace(/\{[^}]+\}/g, 'a-job');
}

describe('the route table', () => {
  const document = createOpenApiDocument() as { paths: Record<string, Record<string, { summary: string }>> };

  test('every documented route is a path of /openapi.json with its method and summary, and no other path is', () => {
    const documented = ROUTE_KEYS.filter((key) => routeEntry(key).documented !== false);
    expect(Object.keys(document.paths)).toEqual(documented.map((key) => routeEntry(key).path));
    for (const key of documented) {
      const { path, method, summary } = routeEntry(key);
      expect(Object.keys(document.paths[path] ?? {}), path).toEqual([method.toLowerCase()]);
      expect(document.paths[path]?.[method.toLowerCase()]?.summary, path).toBe(summary);
    }
  });

  test('every route that calls providers has its request schema, and /openapi.json documents its body', () => {
    expect(Object.keys(REQUEST_SCHEMAS)).toEqual(ROUTE_NAMES);
    for (const name of ROUTE_NAMES) {
      const operation = document.paths[ROUTE_TABLE[name].path]?.post as { requestBody?: unknown } | undefined;
      expect(operation?.requestBody, name).toMatchObject({ content: { 'application/json': {} } });
    }
  });

  test('/v1/models lists every route that calls providers for the demo, which offers them all', async () => {
    const gateway = createGateway({ providers: { demo: {} } });
    const body = (await (await gateway.request('/v1/models')).json()) as {
      metadata: { providers: { modalities: string[] }[] };
    };
    expect(body.metadata.providers[0]?.modalities).toEqual(ROUTE_NAMES);
    // What any provider type offers is a route of the table.
    for (const modalities of Object.values(MODALITIES_OF)) {
      for (const modality of modalities) expect(ROUTE_NAMES).toContain(modality);
    }
  });

  test('the configuration accepts limits for every route that calls providers and rejects any other name', () => {
    const routes = Object.fromEntries(ROUTE_NAMES.map((name) => [name, { timeoutMs: 1000 }]));
    expect(checkGatewayConfig({ routes }).ok).toBe(true);
    const checked = checkGatewayConfig({ routes: { moderations: { timeoutMs: 1000 } } });
    expect(checked.ok).toBe(false);
    expect(checked.ok ? [] : checked.problems.map((problem) => problem.path)).toContain(
      '/routes/moderations',
    );
    // The gateway's other routes have no limits of their own.
    expect(checkGatewayConfig({ routes: { models: {} } }).ok).toBe(false);
  });

  test('the app answers every route at its path, and labels its log line with the route', async () => {
    const lines: { route: string; status: number }[] = [];
    const gateway = createGateway({
      providers: { demo: {} },
      log: (line) => lines.push(JSON.parse(line)),
    });
    // Without a store the usage and key routes are not served; their requests are still labelled as theirs.
    const withStore = new Set(['usage', 'usage_requests', 'key']);
    for (const key of ROUTE_KEYS) {
      const entry = routeEntry(key);
      const response = await gateway.request(concrete(entry.path), { method: 'GET' });
      const body = await response.text();
      if (entry.method === 'POST') {
        // Asked with the wrong method, a provider route names its own: it is registered at this path.
        expect(response.status, entry.path).toBe(400);
        expect(response.headers.get('allow'), entry.path).toBe('POST');
      } else if (!withStore.has(key)) {
        expect(body, entry.path).not.toContain('No route GET');
      }
      expect(lines.at(-1)?.route, entry.path).toBe(routeLabelOf(key));
    }
    await gateway.request('/v1/nothing-here');
    expect(lines.at(-1)?.route).toBe('other');
  });

  test("a video job's status shares the limits and key permissions of its route", () => {
    expect(providerRouteOf(routeLabelOf('video_job'))).toBe('videos');
    for (const name of ROUTE_NAMES) expect(providerRouteOf(routeLabelOf(name))).toBe(name);
    expect(providerRouteOf(routeLabelOf('models'))).toBeUndefined();
  });

  test("the typed client (and so the console, which calls through it) asks the table's paths", async () => {
    const asked: string[] = [];
    const client = createClient({
      baseURL: 'http://gateway.test',
      fetch: async (input) => {
        asked.push(new URL(String(input)).pathname);
        return new Response('{}', { status: 500, headers: { 'content-type': 'application/json' } });
      },
    });
    await client.text({ model: 'm', input: 'x' });
    await client.images({ model: 'm', prompt: 'x' });
    await client.speech({ model: 'm', input: 'x' });
    await client.transcribe({ model: 'm', audio: 'AAAA', media_type: 'audio/wav' });
    await client.videos({ model: 'm', prompt: 'x' });
    await client.videoStatus('job');
    await client.models();
    await client.key();
    await client.usage();
    await client.usageRequests();
    // Embeddings are answered in OpenAI's shape only, to OpenAI clients (docs/gateway.md): not the typed client's.
    expect(asked).toEqual([
      ...ROUTE_NAMES.filter((name) => name !== 'embeddings').map((name) => MODALITY_PATHS[name]),
      `${ROUTE_TABLE.videos.path}/job`,
      ROUTE_TABLE.models.path,
      ROUTE_TABLE.key.path,
      ROUTE_TABLE.usage.path,
      ROUTE_TABLE.usage_requests.path,
    ]);
  });
});
