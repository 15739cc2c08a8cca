/**
 * What the demo provider answers: bodies recorded from real providers, kept small, copied from the project's
 * normalizer fixtures (test/fixtures/unified/<format>/success) so that the published package carries them.
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

/** A 1×1 PNG (Imagen, `two-images.json`), base64-encoded. */
export const DEMO_IMAGE_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** The first bytes of an MP3 file (OpenAI speech, `mp3.json`), base64-encoded. */
export const DEMO_SPEECH_MP3 = 'SUQzBAAAAAAAD//7kGQAAA==';

/** A transcript with its segment, language and duration (OpenAI verbose JSON, `verbose-json-duration-usage.json`). */
export const DEMO_TRANSCRIPT = {
  text: 'The quick brown fox.',
  language: 'english',
  durationInSeconds: 8.47,
  segments: [{ text: 'The quick brown fox.', startSecond: 0, endSecond: 2.1 }],
} as const;

/** A finished video job (OpenAI videos, `completed.json`): the address the recording gave for its content. */
export const DEMO_VIDEO = {
  url: 'https://api.openai.com/v1/videos/video_68d7512d07848190b3e45da0ecbebcde/content',
  mediaType: 'video/mp4',
} as const;
