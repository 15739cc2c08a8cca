import type { UnifiedErrorCode } from './error-taxonomy.js';

/** Every normalized finish reason, the same for every provider (see docs/unified.md); {@link FinishReason} is derived from it. */
export const FINISH_REASONS = ['stop', 'length', 'content_filter', 'tool_calls', 'error', 'other'] as const;

/** A normalized finish reason: one of {@link FINISH_REASONS}. */
export type FinishReason = (typeof FINISH_REASONS)[number];

/** Token accounting of a success: all input tokens (cached included) and all output tokens (reasoning included). */
export interface UnifiedUsage {
  /** Every input token, cached ones included; a non-negative integer. */
  input_tokens: number;
  /** Every output token, reasoning ones included; a non-negative integer. */
  output_tokens: number;
}

/** One produced image, file or video: a URL, or base64 data with its media type, plus optional facts. */
export interface MediaItem {
  /** Where the item can be fetched. */
  url?: string;
  /** The item's bytes, base64-encoded. */
  data?: string;
  /** IANA media type, for example `image/png`. */
  media_type?: string;
  /** Width in pixels. */
  width?: number;
  /** Height in pixels. */
  height?: number;
  /** Duration in seconds, for audio and video. */
  duration_s?: number;
  /** The prompt the provider actually used, when it rewrote it. */
  revised_prompt?: string;
  /** A file name. */
  name?: string;
}

/** What one call cost in dollars: `usd` is `null` when no price was known, and `reason` says why. */
export interface UnifiedCost {
  /** Dollars, or `null` when the call could not be priced. */
  usd: number | null;
  /** Where the price came from (`genai-prices`, `config`, `demo`; `provider` when the provider billed it itself). */
  source?: string;
  /** The version of the prices (the table's, or `config`). */
  version?: string;
  /** The model the price is for. */
  model?: string;
  /** The price table's own name of the priced model, when it differs. */
  price_id?: string;
  /** Why `usd` is `null` (`unknown_price`, `usage_not_reported`, `unpriced_media`, `inconsistent_usage`). */
  reason?: string;
  /** One sentence about the reason. */
  message?: string;
}

/** Diagnostics and execution context; the known keys are typed, unknown keys are allowed and ignored by clients. */
export interface UnifiedMetadata {
  /** Trace id of the incoming request (see docs/unified.md, "Trace ids"). */
  trace_id?: string;
  /** The model that answered. */
  model?: string;
  /** Wall time of the provider call in milliseconds. */
  latency_ms?: number;
  /** Run time reported by the provider, in milliseconds. */
  duration_ms?: number;
  /** The provider's own request id, taken from its response headers. */
  provider_request_id?: string;
  /** Why generation stopped, normalized. */
  finish_reason?: FinishReason;
  /** False when the provider reported no usage and the token counts are zeros. */
  usage_reported?: boolean;
  /** Provider-specific usage breakdown (cached, reasoning, audio tokens…). */
  usage_details?: Record<string, number>;
  /** What the call cost, set by the gateway (see docs/unified.md, "Cost"). */
  cost?: UnifiedCost;
  /** Any other provider-specific fact. */
  [key: string]: unknown;
}

/** Metadata of a failure: `trace_id` is required. */
export interface UnifiedFailureMetadata extends UnifiedMetadata {
  /** Trace id of the incoming request. */
  trace_id: string;
}

/** The structured error of a failure. */
export interface UnifiedError {
  /** UPPER_SNAKE_CASE code, one of the taxonomy's codes when verdict produced it. */
  code: UnifiedErrorCode | (string & {});
  /** A non-empty sentence for people. */
  message: string;
  /** Machine-readable facts about the failure (provider status, provider code…). */
  details: Record<string, unknown>;
}

/** A successful AI output: content, usage, metadata and the three modality arrays. */
export interface UnifiedSuccess {
  /** Always `true`. */
  success: true;
  /** The primary human-readable output (for media, a short description of what was produced). */
  content: string;
  /** Normalized lowercase provider id. */
  provider: string;
  /** Token accounting. */
  usage: UnifiedUsage;
  /** Diagnostics; `trace_id` is always present in what verdict emits. */
  metadata: UnifiedMetadata & { trace_id: string };
  /** Produced images, empty when none. */
  images: MediaItem[];
  /** Produced files (audio, documents…), empty when none. */
  files: MediaItem[];
  /** Produced videos, empty when none. */
  videos: MediaItem[];
  /** A success never carries `error`. */
  error?: never;
}

/** A failed AI output: a structured error and metadata with the trace id, never any success-only member. */
export interface UnifiedFailure {
  /** Always `false`. */
  success: false;
  /** What went wrong. */
  error: UnifiedError;
  /** Provider id, or `system` when the failure did not come from a provider. */
  provider: string;
  /** Diagnostics with the trace id. */
  metadata: UnifiedFailureMetadata;
  /** A failure never carries `content`. */
  content?: never;
  /** A failure never carries `usage`. */
  usage?: never;
  /** A failure never carries `images`. */
  images?: never;
  /** A failure never carries `files`. */
  files?: never;
  /** A failure never carries `videos`. */
  videos?: never;
}

/** The unified AI output envelope (see docs/unified.md), discriminated on `success`. */
export type UnifiedOutput = UnifiedSuccess | UnifiedFailure;
