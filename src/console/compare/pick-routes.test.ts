import { describe, expect, test } from 'vitest';
import { pickRoutes } from './pick-routes.js';

const empty = { model: '', typed: false };

describe('pickRoutes', () => {
  test('gives two columns two different routes when two are on offer', () => {
    expect(pickRoutes([empty, empty], ['demo:chat', 'demo:chat-mini']).map((c) => c.model)).toEqual([
      'demo:chat',
      'demo:chat-mini',
    ]);
  });

  test('keeps a typed route and a listed one, and never repeats a kept route', () => {
    const columns = [
      { model: 'openai:gpt-4o', typed: true },
      { model: 'demo:chat', typed: false },
      { model: 'gone:model', typed: false },
    ];
    expect(pickRoutes(columns, ['demo:chat', 'demo:chat-mini', 'demo:fail'])).toEqual([
      { model: 'openai:gpt-4o', typed: true },
      { model: 'demo:chat', typed: false },
      { model: 'demo:chat-mini', typed: false },
    ]);
  });

  test('repeats a route only when fewer routes are on offer than columns', () => {
    expect(pickRoutes([empty, empty], ['demo:chat']).map((c) => c.model)).toEqual(['demo:chat', 'demo:chat']);
    expect(pickRoutes([empty, empty], []).map((c) => c.model)).toEqual(['', '']);
  });
});
