// Every name the gateway's OpenTelemetry export uses, in one place (docs/gateway.md, "OpenTelemetry"): the
// GenAI conventions are still experimental, so a rename is one change here. Nothing here imports OpenTelemetry.

/** Span and metric attribute names: the GenAI and HTTP conventions' own, then verdict's under `verdict.`. */
export const OTEL_ATTRIBUTES = {
  operationName: 'gen_ai.operation.name',
  providerName: 'gen_ai.provider.name',
  /** The provider attribute of the conventions up to v1.36, emitted beside `gen_ai.provider.name` by default. */
  system: 'gen_ai.system',
  requestModel: 'gen_ai.request.model',
  requestMaxTokens: 'gen_ai.request.max_tokens',
  requestTemperature: 'gen_ai.request.temperature',
  requestTopP: 'gen_ai.request.top_p',
  requestTopK: 'gen_ai.request.top_k',
  requestStopSequences: 'gen_ai.request.stop_sequences',
  requestSeed: 'gen_ai.request.seed',
  requestFrequencyPenalty: 'gen_ai.request.frequency_penalty',
  requestPresencePenalty: 'gen_ai.request.presence_penalty',
  requestChoiceCount: 'gen_ai.request.choice.count',
  outputType: 'gen_ai.output.type',
  responseModel: 'gen_ai.response.model',
  responseId: 'gen_ai.response.id',
  responseFinishReasons: 'gen_ai.response.finish_reasons',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  cacheReadInputTokens: 'gen_ai.usage.cache_read.input_tokens',
  cacheCreationInputTokens: 'gen_ai.usage.cache_creation.input_tokens',
  tokenType: 'gen_ai.token.type',
  /** Content capture with the latest conventions: the messages as JSON attributes. */
  inputMessages: 'gen_ai.input.messages',
  outputMessages: 'gen_ai.output.messages',
  errorType: 'error.type',
  serverAddress: 'server.address',
  serverPort: 'server.port',
  httpMethod: 'http.request.method',
  httpRoute: 'http.route',
  httpStatus: 'http.response.status_code',
  traceId: 'verdict.trace_id',
  keyName: 'verdict.key_name',
  target: 'verdict.target',
  attempt: 'verdict.attempt',
  attempts: 'verdict.attempts',
  costUsd: 'verdict.cost_usd',
  timeToFirstTokenS: 'verdict.time_to_first_token_s',
} as const;

/** The span events of content capture with the conventions up to v1.36 (the default). */
export const OTEL_EVENTS = {
  prompt: 'gen_ai.content.prompt',
  promptAttribute: 'gen_ai.prompt',
  completion: 'gen_ai.content.completion',
  completionAttribute: 'gen_ai.completion',
} as const;

/** The metrics exported over OTLP, with the bucket boundaries the conventions give each. */
export const OTEL_METRICS = {
  operationDuration: {
    name: 'gen_ai.client.operation.duration',
    unit: 's',
    description: 'Duration of one provider attempt.',
    buckets: [0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92],
  },
  tokenUsage: {
    name: 'gen_ai.client.token.usage',
    unit: '{token}',
    description: 'Input and output tokens of one provider answer.',
    buckets: [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864],
  },
  /** Time to the first streamed token: the latest conventions' name. */
  timeToFirstChunk: {
    name: 'gen_ai.client.operation.time_to_first_chunk',
    unit: 's',
    description: 'Time from the provider request to its first streamed text.',
    buckets: [0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10],
  },
  /** Time to the first streamed token: the name of the conventions up to v1.36 (the default). */
  timeToFirstToken: {
    name: 'gen_ai.server.time_to_first_token',
    unit: 's',
    description: 'Time from the provider request to its first streamed text.',
    buckets: [0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10],
  },
} as const;

/** The `gen_ai.operation.name` of each provider route (the conventions name chat; the others are verdict's). */
export const OPERATION_OF_ROUTE: Readonly<Record<string, string>> = {
  text: 'chat',
  images: 'generate_content',
  videos: 'generate_content',
  speech: 'generate_content',
  transcriptions: 'generate_content',
};

/** The `gen_ai.output.type` of each provider route. */
export const OUTPUT_TYPE_OF_ROUTE: Readonly<Record<string, string>> = {
  text: 'text',
  images: 'image',
  videos: 'video',
  speech: 'speech',
  transcriptions: 'text',
};

/** The conventions' well-known `gen_ai.provider.name` of a provider type; other types keep their own name. */
export const PROVIDER_NAME_OF_TYPE: Readonly<Record<string, string>> = {
  openai: 'openai',
  anthropic: 'anthropic',
  google: 'gcp.gemini',
  azure: 'azure.ai.openai',
  'amazon-bedrock': 'aws.bedrock',
  'google-vertex': 'gcp.vertex_ai',
  mistral: 'mistral_ai',
  groq: 'groq',
  deepseek: 'deepseek',
  xai: 'x_ai',
  cohere: 'cohere',
  perplexity: 'perplexity',
};

/** The host each provider type calls when no base URL is configured, for `server.address`. */
export const DEFAULT_HOST_OF_TYPE: Readonly<Record<string, string>> = {
  openai: 'api.openai.com',
  anthropic: 'api.anthropic.com',
  google: 'generativelanguage.googleapis.com',
  replicate: 'api.replicate.com',
};

/** The value of `OTEL_SEMCONV_STABILITY_OPT_IN` that switches to the latest experimental GenAI names. */
export const LATEST_GEN_AI = 'gen_ai_latest_experimental';
