import { z } from 'zod';
import { UNIFIED_ERROR_CODES } from '../unified/error-taxonomy.js';
import { UNIFIED_OUTPUT_SCHEMA } from '../unified/unified-output-schema.js';
import {
  imagesRequestSchema,
  speechRequestSchema,
  textRequestSchema,
  transcriptionsRequestSchema,
  videosRequestSchema,
} from './request-schemas.js';

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

function postOperation(summary: string, schema: z.ZodType, extra: Record<string, unknown> = {}) {
  return {
    post: {
      summary,
      requestBody: {
        required: true,
        content: { 'application/json': { schema: jsonSchemaOf(schema) }, ...extra },
      },
      responses: envelopeResponses(),
    },
  };
}

/**
 * The gateway's OpenAPI 3.1 document, generated from the request schemas that validate requests and the
 * unified output schema that every answer passes.
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
    paths: {
      '/v1/text': {
        post: {
          ...postOperation('Generate text', textRequestSchema).post,
          responses: {
            ...envelopeResponses(),
            '200': {
              description:
                'A success envelope; with "stream": true, text/event-stream of delta events then one envelope event.',
              content: {
                'application/json': { schema: ENVELOPE_REF },
                'text/event-stream': { schema: { type: 'string' } },
              },
            },
          },
        },
      },
      '/v1/images': postOperation('Generate images', imagesRequestSchema),
      '/v1/speech': postOperation('Turn text into speech', speechRequestSchema),
      '/v1/transcriptions': postOperation('Transcribe audio', transcriptionsRequestSchema, {
        'multipart/form-data': {
          schema: {
            type: 'object',
            properties: {
              model: { type: 'string' },
              file: { type: 'string', contentMediaType: 'application/octet-stream' },
            },
            required: ['model', 'file'],
          },
        },
      }),
      '/v1/videos': postOperation('Generate a video', videosRequestSchema),
      '/v1/videos/{job_id}': {
        get: {
          summary: 'The status of a video job started with "wait": false (its videos once completed)',
          parameters: [{ name: 'job_id', in: 'path', required: true, schema: { type: 'string' } }],
          responses: envelopeResponses(),
        },
      },
      '/v1/models': {
        get: { summary: 'Configured providers and aliases, as an envelope', responses: envelopeResponses() },
      },
      '/v1/usage': {
        get: {
          summary:
            'Usage totals and time series over a range (admin key; with a store, docs/gateway.md "Teams")',
          parameters: ['from', 'to', 'group_by', 'bucket'].map((name) => ({
            name,
            in: 'query',
            required: false,
            schema: { type: 'string' },
          })),
          responses: envelopeResponses(),
        },
      },
      '/v1/usage/requests': {
        get: {
          summary: 'A page of usage records, newest first (admin key; with a store)',
          parameters: ['key', 'code', 'trace_id', 'from', 'to', 'limit', 'cursor'].map((name) => ({
            name,
            in: 'query',
            required: false,
            schema: { type: 'string' },
          })),
          responses: envelopeResponses(),
        },
      },
      '/v1/key': {
        get: {
          summary: "The calling key's limits and what is left of them (with a store)",
          responses: envelopeResponses(),
        },
      },
      '/healthz': {
        get: {
          summary: 'Liveness: 200 while serving, 503 while shutting down',
          responses: { '200': { description: 'Serving.' }, '503': { description: 'Shutting down.' } },
        },
      },
      '/metrics': {
        get: {
          summary: 'Prometheus metrics of this instance',
          responses: { '200': { description: 'Prometheus text format.', content: { 'text/plain': {} } } },
        },
      },
    },
    components: {
      schemas: { UnifiedOutput: envelope },
      securitySchemes: { gatewayKey: { type: 'http', scheme: 'bearer' } },
    },
  };
}
