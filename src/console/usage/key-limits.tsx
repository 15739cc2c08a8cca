import { useEffect, useState } from 'preact/hooks';
import { clientOf } from '../try/send-request.js';

/** What `GET /v1/key` answers about a stored key (docs/gateway.md, "Teams"). */
interface KeyFacts {
  name: string;
  limits: {
    rpm: number | null;
    tpm: number | null;
    budget_tokens: number | null;
    budget_period: string | null;
  } | null;
  remaining?: { rpm: number | null; tpm: number | null; budget_tokens: number | null };
}

/** The sentence the Try view shows under an answer, or `undefined` for a key without limits. */
export function describeLimits(facts: KeyFacts): string | undefined {
  const { limits, remaining } = facts;
  if (limits === null || remaining === undefined) return undefined;
  const parts: string[] = [];
  const format = (value: number) => value.toLocaleString('en');
  if (limits.rpm !== null && remaining.rpm !== null)
    parts.push(`${format(remaining.rpm)} of ${format(limits.rpm)} requests this minute`);
  if (limits.tpm !== null && remaining.tpm !== null)
    parts.push(`${format(remaining.tpm)} of ${format(limits.tpm)} tokens this minute`);
  if (limits.budget_tokens !== null && remaining.budget_tokens !== null)
    parts.push(
      `${format(remaining.budget_tokens)} of ${format(limits.budget_tokens)} budget tokens (${limits.budget_period ?? 'day'})`,
    );
  return parts.length === 0 ? undefined : `Key "${facts.name}" has left: ${parts.join(' · ')}.`;
}

/** Props of {@link KeyLimits}. */
export interface KeyLimitsProps {
  /** Base URL of the gateway ('' for the page's own). */
  baseUrl: string;
  /** The key the Try view sends. */
  gatewayKey: string;
  /** Changes after each answer, to read the limits again. */
  refresh: unknown;
}

/**
 * What is left of the calling key's limits, read from `GET /v1/key` after each answer; nothing for a gateway
 * without a store or a key without limits.
 */
export function KeyLimits({ baseUrl, gatewayKey, refresh }: KeyLimitsProps) {
  const [text, setText] = useState<string | undefined>();
  useEffect(() => {
    if (refresh === null || refresh === undefined || gatewayKey === '') return;
    const controller = new AbortController();
    void clientOf({ baseUrl, key: gatewayKey })
      .key({ signal: controller.signal })
      .then((answer) => {
        const facts = answer.success ? (answer.metadata.key as KeyFacts | undefined) : undefined;
        if (!controller.signal.aborted) setText(facts === undefined ? undefined : describeLimits(facts));
      });
    return () => controller.abort();
  }, [baseUrl, gatewayKey, refresh]);
  if (text === undefined) return null;
  return (
    <p class="hint" role="status">
      {text}
    </p>
  );
}
