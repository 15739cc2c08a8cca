import { embedMany, InvalidArgumentError } from 'ai';
import type { AiSdkOptions } from '../../../unified/ai-sdk.js';
import { assembleSuccess } from '../../../unified/assemble-output.js';
import { toBase64 } from '../../../unified/base64.js';
import type { UnifiedOutput } from '../../../unified/types.js';
import type { ModelOf } from '../../ai-sdk/model-types.js';
import type { AttemptInput } from '../../pipeline/call-with-fallbacks.js';
import { type Renderer, surfaceHeaders } from '../../pipeline/renderer.js';
import type { EmbeddingsRequest } from '../../request/request-schemas.js';
import { renderOpenAiFailure } from './openai-errors.js';

/**
 * `POST /openai/v1/embeddings`: OpenAI's embeddings API in front of the AI SDK's embedding models (OpenAI,
 * Google, Cohere, Mistral, Bedrock, OpenAI-compatible; docs/gateway.md, "Use it from your existing client").
 * The call goes through the gateway's pipeline like any other; its envelope carries the vectors in
 * `metadata.embeddings`, and the answer is rendered from it.
 */

/**
 * The provider options that ask a target for fewer dimensions, or undefined when it has none. Bedrock names the
 * option after the model family the AI SDK reads from the model id (Cohere, Nova, else Titan); the sizes each
 * model takes are checked by the AI SDK, which refuses the others before the call.
 */
function dimensionsOptions(type: string, provider: string, modelId: string, dimensions: number) {
  if (type === 'openai' || type === 'azure') return { openai: { dimensions } };
  if (type === 'google' || type === 'google-vertex') return { google: { outputDimensionality: dimensions } };
  if (type === 'openai-compatible') return { [provider]: { dimensions } };
  if (type === 'cohere') return { cohere: { outputDimension: dimensions } };
  if (type === 'amazon-bedrock') {
    if (modelId.includes('cohere.embed-')) return { bedrock: { outputDimension: dimensions } };
    if (modelId.includes('amazon.nova-') && modelId.includes('embed'))
      return { bedrock: { embeddingDimension: dimensions } };
    return { bedrock: { dimensions } };
  }
  if (type === 'demo') return {};
  return undefined;
}

/** One attempt: every input embedded by the target's model, in order. */
export function embedInputs(body: EmbeddingsRequest, input: AttemptInput<ModelOf<'embeddings'>>) {
  const { target } = input;
  const values = typeof body.input === 'string' ? [body.input] : body.input;
  const providerOptions =
    body.dimensions === undefined
      ? {}
      : dimensionsOptions(target.provider.type, target.provider.id, target.modelId, body.dimensions);
  if (providerOptions === undefined) {
    // Refused before the call: the answer would have the model's own size, not the one asked for.
    throw new InvalidArgumentError({
      parameter: 'dimensions',
      value: body.dimensions,
      message: `Provider "${target.provider.id}" (${target.provider.type}) does not take "dimensions".`,
    });
  }
  return embedMany({
    model: target.model,
    values,
    providerOptions,
    maxRetries: 0,
    abortSignal: input.signal,
    headers: input.headers,
  });
}

/** The envelope of an embeddings call: a sentence as content, the vectors in `metadata.embeddings`. */
export function fromEmbedMany(
  result: Awaited<ReturnType<typeof embedMany>>,
  options: AiSdkOptions,
): UnifiedOutput {
  const provider =
    typeof options.model?.provider === 'string'
      ? (options.model.provider.split('.')[0] ?? 'ai-sdk')
      : 'ai-sdk';
  const count = result.embeddings.length;
  const dimensions = result.embeddings[0]?.length ?? 0;
  const tokens = result.usage?.tokens;
  return assembleSuccess(
    provider,
    `${count} embedding${count === 1 ? '' : 's'} of ${dimensions} dimensions.`,
    typeof tokens === 'number' && Number.isSafeInteger(tokens) && tokens >= 0
      ? { input: tokens, output: 0, details: {} }
      : undefined,
    [],
    {
      trace_id: options.traceId,
      ...(typeof options.model?.modelId === 'string' ? { model: options.model.modelId } : {}),
      embeddings: result.embeddings,
    },
    false,
  );
}

/** A vector as OpenAI's base64 encoding gives it: little-endian float32 bytes. */
function toFloat32Base64(vector: readonly number[]): string {
  const bytes = new DataView(new ArrayBuffer(vector.length * 4));
  for (const [index, value] of vector.entries()) bytes.setFloat32(index * 4, value, true);
  return toBase64(new Uint8Array(bytes.buffer));
}

/** The renderer of one embeddings request: an OpenAI list of embedding objects. */
export function embeddingsRenderer(request: EmbeddingsRequest): Renderer {
  const renderer: Renderer = {
    surface: 'openai',
    requestIdHeader: 'x-request-id',
    render(envelope, headers) {
      if (!envelope.success) return renderOpenAiFailure(envelope, headers);
      const vectors = (envelope.metadata.embeddings ?? []) as number[][];
      const base64 = request.encoding_format === 'base64';
      return Response.json(
        {
          object: 'list',
          data: vectors.map((vector, index) => ({
            object: 'embedding',
            index,
            embedding: base64 ? toFloat32Base64(vector) : vector,
          })),
          model: typeof envelope.metadata.model === 'string' ? envelope.metadata.model : request.model,
          usage: { prompt_tokens: envelope.usage.input_tokens, total_tokens: envelope.usage.input_tokens },
        },
        { headers: surfaceHeaders(renderer, envelope.metadata.trace_id, headers) },
      );
    },
  };
  return renderer;
}
