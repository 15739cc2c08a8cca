import { describe, expect, test } from 'vitest';
import {
  claudeThinkingFor,
  geminiThinkingFor,
  nearestEffort,
  openAiEffortFor,
  openAiReasoningOf,
} from './reasoning-budget.js';

describe('nearestEffort', () => {
  test('takes the effort itself, else the next lower level, else the next higher one', () => {
    expect(nearestEffort('medium', ['low', 'medium', 'high'])).toBe('medium');
    expect(nearestEffort('xhigh', ['minimal', 'low', 'medium', 'high'])).toBe('high');
    expect(nearestEffort('minimal', ['low', 'medium', 'high'])).toBe('low');
  });

  test('never falls back to none: an untaken none is the lowest level taken', () => {
    expect(nearestEffort('none', ['minimal', 'low'])).toBe('minimal');
    expect(nearestEffort('low', ['none', 'medium'])).toBe('medium');
  });
});

describe('openAiReasoningOf', () => {
  test.each([
    ['o3', true],
    ['o4-mini', true],
    ['gpt-5', true],
    ['gpt-5.1-codex', true],
    ['gpt-5-chat-latest', false],
    ['gpt-4.1', false],
    ['gpt-4o-mini', false],
    ['my-finetune', false],
  ])('%s reasons: %s', (model, reasoning) => {
    expect(openAiReasoningOf(model).reasoning).toBe(reasoning);
  });

  test('an effort a GPT-5 model does not list becomes the nearest it does', () => {
    expect(openAiEffortFor('gpt-5', 'none')).toBe('minimal');
    expect(openAiEffortFor('gpt-5.1', 'minimal')).toBe('low');
    expect(openAiEffortFor('o3', 'xhigh')).toBe('xhigh');
  });
});

describe('geminiThinkingFor', () => {
  test('Gemini 2.5 gets a share of the largest answer, within the model budget', () => {
    expect(geminiThinkingFor('gemini-2.5-flash', 'low')).toEqual({ thinkingBudget: 6554 });
    expect(geminiThinkingFor('gemini-2.5-pro', 'high')).toEqual({ thinkingBudget: 32_768 });
    expect(geminiThinkingFor('gemini-2.5-flash', 'none')).toEqual({ thinkingBudget: 0 });
    expect(geminiThinkingFor('gemini-2.5-pro', 'none')).toEqual({ thinkingBudget: 128 });
  });

  test('Gemini 3 gets the nearest thinking level it takes', () => {
    expect(geminiThinkingFor('gemini-3-flash-preview', 'minimal')).toEqual({ thinkingLevel: 'minimal' });
    expect(geminiThinkingFor('gemini-3-pro-preview', 'minimal')).toEqual({ thinkingLevel: 'low' });
    expect(geminiThinkingFor('gemini-3-pro-preview', 'xhigh')).toEqual({ thinkingLevel: 'high' });
  });
});

describe('claudeThinkingFor', () => {
  test('an effort is a share of the largest answer, between 1,024 tokens and that answer', () => {
    expect(claudeThinkingFor(64_000, 'medium')).toEqual({ type: 'enabled', budget_tokens: 19_200 });
    expect(claudeThinkingFor(64_000, 'minimal')).toEqual({ type: 'enabled', budget_tokens: 1280 });
    expect(claudeThinkingFor(4096, 'minimal')).toEqual({ type: 'enabled', budget_tokens: 1024 });
    expect(claudeThinkingFor(1000, 'high')).toEqual({ type: 'enabled', budget_tokens: 1000 });
  });

  test('none turns thinking off', () => {
    expect(claudeThinkingFor(64_000, 'none')).toEqual({ type: 'disabled' });
  });
});
