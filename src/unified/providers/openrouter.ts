import { isJsonObject } from '../../contract/findings.js';
import type { FormatSpec } from './format-spec.js';
import { chatFormat } from './openai-compatible.js';
import type { Json } from './provider-outcome.js';

function openRouterFacts(root: Json): Record<string, unknown> {
  const usage = isJsonObject(root.usage) ? root.usage : {};
  return {
    // OpenRouter names the upstream provider that served the request in a top-level `provider` member.
    upstream_provider: typeof root.provider === 'string' ? root.provider : undefined,
    // OpenRouter bills in dollars and says so in `usage.cost`: the envelope's cost, from the provider itself.
    cost:
      typeof usage.cost === 'number' && Number.isFinite(usage.cost) && usage.cost >= 0
        ? { usd: usage.cost, source: 'provider' }
        : undefined,
  };
}

/** `openrouter.chat`: OpenRouter's Chat Completions dialect (the upstream provider to metadata, its billed cost to `metadata.cost`). */
export const openRouterChat: FormatSpec = {
  ...chatFormat('openrouter', ['x-request-id', 'x-generation-id'], openRouterFacts),
  aiSdkProviders: ['openrouter.chat'],
};
