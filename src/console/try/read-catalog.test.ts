import { describe, expect, test } from 'vitest';
import { readCatalog, routeGroups, textOptionsOf, unlistedProviders } from './read-catalog.js';

describe('readCatalog', () => {
  const catalog = readCatalog({
    success: true,
    metadata: {
      providers: [
        { id: 'openai', type: 'openai', modalities: ['text', 'images'] },
        { id: 'anthropic', type: 'anthropic', modalities: ['text'] },
        { id: 'openrouter', type: 'openai-compatible', modalities: ['text', 'images'] },
        { id: 'local', type: 'openai-compatible', modalities: ['text'], models: ['llama-3', 'qwen'] },
        { id: 'demo', type: 'demo', modalities: ['text'], demo: true },
        { type: 'broken' },
      ],
      aliases: { smart: ['anthropic:claude-x', 'openai:gpt-4o'], draw: ['openai:gpt-image-1'] },
    },
  });

  test('groups the routes of a modality: aliases first, then each provider with its models', () => {
    expect(routeGroups(catalog, 'text')).toEqual([
      {
        label: 'Aliases',
        routes: [
          { route: 'smart', label: 'smart → anthropic:claude-x, openai:gpt-4o' },
          { route: 'draw', label: 'draw → openai:gpt-image-1' },
        ],
      },
      { label: 'openai', routes: [{ route: 'openai:gpt-4o-mini', label: 'openai:gpt-4o-mini' }] },
      {
        label: 'anthropic',
        routes: [{ route: 'anthropic:claude-sonnet-4-5', label: 'anthropic:claude-sonnet-4-5' }],
      },
      {
        label: 'local',
        routes: [
          { route: 'local:llama-3', label: 'local:llama-3' },
          { route: 'local:qwen', label: 'local:qwen' },
        ],
      },
      {
        label: 'demo: offline demo, generated answers',
        routes: [{ route: 'demo:chat', label: 'demo:chat' }],
      },
    ]);
    expect(unlistedProviders(catalog, 'text')).toEqual(['openrouter']);
  });

  test('keeps to the providers serving the modality, aliases included', () => {
    expect(routeGroups(catalog, 'images').map((g) => g.routes.map((r) => r.route))).toEqual([
      ['smart', 'draw'],
      ['openai:gpt-image-1'],
    ]);
    expect(routeGroups(catalog, 'videos')).toEqual([]);
    expect(readCatalog({ success: false })).toEqual({ providers: [], aliases: [] });
  });

  test('reads the text options of a route: its provider’s, or those all of an alias’s targets take', () => {
    const listed = readCatalog({
      metadata: {
        providers: [
          { id: 'openai', type: 'openai', modalities: ['text'], text_options: ['seed', 'stop'] },
          { id: 'anthropic', type: 'anthropic', modalities: ['text'], text_options: ['top_k', 'stop'] },
          { id: 'old', type: 'openai', modalities: ['text'] },
        ],
        aliases: { both: ['openai:a', 'anthropic:b'], partly: ['openai:a', 'old:c'] },
      },
    });
    expect([...(textOptionsOf(listed, 'openai:gpt-4o') ?? [])]).toEqual(['seed', 'stop']);
    expect([...(textOptionsOf(listed, 'both') ?? [])]).toEqual(['stop']);
    expect(textOptionsOf(listed, 'partly')).toBeUndefined();
    expect(textOptionsOf(listed, 'elsewhere:model')).toBeUndefined();
  });
});
