/**
 * What the demo provider answers in words: bodies recorded from real providers, kept small, copied from the
 * project's normalizer fixtures (test/fixtures/unified/<format>/success) so that the published package carries them.
 * docs/gateway.md ("The demo provider") says what each route answers.
 */

/** A text answer and the tokens its recording reported (Bedrock Converse, `converse-text.json`). */
export const DEMO_TEXT = {
  text: "Hello! I'm doing well, thank you for asking. How can I help you today?",
  inputTokens: 4,
  outputTokens: 20,
} as const;

/** A tool call and its tokens (OpenAI Chat Completions, `tool-calls.json`): used when the tool is offered. */
export const DEMO_TOOL_CALL = {
  toolName: 'get_weather',
  input: { city: 'Oslo' },
  inputTokens: 50,
  outputTokens: 18,
} as const;

/** A transcript with its segment, language and duration (OpenAI verbose JSON, `verbose-json-duration-usage.json`). */
export const DEMO_TRANSCRIPT = {
  text: 'The quick brown fox.',
  language: 'english',
  durationInSeconds: 8.47,
  segments: [{ text: 'The quick brown fox.', startSecond: 0, endSecond: 2.1 }],
} as const;
