import type { UnifiedOutput } from '../../unified/types.js';
import type { TextStreamWrite } from './create-event-stream.js';

/** What stands in for a secret in every text the gateway sends or logs. */
export const REDACTED = '[redacted]';

/** Configured secrets shorter than this are not searched for: they would match ordinary words. */
const MIN_SECRET_LENGTH = 8;

/**
 * Common shapes of credentials, whoever they belong to: OpenAI-style `sk-…` keys, `Bearer …` tokens, Google
 * `AIza…` keys, Replicate `r8_…` tokens, and keys passed in a query string (`?key=…`). A provider error that
 * echoes the credential it was sent (self-hosted OpenAI-compatible servers do) loses it here.
 */
const KEY_SHAPES: readonly [RegExp, string][] = [
  [/\bBearer[ \t]+[A-Za-z0-9._~+/=-]{6,}/gi, `Bearer ${REDACTED}`],
  [/\bsk-[A-Za-z0-9_-]{6,}/g, REDACTED],
  [/\bAIza[0-9A-Za-z_-]{20,}/g, REDACTED],
  [/\br8_[A-Za-z0-9]{20,}/g, REDACTED],
  [/([?&](?:key|api_key|apikey|api-key|access_token|token)=)[^&\s"'#]+/gi, `$1${REDACTED}`],
];

/** Removes secrets from texts: the configured ones anywhere, and common key shapes. */
export interface Redactor {
  /** `text` without the configured secrets and without anything shaped like a key. */
  redact(text: string): string;
  /** `text` without the configured secrets only (for model output, where key shapes may be legitimate). */
  redactConfigured(text: string): string;
  /** How many characters at the end of `text` could begin a configured secret (0 when none could). */
  secretStartAtEnd(text: string): number;
}

/** A redactor for `secrets` (provider keys, gateway keys); secrets are searched longest first. */
export function createRedactor(secrets: readonly (string | undefined)[]): Redactor {
  const known = [
    ...new Set(secrets.filter((secret): secret is string => (secret?.length ?? 0) >= MIN_SECRET_LENGTH)),
  ].sort((a, b) => b.length - a.length);
  const redactConfigured = (text: string): string => {
    let out = text;
    for (const secret of known) if (out.includes(secret)) out = out.replaceAll(secret, REDACTED);
    return out;
  };
  // Every delta of a stream is looked at: a tail is compared only where it starts with a secret's first character.
  const firsts = new Set(known.map((secret) => secret[0]));
  return {
    redactConfigured,
    secretStartAtEnd(text) {
      for (let length = Math.min(text.length, (known[0]?.length ?? 1) - 1); length > 0; length--) {
        if (!firsts.has(text[text.length - length])) continue;
        const tail = text.slice(-length);
        if (known.some((secret) => secret.startsWith(tail))) return length;
      }
      return 0;
    },
    redact(text) {
      let out = redactConfigured(text);
      for (const [shape, replacement] of KEY_SHAPES) out = out.replace(shape, replacement);
      return out;
    },
  };
}

/** Every string inside `value` passed through `redact`, the structure kept; bounded in depth. */
function redactDeep(value: unknown, redact: (text: string) => string, depth = 0): unknown {
  if (typeof value === 'string') return redact(value);
  if (value === null || typeof value !== 'object' || depth > 32) return value;
  if (Array.isArray(value)) return value.map((item) => redactDeep(item, redact, depth + 1));
  const out: Record<string, unknown> = {};
  // Defined, not assigned: a member named `__proto__` (tool arguments may hold one) stays an own member.
  for (const [key, item] of Object.entries(value)) {
    Object.defineProperty(out, key, {
      value: redactDeep(item, redact, depth + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/**
 * An envelope safe to send: a failure loses every secret and key shape from its message, details and metadata;
 * a success loses the configured secrets from every string it holds — content, tool-call arguments, reasoning,
 * model names, provider request ids — but keeps key shapes (its text is the model's, where `sk-…` may be code).
 * The drop-in surfaces render from this envelope, so they inherit the same cover.
 */
export function redactEnvelope(envelope: UnifiedOutput, redactor: Redactor): UnifiedOutput {
  if (envelope.success) return redactDeep(envelope, redactor.redactConfigured) as UnifiedOutput;
  return {
    ...envelope,
    error: {
      ...envelope.error,
      message: redactor.redact(envelope.error.message),
      details: redactDeep(envelope.error.details, redactor.redact) as Record<string, unknown>,
    },
    metadata: redactDeep(envelope.metadata, redactor.redact) as typeof envelope.metadata,
  };
}

/**
 * `write` with the configured secrets taken out of every `delta` text and `tool_call_delta` arguments text. A
 * secret split across deltas is caught too: a tail of a run of deltas that could begin a secret (at most the longest
 * secret's length − 1 characters) is held back until the next delta of the same run, or written before any other
 * event (the envelope last of all). Deltas that end in no such tail leave as they came.
 */
export function redactStreamWrite(write: TextStreamWrite, redactor: Redactor): TextStreamWrite {
  let pending: { event: 'delta' | 'tool_call_delta'; id: unknown; text: string } | undefined;
  const flush = async () => {
    if (pending === undefined || pending.text === '') return;
    const { event, id, text } = pending;
    pending = undefined;
    await write(event, event === 'delta' ? { text } : { id, arguments: text });
  };
  return async (event, data) => {
    const item = (data ?? {}) as { text?: unknown; id?: unknown; name?: unknown; arguments?: unknown };
    const piece = event === 'delta' ? item.text : event === 'tool_call_delta' ? item.arguments : undefined;
    if ((event !== 'delta' && event !== 'tool_call_delta') || typeof piece !== 'string') {
      await flush();
      if (event === 'tool_call_start' && typeof item.name === 'string') {
        return write(event, { ...item, name: redactor.redactConfigured(item.name) });
      }
      return write(event, data);
    }
    if (pending !== undefined && (pending.event !== event || pending.id !== item.id)) await flush();
    const joined = redactor.redactConfigured((pending?.text ?? '') + piece);
    const cut = joined.length - redactor.secretStartAtEnd(joined);
    pending = { event, id: item.id, text: joined.slice(cut) };
    if (cut > 0)
      await write(
        event,
        event === 'delta'
          ? { ...item, text: joined.slice(0, cut) }
          : { ...item, arguments: joined.slice(0, cut) },
      );
  };
}
