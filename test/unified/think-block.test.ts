import { describe, expect, test } from 'vitest';
import { normalizeResponse } from '../../src/unified/index.js';
import { splitThinkBlock } from '../../src/unified/providers/openai-compatible.js';

function chatBody(content: unknown, finish = 'stop') {
  return JSON.stringify({
    id: 'c1',
    object: 'chat.completion',
    model: 'deepseek-r1',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: finish }],
  });
}

describe('splitThinkBlock', () => {
  test('splits a leading block, whitespace before it aside', () => {
    expect(splitThinkBlock('\n <think> plan </think>\nanswer')).toEqual({
      content: 'answer',
      reasoning: 'plan',
    });
  });

  test('leaves text alone when the block is not at the start', () => {
    expect(splitThinkBlock('Use <think>tags</think> like this.')).toEqual({
      content: 'Use <think>tags</think> like this.',
    });
  });

  test('reads an unclosed block as all reasoning', () => {
    expect(splitThinkBlock('<think>still thinking when the limit came')).toEqual({
      content: '',
      reasoning: 'still thinking when the limit came',
    });
  });
});

describe('reasoning in Chat Completions content', () => {
  test('never reaches content, and an answer without it has no reasoning', () => {
    const split = normalizeResponse({
      format: 'openai-compatible.chat',
      body: chatBody('<think>a</think>b'),
    });
    expect(split).toMatchObject({ success: true, content: 'b', metadata: { reasoning: 'a' } });
    const plain = normalizeResponse({ format: 'openai-compatible.chat', body: chatBody('just b') });
    expect(plain).toMatchObject({ success: true, content: 'just b' });
    expect(plain.metadata).not.toHaveProperty('reasoning');
  });

  test('a think block cut by the length limit leaves an empty answer, not reasoning as content', () => {
    const output = normalizeResponse({
      format: 'openai-compatible.chat',
      body: chatBody('<think>first, the', 'length'),
    });
    expect(output).toMatchObject({
      success: true,
      content: '',
      metadata: { finish_reason: 'length', reasoning: 'first, the' },
    });
  });

  test('Mistral thinking parts of a whole answer are reasoning, text parts the answer', () => {
    const output = normalizeResponse({
      format: 'openai-compatible.chat',
      body: chatBody([
        { type: 'thinking', thinking: [{ type: 'text', text: 'hmm' }] },
        { type: 'text', text: 'Yes.' },
      ]),
    });
    expect(output).toMatchObject({ success: true, content: 'Yes.', metadata: { reasoning: 'hmm' } });
  });
});
