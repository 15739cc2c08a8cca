import { isJsonObject } from '../../contract/findings.js';
import type { FormatSpec } from './format-spec.js';
import { chatFormat } from './openai-compatible.js';
import type { Json } from './provider-outcome.js';

function openRouterFacts(root: Json): Record<string, unknown> {
  const usage = isJsonObject(root.usage) ? root.usage : {};
  return {
    // OpenRouter names the upstream provider that served the request in a top-level `provider` member.
    upstream_provider: typeof root.provider === 'string' ? root.provider : undefined,
    cost: typeof usage.cost === 'number' ? usage.cost : undefined,
  };
}

/** `openrouter.chat`: OpenRouter's Chat Completions dialect (the upstream provider and cost go to metadata). */
export const openRouterChat: FormatSpec = {
  ...chatFormat('openrouter', ['x-request-id', 'x-generation-id'], openRouterFacts),
  aiSdkProviders: ['openrouter.chat'],
};
