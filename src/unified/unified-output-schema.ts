import { deepFreeze } from '../contract/deep-freeze.js';
import type { JsonSchema } from '../contract/schema.js';

/** The `$id` of verdict's JSON Schema for the unified output envelope (`schemas/unified-output-v1.schema.json`). */
export const UNIFIED_OUTPUT_SCHEMA_URL = 'https://verdict.dev/schemas/unified-output-v1.schema.json';

/**
 * verdict's JSON Schema (draft 2020-12) of the unified output envelope, written from docs/unified.md;
 * `schemas/unified-output-v1.schema.json` is the same document and a test keeps the two equal.
 */
export const UNIFIED_OUTPUT_SCHEMA: JsonSchema = deepFreeze({
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: UNIFIED_OUTPUT_SCHEMA_URL,
  title: 'verdict unified AI output envelope, version 1',
  description:
    'One envelope for every AI provider and modality: a success with content, usage, metadata and the images/files/videos arrays, or a failure with a structured error and the trace id. Written from section 5 of the verdict specification.',
  type: 'object',
  required: ['success', 'provider', 'metadata'],
  properties: {
    success: {
      type: 'boolean',
    },
    provider: {
      type: 'string',
      pattern: '^[a-z0-9][a-z0-9._-]*$',
    },
    metadata: {
      $ref: '#/$defs/metadata',
    },
  },
  oneOf: [
    {
      $ref: '#/$defs/success',
    },
    {
      $ref: '#/$defs/failure',
    },
  ],
  $defs: {
    success: {
      type: 'object',
      required: ['success', 'content', 'provider', 'usage', 'metadata', 'images', 'files', 'videos'],
      properties: {
        success: {
          const: true,
        },
        content: {
          type: 'string',
        },
        provider: true,
        usage: {
          $ref: '#/$defs/usage',
        },
        metadata: true,
        images: {
          $ref: '#/$defs/mediaList',
        },
        files: {
          $ref: '#/$defs/mediaList',
        },
        videos: {
          $ref: '#/$defs/mediaList',
        },
      },
      additionalProperties: false,
      // docs/unified.md: when the provider reported no usage, the counts are 0.
      if: {
        required: ['metadata'],
        properties: {
          metadata: {
            type: 'object',
            required: ['usage_reported'],
            properties: { usage_reported: { const: false } },
          },
        },
      },
      then: {
        properties: {
          usage: { type: 'object', properties: { input_tokens: { const: 0 }, output_tokens: { const: 0 } } },
        },
      },
    },
    failure: {
      type: 'object',
      required: ['success', 'error', 'provider', 'metadata'],
      properties: {
        success: {
          const: false,
        },
        error: {
          $ref: '#/$defs/error',
        },
        provider: true,
        metadata: true,
      },
      additionalProperties: false,
    },
    usage: {
      type: 'object',
      required: ['input_tokens', 'output_tokens'],
      properties: {
        input_tokens: {
          type: 'integer',
          minimum: 0,
        },
        output_tokens: {
          type: 'integer',
          minimum: 0,
        },
      },
    },
    metadata: {
      type: 'object',
      required: ['trace_id'],
      properties: {
        trace_id: {
          type: 'string',
          pattern: '\\S',
        },
        model: {
          type: 'string',
          pattern: '\\S',
        },
        provider_request_id: {
          type: 'string',
          pattern: '\\S',
        },
        latency_ms: {
          type: 'number',
          minimum: 0,
        },
        duration_ms: {
          type: 'number',
          minimum: 0,
        },
        usage_reported: {
          type: 'boolean',
        },
        usage_details: {
          type: 'object',
          additionalProperties: {
            type: 'number',
            minimum: 0,
          },
        },
        finish_reason: {
          enum: ['stop', 'length', 'content_filter', 'tool_calls', 'error', 'other'],
        },
        cost: {
          type: 'object',
          required: ['usd'],
          properties: {
            usd: {
              type: ['number', 'null'],
              minimum: 0,
            },
            source: {
              type: 'string',
              pattern: '\\S',
            },
            version: {
              type: 'string',
              pattern: '\\S',
            },
            reason: {
              type: 'string',
              pattern: '\\S',
            },
          },
        },
        cache: {
          description:
            "Set by a gateway's response cache on an answer it served from an entry: the trace id of the request that was answered by the provider, and the entry's age.",
          type: 'object',
          required: ['status', 'trace_id', 'age_s'],
          properties: {
            status: {
              const: 'hit',
            },
            trace_id: {
              type: 'string',
              pattern: '\\S',
            },
            age_s: {
              type: 'integer',
              minimum: 0,
            },
            cost_saved: {
              description: "The original answer's metadata.cost, when it had one.",
            },
          },
        },
      },
    },
    mediaList: {
      type: 'array',
      items: {
        $ref: '#/$defs/mediaItem',
      },
    },
    mediaItem: {
      type: 'object',
      anyOf: [
        {
          required: ['url'],
        },
        {
          required: ['data', 'media_type'],
        },
      ],
      properties: {
        url: {
          type: 'string',
          pattern: '\\S',
        },
        data: {
          type: 'string',
          minLength: 1,
          pattern: '^[A-Za-z0-9+/]*={0,2}$',
        },
        media_type: {
          type: 'string',
          pattern: '^[A-Za-z0-9!#$&^_.+-]+/[A-Za-z0-9!#$&^_.+-]+(\\s*;.*)?$',
        },
        width: {
          type: 'integer',
          minimum: 1,
        },
        height: {
          type: 'integer',
          minimum: 1,
        },
        duration_s: {
          type: 'number',
          minimum: 0,
        },
        revised_prompt: {
          type: 'string',
        },
        name: {
          type: 'string',
          pattern: '\\S',
        },
      },
    },
    error: {
      type: 'object',
      required: ['code', 'message', 'details'],
      properties: {
        code: {
          type: 'string',
          pattern: '^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$',
        },
        message: {
          type: 'string',
          pattern: '\\S',
        },
        details: {
          type: 'object',
        },
      },
    },
  },
});
