import type { TextRequest } from '../request/request-schemas.js';
import { canonicalJson } from './canonical-json.js';

/** What a cache key is made of (docs/gateway.md, "Cache"); never the caller's key itself. */
export interface CacheKeyParts {
  /** The route (`text`). */
  readonly route: string;
  /** The targets after alias resolution, in the order they are tried: an alias pointed elsewhere misses. */
  readonly targets: readonly string[];
  /** The request as the gateway reads it, without what does not change the answer (`stream`). */
  readonly request: unknown;
  /** Who shares the entry: the caller's key name, or empty when every key shares it. */
  readonly scope: string;
  /** The request's namespace (`x-verdict-cache-namespace`), or empty. */
  readonly namespace: string;
}

/** The version of the key's layout: a change of what a key holds changes it, so old entries are never read. */
const KEY_VERSION = 1;

/** The SHA-256 (hex) of the canonical JSON of the key's parts. */
export async function hashCacheKey(parts: CacheKeyParts): Promise<string> {
  const text = canonicalJson({ v: KEY_VERSION, ...parts });
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** A text request without the members that do not change its answer: the stream flag (a hit is replayed). */
export function keyedTextRequest(request: TextRequest): Record<string, unknown> {
  const { stream: _stream, ...rest } = request;
  return rest;
}

/**
 * Why a text request cannot be cached, or `undefined` when it can: `provider_options` are passed to the provider
 * as they are and may carry anything (a stored conversation, a user id, a prediction), and an `https:` image is
 * fetched by the provider, whose content may change under the same URL.
 */
export function uncacheableTextReason(request: TextRequest): string | undefined {
  if (request.provider_options !== undefined) return 'provider_options';
  for (const message of request.messages ?? (Array.isArray(request.input) ? request.input : [])) {
    if (!Array.isArray(message.content)) continue;
    for (const part of message.content) {
      if (part.type === 'image_url' && part.image_url.url.startsWith('https:')) return 'image_url';
    }
  }
  return undefined;
}
