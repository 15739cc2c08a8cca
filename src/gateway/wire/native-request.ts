import type { ConfigProblem } from '../config/config-problem.js';

/**
 * What a native format's request builder gives back: the provider request, the problems that keep the request
 * from the target, or the reason this one request stays on the AI SDK's path (a provider option the native
 * format does not translate, a combination only the AI SDK rewrites), so that moving a provider type to a
 * native format never takes a feature away.
 */
export type NativeRequestBuild =
  | { readonly ok: true; readonly request: NativeRequest }
  | { readonly ok: false; readonly problems: ConfigProblem[] }
  | { readonly ok: 'sdk'; readonly reason: string };

/** One provider request, before the base URL, the key and the gateway's own headers are added. */
export interface NativeRequest {
  /** The path below the provider's base URL, starting with `/`, with its query when it has one. */
  readonly path: string;
  /** Headers the format itself needs, never a key. */
  readonly headers: Readonly<Record<string, string>>;
  /** The JSON body. */
  readonly body: Record<string, unknown>;
  /** True when the answer is asked for as server-sent events. */
  readonly stream: boolean;
}

/** An object without its `undefined` members, as a JSON body holds it. */
export function definedMembers(value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) if (member !== undefined) out[key] = member;
  return out;
}
