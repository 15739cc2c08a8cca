/**
 * How a request's `reasoning_effort` reaches a provider that speaks of reasoning in its own terms: OpenAI's
 * reasoning models take an effort from a list that depends on the model, Gemini 2.5 takes a budget of thinking
 * tokens, Gemini 3 a thinking level, Claude a budget of thinking tokens (docs/design.md, "Native wire formats"). The mapping follows the one the AI
 * SDK's providers apply, so that a request means the same on the native path and on the AI SDK's.
 */

/** The efforts a request may name, lowest first (`none` is apart: it turns thinking off where it can). */
export const REASONING_EFFORTS = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh'] as const;

/** A request's `reasoning_effort`. */
export type ReasoningEffort = (typeof REASONING_EFFORTS)[number];

/** The effort levels in order, without `none`, for finding the nearest level a model takes. */
const LEVELS = ['minimal', 'low', 'medium', 'high', 'xhigh'] as const;

/**
 * The level a model takes nearest to the one asked for: the level itself, else the next lower one, else the
 * next higher one. `none` is never a fallback, so an untaken `none` becomes the lowest level taken.
 */
export function nearestEffort(effort: ReasoningEffort, taken: readonly string[]): string | undefined {
  if (taken.includes(effort)) return effort;
  const index = LEVELS.indexOf(effort as (typeof LEVELS)[number]);
  const lower = LEVELS.slice(0, Math.max(index, 0)).reverse();
  const higher = LEVELS.slice(index + 1);
  return [...lower, ...higher].find((level) => taken.includes(level));
}

/** What verdict knows of an OpenAI model's reasoning from its id. */
export interface OpenAiReasoning {
  /** True for the reasoning models (o-series, GPT-5 and later but their chat variants). */
  readonly reasoning: boolean;
  /** The efforts the model takes, when its id says. */
  readonly efforts: readonly string[] | undefined;
}

/** The efforts of GPT-5 models by minor version. */
function gpt5Efforts(minor: number): readonly string[] {
  if (minor === 0) return ['minimal', 'low', 'medium', 'high'];
  if (minor === 1) return ['none', 'low', 'medium', 'high'];
  if (minor < 6) return ['none', 'low', 'medium', 'high', 'xhigh'];
  return ['none', 'low', 'medium', 'high', 'xhigh', 'max'];
}

/** The reasoning facts of an OpenAI model id (`o3`, `gpt-5-mini`, `gpt-4.1`…). */
export function openAiReasoningOf(modelId: string): OpenAiReasoning {
  const oSeries = /^o(\d+)(?:-|$)/.exec(modelId);
  const gpt = /^gpt-(\d+)(?:\.(\d+))?(?:-(.+))?$/.exec(modelId);
  if (oSeries !== null) return { reasoning: true, efforts: undefined };
  if (gpt === null) return { reasoning: false, efforts: undefined };
  const major = Number(gpt[1]);
  const minor = gpt[2] === undefined ? undefined : Number(gpt[2]);
  const variant = gpt[3];
  const chat = minor === undefined && (variant?.startsWith('chat') ?? false);
  if (major < 5 || chat) return { reasoning: false, efforts: undefined };
  if (major >= 6) return { reasoning: true, efforts: ['low', 'medium', 'high', 'xhigh', 'max'] };
  const standard =
    variant === undefined ||
    /^(?:(?:mini|nano|sol|luna|terra)(?:-\d{4}-\d{2}-\d{2})?|\d{4}-\d{2}-\d{2})$/.test(variant);
  return { reasoning: true, efforts: standard ? gpt5Efforts(minor ?? 0) : undefined };
}

/**
 * The `reasoning.effort` an OpenAI model is sent for a request's effort: the effort itself when the model's
 * list is unknown, else the nearest one it takes.
 */
export function openAiEffortFor(modelId: string, effort: ReasoningEffort): string | undefined {
  const { efforts } = openAiReasoningOf(modelId);
  return efforts === undefined ? effort : nearestEffort(effort, efforts);
}

/** Gemini's thinking settings: a token budget (Gemini 2.5) or a level (Gemini 3 and later). */
export type GeminiThinking = { thinkingBudget: number } | { thinkingLevel: string };

/** The output-token ceiling the budget shares are taken of (Gemini 2.5's largest answer). */
const GEMINI_MAX_OUTPUT_TOKENS = 65_536;

