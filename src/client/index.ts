/**
 * verdict/client: a typed client of the verdict gateway for browsers, Workers and Node (docs/client.md). It uses
 * `fetch` only; request types come from the gateway's request schemas as types, so nothing else is bundled.
 */

export type { UnifiedFailure, UnifiedOutput, UnifiedSuccess } from '../unified/types.js';
export {
  type CallOptions,
  type ClientOptions,
  createClient,
  type PollOptions,
  type ResponseInfo,
  type VerdictClient,
} from './create-client.js';
export type {
  ChatMessage,
  ImagesRequest,
  SpeechRequest,
  TextMetadata,
  TextOutput,
  TextRequest,
  TextStreamEvent,
  TextSuccess,
  ToolCall,
  ToolDefinition,
  TranscriptionRequest,
  UsageQuery,
  UsageRequestsQuery,
  VideosRequest,
} from './types.js';
