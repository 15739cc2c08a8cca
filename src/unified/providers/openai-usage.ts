import { isJsonObject, omitUndefined } from '../../contract/findings.js';
import { expectObject, type ReportedUsage, tokenCount } from './provider-outcome.js';

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
    [usage.prompt_tokens_details, usage.input_tokens_details, usage.input_token_details].find(isJsonObject) ??
    {};
  const outputDetails =
    [usage.completion_tokens_details, usage.output_tokens_details].find(isJsonObject) ?? {};
  const input = tokenCount(usage.prompt_tokens ?? usage.input_tokens, '`usage` input tokens') ?? 0;
  const output = tokenCount(usage.completion_tokens ?? usage.output_tokens, '`usage` output tokens') ?? 0;
  const total = tokenCount(usage.total_tokens, '`usage.total_tokens`');
  const reasoning = tokenCount(outputDetails.reasoning_tokens, '`reasoning_tokens`');
  const outside = reasoningOutsideOutput(input, output, reasoning, total);
  const named = outside ? output + (reasoning ?? 0) : output;
  // A total above every named count holds tokens no field names (Gemini's OpenAI-compatible endpoint counts its
  // thinking that way): they are output, as docs/providers.md ("Usage accounting") says.
  const unnamed = total === undefined ? 0 : Math.max(0, total - input - named);
  return {
    input,
    output: named + unnamed,
    details: omitUndefined({
      total_tokens: total,
      cached_input_tokens: tokenCount(inputDetails.cached_tokens, '`cached_tokens`'),
      text_input_tokens: tokenCount(inputDetails.text_tokens, '`text_tokens`'),
      image_input_tokens: tokenCount(inputDetails.image_tokens, '`image_tokens`'),
      audio_input_tokens: tokenCount(inputDetails.audio_tokens, 'input `audio_tokens`'),
      reasoning_tokens: reasoning,
      audio_output_tokens: tokenCount(outputDetails.audio_tokens, 'output `audio_tokens`'),
      // The completion count as the body gave it, when reasoning or an unnamed remainder had to be added to it.
      reported_output_tokens: outside || unnamed > 0 ? output : undefined,
      unnamed_output_tokens: unnamed > 0 ? unnamed : undefined,
    }),
  };
}

/**
 * True when the body counts reasoning tokens outside its output count. OpenAI includes them
 * (`total = input + output`); some compatible providers (xAI's reasoning models among them) report them only in
 * the breakdown, so that `total = input + output + reasoning`. The body's own arithmetic decides, never the
 * provider's name; when the total fits neither sum, the output count is taken as given.
 */
function reasoningOutsideOutput(
  input: number,
  output: number,
  reasoning: number | undefined,
  total: number | undefined,
): boolean {
  if (reasoning === undefined || reasoning === 0 || total === undefined) return false;
  return total === input + output + reasoning && total !== input + output;
}
