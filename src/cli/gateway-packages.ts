/**
 * The packages `verdict gateway` needs beyond verdict itself, all optional peers of verdict: the verdict-gateway
 * package depends on exactly these, at verdict's peer ranges (a test keeps the three lists equal; docs/install.md).
 */
export const GATEWAY_PACKAGES = [
  '@ai-sdk/amazon-bedrock',
  '@ai-sdk/anthropic',
  '@ai-sdk/azure',
  '@ai-sdk/cerebras',
  '@ai-sdk/cohere',
  '@ai-sdk/deepgram',
  '@ai-sdk/deepseek',
  '@ai-sdk/elevenlabs',
  '@ai-sdk/fal',
  '@ai-sdk/fireworks',
  '@ai-sdk/google',
  '@ai-sdk/google-vertex',
  '@ai-sdk/groq',
  '@ai-sdk/luma',
  '@ai-sdk/mistral',
  '@ai-sdk/openai',
  '@ai-sdk/openai-compatible',
  '@ai-sdk/perplexity',
  '@ai-sdk/replicate',
  '@ai-sdk/togetherai',
  '@ai-sdk/xai',
  '@electric-sql/pglite',
  '@hono/node-server',
  '@opentelemetry/api',
  '@opentelemetry/core',
  '@opentelemetry/exporter-metrics-otlp-http',
  '@opentelemetry/exporter-metrics-otlp-proto',
  '@opentelemetry/exporter-trace-otlp-http',
  '@opentelemetry/exporter-trace-otlp-proto',
  '@opentelemetry/otlp-transformer',
  '@opentelemetry/resources',
  '@opentelemetry/sdk-metrics',
  '@opentelemetry/sdk-trace-base',
  '@pydantic/genai-prices',
  'ai',
  'hono',
  'undici',
  'zod',
] as const;

/** The package that brings verdict and every gateway package in one install. */
export const GATEWAY_BUNDLE = 'verdict-gateway';
