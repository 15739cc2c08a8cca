import type { EmbeddingsRequest, TextRequest } from '../request/request-schemas.js';
import { canonicalJson } from './canonical-json.js';

/** What a cache key is made of (docs/gateway.md, "Cache"); never the caller's key itself. */
export interface CacheKeyParts {
  /** The route (`text`). */
  readonly route: string;
  /** The targets after alias resolution, in the order they are tried: an alias pointed elsewhere misses. */
  readonly targets: readonly string[];
  /** The request as the gateway reads it, without what does not change the answer (`stream`, `user`…). */
  readonly request: unknown;
  /** Who shares the entry: the caller's key name, or empty when every key shares it. */
  readonly scope: string;
  /** The request's namespace (`x-verdict-cache-namespace`), or empty. */
  readonly namespace: string;
}

/** The version of the key's layout: a change of what a key holds changes it, so old entries are never read. */
const CACHE_KEY_VERSION = 2;

/** The SHA-256 (hex) of the canonical JSON of the key's parts. */
export async function hashCacheKey(parts: CacheKeyParts): Promise<string> {
  const text = canonicalJson({ v: CACHE_KEY_VERSION, ...parts });
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * A text request as its key holds it: without the members that do not change its answer — the model's name (the
 * key holds the targets it resolves to, so an alias and the one target it names share entries), the stream flag
 * and its options (a hit is replayed in either form), the end user's id, `n` (always 1) — and with the three
 * names of the output maximum as one.
 */
export function keyedTextRequest(request: TextRequest): Record<string, unknown> {
  const {
    model: _model,
    stream: _stream,
    stream_options: _streamOptions,
    user: _user,
    n: _n,
    max_tokens,
    max_completion_tokens,
    max_output_tokens,
    ...rest
  } = request;
  const maximum = max_output_tokens ?? max_tokens ?? max_completion_tokens;
  return maximum === undefined ? rest : { ...rest, max_output_tokens: maximum };
}

/**
 * An embeddings request as its key holds it: the texts (one text and a list of that one text are the same
 * request) and the dimensions asked for. The encoding (`float` or `base64`) is left out: an entry keeps the
 * vectors as numbers and each answer encodes them as its request asks; so is the end user's id.
 */
export function keyedEmbeddingsRequest(request: EmbeddingsRequest): Record<string, unknown> {
  // The model's name is left out as for text: the key holds the targets it resolves to.
  return {
    input: typeof request.input === 'string' ? [request.input] : request.input,
    dimensions: request.dimensions,
  };
}

/**
 * The provider options a request may carry and still be cached, by provider: options that only shape the answer
 * from what the request holds, so the key (which holds them) says everything the answer depends on. The
 * Anthropic surface writes `thinking` there for a request with extended thinking.
 */
const KEYABLE_PROVIDER_OPTIONS: Readonly<Record<string, readonly string[]>> = { anthropic: ['thinking'] };

/**
 * Why a text request cannot be cached, or `undefined` when it can: other `provider_options` are passed to the
 * provider as they are and may carry anything (a stored conversation, a user id, a prediction), and an `https:`
 * image is fetched by the provider, whose content may change under the same URL.
 */
export function uncacheableTextReason(request: TextRequest): string | undefined {
  for (const [provider, options] of Object.entries(request.provider_options ?? {})) {
    const keyable = KEYABLE_PROVIDER_OPTIONS[provider] ?? [];
    if (Object.keys(options).some((name) => !keyable.includes(name))) return 'provider_options';
  }
  for (const message of request.messages ?? (Array.isArray(request.input) ? request.input : [])) {
    if (!Array.isArray(message.content)) continue;
    for (const part of message.content) {
      if (part.type === 'image_url' && part.image_url.url.startsWith('https:')) return 'image_url';
    }
  }
  return undefined;
}
