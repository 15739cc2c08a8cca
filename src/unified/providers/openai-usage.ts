import { expectObject, isJson, type ReportedUsage, tokenCount, usageDetails } from './provider-outcome.js';

/**
 * Usage of any OpenAI-family body: Chat Completions (`prompt_tokens`, `completion_tokens`), Responses, Images and
 * audio (`input_tokens`, `output_tokens`). OpenAI's input counts already include cached tokens and its output
 * counts reasoning tokens, as docs/unified.md describes; the breakdowns go to `usage_details`. Duration-billed usage
 * (`type: duration`) reports no tokens.
 */
export function openAiUsage(value: unknown): ReportedUsage | undefined {
  if (value === undefined || value === null) return undefined;
  const usage = expectObject(value, '`usage`');
  if (usage.type === 'duration') return undefined;
  const inputDetails =
    [usage.prompt_tokens_details, usage.input_tokens_details, usage.input_token_details].find(isJson) ?? {};
  const outputDetails = [usage.completion_tokens_details, usage.output_tokens_details].find(isJson) ?? {};
  return {
    input: tokenCount(usage.prompt_tokens ?? usage.input_tokens, '`usage` input tokens') ?? 0,
    output: tokenCount(usage.completion_tokens ?? usage.output_tokens, '`usage` output tokens') ?? 0,
    details: usageDetails({
      total_tokens: tokenCount(usage.total_tokens, '`usage.total_tokens`'),
      cached_input_tokens: tokenCount(inputDetails.cached_tokens, '`cached_tokens`'),
      text_input_tokens: tokenCount(inputDetails.text_tokens, '`text_tokens`'),
      image_input_tokens: tokenCount(inputDetails.image_tokens, '`image_tokens`'),
      audio_input_tokens: tokenCount(inputDetails.audio_tokens, 'input `audio_tokens`'),
      reasoning_tokens: tokenCount(outputDetails.reasoning_tokens, '`reasoning_tokens`'),
      audio_output_tokens: tokenCount(outputDetails.audio_tokens, 'output `audio_tokens`'),
    }),
  };
}
