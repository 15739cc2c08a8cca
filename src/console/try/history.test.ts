import { describe, expect, test } from 'vitest';
import { addToHistory, HISTORY_KEPT, type HistoryEntry } from './history.js';

const entry = (prompt: string, model = 'openai:gpt-4o-mini'): HistoryEntry => ({
  at: '2026-12-01T20:00:00.000Z',
  model,
  modality: 'text',
  prompt,
  stream: false,
  outcome: 'ok',
});

describe('addToHistory', () => {
  test('puts the newest first, drops an earlier copy of the same request and keeps a bounded list', () => {
    let list: HistoryEntry[] = [];
    for (let n = 0; n < HISTORY_KEPT + 5; n += 1) list = addToHistory(list, entry(`question ${n}`));
    expect(list).toHaveLength(HISTORY_KEPT);
    expect(list[0]?.prompt).toBe(`question ${HISTORY_KEPT + 4}`);
    list = addToHistory(list, entry('question 10'));
    expect(list.filter((e) => e.prompt === 'question 10')).toHaveLength(1);
    expect(list[0]?.prompt).toBe('question 10');
    expect(addToHistory([], entry('x'.repeat(10_000)))[0]?.prompt).toHaveLength(4000);
  });
});
