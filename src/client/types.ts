import type { z } from 'zod';
import type {
  imagesRequestSchema,
  speechRequestSchema,
  textRequestSchema,
  transcriptionsRequestSchema,
  videosRequestSchema,
} from '../gateway/request/request-schemas.js';
import type { UsageBucket, UsageGroup } from '../gateway/store/query-usage.js';
import type { UnifiedFailure, UnifiedSuccess } from '../unified/types.js';

/**
 * The types of verdict/client (docs/client.md): requests derived from the gateway's own request schemas (type
 * imports only, so no schema library reaches a browser bundle), and the envelopes narrowed per route.
 */

type TextInput = z.input<typeof textRequestSchema>;

/**
 * A `POST /v1/text` request: a prompt as `input`, or the conversation as `messages` (exactly one of them),
 * with tools, structured output and sampling options. `stream` is chosen by the method (`text` or `streamText`).
 */
export type TextRequest = Omit<TextInput, 'input' | 'messages' | 'stream'> &
  (
    | { input: NonNullable<TextInput['input']>; messages?: never }
    | { messages: NonNullable<TextInput['messages']>; input?: never }
  );

/** One message of a chat request. */
export type ChatMessage = NonNullable<TextInput['messages']>[number];
/** One tool a request declares. */
export type ToolDefinition = NonNullable<TextInput['tools']>[number];
/** A `POST /v1/images` request. */
export type ImagesRequest = z.input<typeof imagesRequestSchema>;
/** A `POST /v1/speech` request. */
export type SpeechRequest = z.input<typeof speechRequestSchema>;
/** A `POST /v1/videos` request. */
export type VideosRequest = z.input<typeof videosRequestSchema>;

/**
 * A `POST /v1/transcriptions` request: base64 `audio` with its `media_type` (sent as JSON), or the audio as a
 * `Blob` (sent as multipart, the `Blob`'s type or `media_type` naming it).
 */
export type TranscriptionRequest =
  | z.input<typeof transcriptionsRequestSchema>
  | { model: string; audio: Blob; media_type?: string; filename?: string };

/** A tool call in a text answer's `metadata.tool_calls` (docs/gateway.md, "Tool calls"). */
export interface ToolCall {
  /** The call's id; a tool result names it in `tool_call_id`. */
  id: string;
  /** The tool's name. */
  name: string;
  /** The arguments as a parsed value, or the model's raw text when `arguments_not_json` is set. */
  arguments: unknown;
  /** Set when the model's arguments were not JSON; `arguments` is then the raw text. */
  arguments_not_json?: true;
}

/** The metadata a text success may carry beyond every envelope's. */
export interface TextMetadata {
  /** The model's tool calls, when it made any (`finish_reason` is then `tool_calls`). */
  tool_calls?: ToolCall[];
  /** The parsed JSON answer of a `response_format` request; `content` is its JSON text. */
  object?: unknown;
  /** The model's reasoning text, when the request set `reasoning_effort` and the provider returned it. */
  reasoning?: string;
}

/** A text success, its metadata typed. */
export type TextSuccess = UnifiedSuccess & { metadata: UnifiedSuccess['metadata'] & TextMetadata };
/** The answer of `text()`: a text success or a failure, narrowed by `success`. */
export type TextOutput = TextSuccess | UnifiedFailure;

/** One event of `streamText()`, in the order the gateway sends them; the last is always `envelope`. */
export type TextStreamEvent =
  | { type: 'delta'; text: string }
  | { type: 'tool_call_start'; id: string; name: string }
  | { type: 'tool_call_delta'; id: string; arguments: string }
  | { type: 'envelope'; envelope: TextOutput };

/** The query of `GET /v1/usage` (docs/gateway.md, "Teams"): the last 24 hours by key and hour unless told. */
export interface UsageQuery {
  /** Start of the period, an ISO 8601 time (24 hours before `to` by default). */
  from?: string;
  /** End of the period, an ISO 8601 time (now by default). */
  to?: string;
  /** What the totals and series are grouped by (`key` by default). */
  group_by?: UsageGroup;
  /** The series' step (`hour` by default). */
  bucket?: UsageBucket;
}

/** The query of `GET /v1/usage/requests`: filters on the records, and the page wanted. */
export interface UsageRequestsQuery {
  /** Only the records of this key name. */
  key?: string;
  /** Only the records with this outcome code (`ok`, or an error code). */
  code?: string;
  /** Only the record of this trace id. */
  trace_id?: string;
  /** Records from this ISO 8601 time. */
  from?: string;
  /** Records up to this ISO 8601 time. */
  to?: string;
  /** Records per page, 1 to 500 (50 by default). */
  limit?: number;
  /** The `next_cursor` of the page before. */
  cursor?: string;
}
