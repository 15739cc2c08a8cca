import type { Context } from 'hono';
import type { z } from 'zod';
import { isJsonObject } from '../../../contract/findings.js';
import type { JsonObject } from '../../basics/json-value.js';
import type { ReadBodyOptions } from '../../middleware/read-body.js';
import type { Target } from '../../pipeline/call-with-fallbacks.js';
import type { GatewayEnv } from '../../pipeline/gateway-env.js';
import { parseJsonRequest } from '../../request/read-request.js';

/**
 * Same-format forwarding (docs/gateway.md, "Same-format forwarding"): when a drop-in client speaks the wire
 * format of every target its model may go to — an OpenAI Chat Completions client in front of OpenAI or an
 * OpenAI-compatible provider, an Anthropic Messages client in front of Anthropic — the gateway forwards the
 * client's own body with only the members it must change, and passes the provider's answer through. This
 * module decides when that holds and makes the forwarded body; pure, values in and values out.
 */

/** The client formats that can be forwarded: the drop-in routes whose API is also a provider's wire format. */
export type ClientFormat = 'openai.chat' | 'anthropic.messages';

/**
 * The provider formats (as the normalizers name them) each client format is the same as. Mistral is read as an
 * OpenAI-compatible chat but spells `seed` and `tool_choice: "required"` its own way, so it is never forwarded to
 * (see {@link decideForwarding}).
 */
const SAME_FORMATS: Readonly<Record<ClientFormat, ReadonlySet<string>>> = {
  'openai.chat': new Set(['openai.chat', 'openai-compatible.chat', 'openrouter.chat']),
  'anthropic.messages': new Set(['anthropic.messages']),
};

/** Why a request takes the translating path instead of being forwarded; each is a rule of the docs' table. */
export const NOT_FORWARDED = {
  /** The response cache is on: a cached answer is replayed from its envelope, so the answer is rendered from one. */
  cache_on: 'the response cache is on',
  /** `response_format` asks for JSON: the gateway checks the answer against the schema before it goes out. */
  structured_output: 'the request asks for a JSON answer the gateway checks',
  /** A target speaks another wire format (an alias whose targets or fallbacks mix formats, a non-native type). */
  other_format: 'a target speaks another wire format',
  /** The body holds a member only verdict reads (`provider_options`, `top_k`, a file part's `media_type`…). */
  verdict_member: 'the body holds a member only verdict reads',
  /** The body holds a member only OpenAI itself takes, and a target is another OpenAI-compatible provider. */
  openai_only_member: 'the body holds a member only OpenAI takes, for another provider',
  /**
   * The body holds a member the compatible servers spell their own way (`developer` messages, which they take as
   * `system`; `max_completion_tokens`, which they take as `max_tokens`), and a target is not OpenAI.
   */
  dialect_member: 'the body holds a member another provider spells its own way',
} as const;

/** One reason of {@link NOT_FORWARDED}. */
export type NotForwardedReason = keyof typeof NOT_FORWARDED;

/** The format each target speaks natively, by the normalizers' names; `undefined` for one reached otherwise. */
export type TargetFormat = (target: Target) => string | undefined;

/** A request the gateway forwards: its client format and the client's own body. */
export interface ForwardPlan {
  /** The client's (and every target's) wire format. */
  readonly format: ClientFormat;
  /** The client's body as it sent it, members in its order. */
  readonly body: JsonObject;
}

/** The decision: forward, or the reason the translating path runs. */
export type ForwardDecision =
  | { readonly forward: true; readonly plan: ForwardPlan }
  | { readonly forward: false; readonly reason: NotForwardedReason };

/** What the decision looks at. */
export interface ForwardQuestion {
  /** The client's format. */
  readonly format: ClientFormat;
  /** The client's body as it sent it (read by the strict reader and checked by its route's schema). */
  readonly body: JsonObject;
  /** Every target the model may go to, fallbacks included. */
  readonly targets: readonly Target[];
  /** The format each target speaks natively. */
  readonly formatOf: TargetFormat;
  /** Whether the response cache is on. */
  readonly cacheOn: boolean;
}

/** Members of a Chat Completions body that verdict reads but OpenAI's API does not take. */
const VERDICT_CHAT_MEMBERS = ['provider_options', 'top_k'] as const;

/**
 * Members of a Chat Completions body that only OpenAI takes: the translating path passes them to OpenAI and
 * answers other providers without them, so a body holding one is forwarded to OpenAI targets only.
 */
const OPENAI_ONLY_MEMBERS = [
  'store',
  'metadata',
  'service_tier',
  'prompt_cache_key',
  'safety_identifier',
  'logprobs',
  'logit_bias',
  'modalities',
] as const;

/** True when a Chat Completions message list holds a `developer` message (OpenAI's name for `system`). */
function holdsDeveloperMessage(messages: unknown): boolean {
  return (
    Array.isArray(messages) &&
    messages.some((message) => isJsonObject(message) && message.role === 'developer')
  );
}

/** True when a Chat Completions message list holds a part or member in verdict's dialect rather than OpenAI's. */
function holdsVerdictParts(messages: unknown): boolean {
  if (!Array.isArray(messages)) return false;
  return messages.some((message) => {
    if (!isJsonObject(message)) return false;
    // An earlier answer's citations are OpenAI's response member, not a request member: verdict drops them.
    if (message.annotations !== undefined) return true;
    const content = message.content;
    if (!Array.isArray(content)) return false;
    // verdict's file part names its media type; OpenAI's has none.
    return content.some(
      (part) => isJsonObject(part) && isJsonObject(part.file) && part.file.media_type !== undefined,
    );
  });
}