/** The share of {@link GEMINI_MAX_OUTPUT_TOKENS} each effort may spend thinking. */
const BUDGET_SHARES: Readonly<Record<Exclude<ReasoningEffort, 'none'>, number>> = {
  minimal: 0.02,
  low: 0.1,
  medium: 0.3,
  high: 0.6,
  xhigh: 0.9,
};

/** True for the Gemini models that think in levels (Gemini 3 and later, but its image model). */
function thinksInLevels(modelId: string): boolean {
  const gemini = /(^|[/.])gemini-/i.test(modelId);
  const older =
    /(^|[/.])gemini-[12](?:[.-]|$)/i.test(modelId) ||
    /(^|[/.])gemini-pro(?:-vision)?$/i.test(modelId) ||
    /(^|[/.])gemini-robotics-er-1\.5(?:[.-]|$)/i.test(modelId);
  return gemini && !older && !modelId.includes('gemini-3-pro-image');
}

/** The lowest thinking level of a Gemini 3 model: Pro models and Flash from 3.7 on start at `low`. */
function lowestLevel(modelId: string): 'minimal' | 'low' {
  if (/(^|[/.])gemini-4-hydrogen(?:-|$)/i.test(modelId)) return 'low';
  const name = /(?:^|[/.])(gemini-[^/]*)$/i.exec(modelId)?.[1]?.toLowerCase() ?? '';
  if (name === 'gemini-flash-latest') return 'low';
  const pro = /^gemini-(\d+)(?:\.\d+)?-pro(?:$|-)/.exec(name);
  if (pro !== null && Number(pro[1]) >= 3) return 'low';
  const flash = /^gemini-(\d+)\.(\d+)-flash(?:$|-(?!lite(?:-|$)))/.exec(name);
  if (flash === null) return 'minimal';
  const major = Number(flash[1]);
  const minor = Number(flash[2]);
  return major > 3 || (major === 3 && minor >= 7) ? 'low' : 'minimal';
}

/**
 * The thinking settings a Gemini model is sent for a request's effort: Gemini 3 models get the nearest level
 * they take; Gemini 2.5 models a share of the largest answer, between the model's smallest and largest budget
 * (`none` turns thinking off where the model allows it, else asks for the smallest budget).
 */
export function geminiThinkingFor(modelId: string, effort: ReasoningEffort): GeminiThinking | undefined {
  if (thinksInLevels(modelId)) {
    const hydrogen = /(^|[/.])gemini-4-hydrogen(?:-|$)/i.test(modelId);
    const levels = [
      ...(lowestLevel(modelId) === 'minimal' ? ['minimal'] : []),
      'low',
      'medium',
      'high',
      ...(hydrogen ? ['xhigh'] : []),
    ];
    const level = nearestEffort(effort, levels);
    return level === undefined ? undefined : { thinkingLevel: level };
  }
  const id = modelId.toLowerCase();
  const pro = id.includes('2.5-pro');
  const smallest = pro ? 128 : 0;
  const largest = pro || id.includes('gemini-3-pro-image') ? 32_768 : 24_576;
  if (effort === 'none') return { thinkingBudget: smallest };
  const share = Math.round(GEMINI_MAX_OUTPUT_TOKENS * BUDGET_SHARES[effort]);
  return { thinkingBudget: Math.min(largest, Math.max(smallest, share)) };
}

/** The share of a Claude model's largest answer each effort may spend thinking. */
const CLAUDE_BUDGET_SHARES: Readonly<Record<Exclude<ReasoningEffort, 'none'>, number>> = {
  minimal: 0.02,
  low: 0.1,
  medium: 0.3,
  high: 0.6,
  xhigh: 0.9,
};

/** The smallest thinking budget Anthropic's Messages API takes. */
const CLAUDE_MIN_BUDGET = 1024;

/**
 * The `thinking` a Claude model that thinks on a token budget is sent for a request's effort: `none` turns
 * thinking off, every other effort a share of the model's largest answer, no less than the smallest budget the
 * API takes and no more than that answer.
 */
export function claudeThinkingFor(
  maxOutputTokens: number,
  effort: ReasoningEffort,
): { type: 'disabled' } | { type: 'enabled'; budget_tokens: number } {
  if (effort === 'none') return { type: 'disabled' };
  const share = Math.round(maxOutputTokens * CLAUDE_BUDGET_SHARES[effort]);
  return {
    type: 'enabled',
    budget_tokens: Math.min(maxOutputTokens, Math.max(CLAUDE_MIN_BUDGET, share)),
  };
}
