import { z } from 'zod';
import { UNIFIED_ERROR_CODES } from '../unified/error-taxonomy.js';
import { UNIFIED_OUTPUT_SCHEMA } from '../unified/unified-output-schema.js';
import { isRouteName, ROUTE_KEYS, type RouteEntry, type RouteKey, routeEntry } from './basics/route-table.js';
import { MAX_CACHE_TTL_S } from './config/cache-settings.js';
import { REQUEST_SCHEMAS } from './request/request-schemas.js';
import {
  CACHE_NAMESPACE_HEADER,
  CACHE_NAMESPACE_PATTERN,
  CACHE_TTL_HEADER,
} from './routes/serve-through-cache.js';
import { SURFACE_REQUEST_SCHEMAS } from './surfaces/surface-request-schemas.js';

const ENVELOPE_REF = { $ref: '#/components/schemas/UnifiedOutput' };

function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io: 'input',
  }) as Record<string, unknown>;
  return rest;
}

/** Every status an envelope may be served with, each described by the codes that produce it. */
function envelopeResponses(): Record<string, unknown> {
  const byStatus = new Map<number, string[]>();
  for (const [code, { status }] of Object.entries(UNIFIED_ERROR_CODES)) {
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<string, unknown> = {
    '200': { description: 'A success envelope.', content: { 'application/json': { schema: ENVELOPE_REF } } },
  };
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    responses[String(status)] = {
      description: `A failure envelope: ${codes.join(', ')}.`,
      content: { 'application/json': { schema: ENVELOPE_REF } },
    };
  }
  return responses;
}

/** The request body of a route that reads one: its JSON schema, and the multipart form it also takes. */
function requestBodyOf(schema: z.ZodType, entry: RouteEntry): Record<string, unknown> {
  return {
    required: true,
    content: {
      'application/json': { schema: jsonSchemaOf(schema) },
      ...(entry.multipart === undefined ? {} : { 'multipart/form-data': { schema: entry.multipart } }),
    },
  };
}

/** The answers of a route: envelopes by status, a stream's events besides, or what its entry says. */
function responsesOf(entry: RouteEntry): Record<string, unknown> {
  if (entry.responses !== undefined) return entry.responses;
  if (entry.streams !== true) return envelopeResponses();
  return {
    ...envelopeResponses(),
    '200': {
      description:
        'A success envelope; with "stream": true, text/event-stream of delta events then one envelope event.',
      content: {
        'application/json': { schema: ENVELOPE_REF },
        'text/event-stream': { schema: { type: 'string' } },
      },
    },
  };
}

/** The parameters of a route: those of its path, then its query parameters. */
function parametersOf(entry: RouteEntry): Record<string, unknown>[] {
  const inPath = [...entry.path.matchAll(/\{([^}]+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  const inQuery = (entry.query ?? []).map((name) => ({
    name,
    in: 'query',
    required: false,
    schema: { type: 'string' },
  }));
  return [...inPath, ...inQuery];
}

/**
 * The routes answered through the response cache when it is on: text, the surfaces that make text requests, and
 * embeddings.
 */
const CACHED_ROUTES: ReadonlySet<RouteKey> = new Set<RouteKey>([
  'text',
  'embeddings',
  'anthropic_messages',
  'openai_chat_completions',
  'openai_responses',
]);

/** The request headers the response cache reads (docs/gateway.md, "Cache"). */
const CACHE_HEADERS: readonly Record<string, unknown>[] = [
  {
    name: 'cache-control',
    in: 'header',
    required: false,
    description: 'With the response cache on: no-cache skips its read, no-store skips its write.',
    schema: { type: 'string' },
  },
  {
    name: CACHE_TTL_HEADER,
    in: 'header',
    required: false,
    description: "With the response cache on: this answer's entry lives that many seconds.",
    schema: { type: 'integer', minimum: 1, maximum: MAX_CACHE_TTL_S },
  },
  {
    name: CACHE_NAMESPACE_HEADER,
    in: 'header',
    required: false,
    description: 'With the response cache on: entries of a namespace answer only requests of the same one.',
    schema: { type: 'string', pattern: CACHE_NAMESPACE_PATTERN.source },
  },
];

/** The operation of one route of the table. */
function operationOf(key: RouteKey): Record<string, unknown> {
  const entry = routeEntry(key);
  const parameters = [...parametersOf(entry), ...(CACHED_ROUTES.has(key) ? CACHE_HEADERS : [])];
  const schema: z.ZodType | undefined = isRouteName(key)
    ? REQUEST_SCHEMAS[key]
    : SURFACE_REQUEST_SCHEMAS[key];
  return {
    summary: entry.summary,
    ...(parameters.length === 0 ? {} : { parameters }),
    ...(schema === undefined ? {} : { requestBody: requestBodyOf(schema, entry) }),
    responses: responsesOf(entry),
  };
}

/** The paths of the document: every route of the table it documents. */
function pathsOf(): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (const key of ROUTE_KEYS) {
    const entry = routeEntry(key);
    if (entry.documented === false) continue;
    paths[entry.path] = { [entry.method.toLowerCase()]: operationOf(key) };
  }
  return paths;
}

/**
 * The gateway's OpenAPI 3.1 document, generated from the route table, the request schemas that validate
 * requests and the unified output schema that every answer passes.
 */
export function createOpenApiDocument(): Record<string, unknown> {
  const { $schema: _dialect, $id: _id, ...envelope } = UNIFIED_OUTPUT_SCHEMA as Record<string, unknown>;
  return {
    openapi: '3.1.0',
    info: {
      title: 'verdict gateway',
      version: '1',
      description: 'One API in front of AI providers; every answer is a unified output envelope.',
    },
    paths: pathsOf(),
    components: {
      schemas: { UnifiedOutput: envelope },
      securitySchemes: {
        gatewayKey: { type: 'http', scheme: 'bearer' },
        gatewayKeyHeader: { type: 'apiKey', in: 'header', name: 'x-api-key' },
      },
    },
  };
}