/** The reason a Chat Completions body cannot be forwarded as it is, whatever the targets. */
function chatBodyReason(body: JsonObject, targets: readonly Target[]): NotForwardedReason | undefined {
  const format = body.response_format;
  if (isJsonObject(format) && format.type !== 'text') return 'structured_output';
  if (VERDICT_CHAT_MEMBERS.some((member) => body[member] !== undefined)) return 'verdict_member';
  if (holdsVerdictParts(body.messages)) return 'verdict_member';
  const allOpenAi = targets.every((target) => target.provider.type === 'openai');
  if (!allOpenAi && OPENAI_ONLY_MEMBERS.some((member) => body[member] !== undefined))
    return 'openai_only_member';
  if (
    !allOpenAi &&
    isJsonObject(body.stream_options) &&
    body.stream_options.include_obfuscation !== undefined
  ) {
    return 'openai_only_member';
  }
  if (!allOpenAi && (body.max_completion_tokens !== undefined || holdsDeveloperMessage(body.messages))) {
    return 'dialect_member';
  }
  return undefined;
}

/**
 * Whether a drop-in request is forwarded as it is. It is when the cache is off, every target speaks the client's
 * format natively, and the body holds nothing the gateway must read or check itself (see {@link NOT_FORWARDED}).
 * The request has passed every check of the translating path before this is asked, so what the gateway refuses
 * stays refused.
 */
export function decideForwarding(question: ForwardQuestion): ForwardDecision {
  const { format, body, targets } = question;
  const no = (reason: NotForwardedReason): ForwardDecision => ({ forward: false, reason });
  if (question.cacheOn) return no('cache_on');
  const same = SAME_FORMATS[format];
  if (targets.length === 0) return no('other_format');
  for (const target of targets) {
    const spoken = question.formatOf(target);
    if (spoken === undefined || !same.has(spoken) || target.provider.type === 'mistral')
      return no('other_format');
  }
  if (format === 'openai.chat') {
    const reason = chatBodyReason(body, targets);
    if (reason !== undefined) return no(reason);
  }
  return { forward: true, plan: { format, body } };
}

/** The request a forwarded body becomes for one target: the path below its base URL, headers and body. */
export interface ForwardedRequest {
  /** `/chat/completions` or `/messages`. */
  readonly path: string;
  /** Headers the format needs (`anthropic-version`), never a key. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body: the client's, with the target's model id and, for an OpenAI stream, its usage asked for. */
  readonly body: JsonObject;
  /** True when the client asked for a stream. */
  readonly stream: boolean;
  /** True when the client asked for the usage chunk of an OpenAI stream itself (else the gateway drops it). */
  readonly clientAskedUsage: boolean;
}

/** The Anthropic API version the gateway speaks (the one the Anthropic SDKs send). */
export const ANTHROPIC_VERSION = '2023-06-01';

/**
 * The forwarded request for one target. The only changes to the client's body: `model` becomes the target's
 * model id, and an OpenAI stream asks for its usage (`stream_options.include_usage: true`), which the gateway
 * needs for usage records, limits and cost. Members keep the client's order.
 */
export function forwardedRequest(plan: ForwardPlan, modelId: string): ForwardedRequest {
  const stream = plan.body.stream === true;
  const body: Record<string, JsonObject[string]> = { ...plan.body, model: modelId };
  if (plan.format === 'anthropic.messages') {
    return {
      path: '/messages',
      headers: { 'anthropic-version': ANTHROPIC_VERSION },
      body,
      stream,
      clientAskedUsage: true,
    };
  }
  const options = isJsonObject(plan.body.stream_options) ? plan.body.stream_options : undefined;
  const clientAskedUsage = options?.include_usage === true;
  if (stream && !clientAskedUsage) body.stream_options = { ...options, include_usage: true };
  return { path: '/chat/completions', headers: {}, body, stream, clientAskedUsage };
}

/** The bodies of drop-in requests as their clients sent them (bytes), kept by the body reader for forwarding. */
const clientBodies = new WeakMap<Request, Uint8Array>();

/**
 * The body reader of a drop-in route that may forward: the strict reader and the route's schema, as
 * `jsonBodyOf`, keeping the body as the client sent it (members in its order, nothing the schema may have
 * changed) for {@link clientBodyOf}.
 */
export function jsonBodyKeptOf<S extends z.ZodType>(schema: S): ReadBodyOptions<z.infer<S>>['parse'] {
  return (bytes, c) => {
    const read = parseJsonRequest(bytes, schema);
    if (read.ok) clientBodies.set(c.req.raw, bytes);
    return read;
  };
}

/** The body the client sent, when its route's reader kept it; read only when a request may be forwarded. */
export function clientBodyOf(c: Context<GatewayEnv>): JsonObject | undefined {
  const bytes = clientBodies.get(c.req.raw);
  if (bytes === undefined) return undefined;
  // The bytes passed the strict reader (UTF-8, no duplicate members, bounded depth), so the native parser reads
  // the same value, in the client's member order.
  const value: unknown = JSON.parse(new TextDecoder().decode(bytes));
  return isJsonObject(value) ? (value as JsonObject) : undefined;
}
