import { describe, expect, test } from 'vitest';
import { takeEvents } from './gateway-client.js';
import { readCatalog, routeSuggestions } from './read-catalog.js';

describe('takeEvents', () => {
  test('splits complete events from the unfinished rest, whatever the line endings', () => {
    const { events, rest } = takeEvents(
      'event: delta\ndata: {"text":"Hel"}\n\n: a comment\r\nevent: delta\r\ndata: {"text":"lo"}\r\n\r\ndata: {"succ',
    );
    expect(events).toEqual([
      { event: 'delta', data: '{"text":"Hel"}' },
      { event: 'delta', data: '{"text":"lo"}' },
    ]);
    expect(rest).toBe('data: {"succ');
  });

  test('joins several data lines and names unnamed events "message"', () => {
    expect(takeEvents('data: a\ndata: b\n\n').events).toEqual([{ event: 'message', data: 'a\nb' }]);
  });
});

describe('readCatalog', () => {
  test('reads providers and aliases from a GET /v1/models envelope and suggests routes per modality', () => {
    const catalog = readCatalog({
      success: true,
      metadata: {
        providers: [
          { id: 'openai', type: 'openai', modalities: ['text', 'images'] },
          { id: 'anthropic', type: 'anthropic', modalities: ['text'] },
          { type: 'broken' },
        ],
        aliases: { smart: ['anthropic:claude-x', 'openai:gpt-4o'] },
      },
    });
    expect(routeSuggestions(catalog, 'text')).toEqual(['smart', 'openai:', 'anthropic:']);
    expect(routeSuggestions(catalog, 'images')).toEqual(['smart', 'openai:']);
    expect(readCatalog({ success: false })).toEqual({ providers: [], aliases: [] });
  });
});
