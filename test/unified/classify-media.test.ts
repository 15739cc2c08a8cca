import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { assembleSuccess } from '../../src/unified/assemble-output.js';
import { describeMedia } from '../../src/unified/classify-media.js';
import { classifyMedia, mediaTypeFromName, normalizeResponse } from '../../src/unified/index.js';

describe('classifyMedia', () => {
  test.each([
    [{ data: 'AAAA', media_type: 'image/png' }, 'images'],
    [{ data: 'AAAA', media_type: 'video/webm' }, 'videos'],
    [{ data: 'AAAA', media_type: 'audio/mpeg' }, 'files'],
    [{ url: 'https://cdn.example/out-0.WEBP?token=1' }, 'images'],
    [{ url: 'https://cdn.example/clip.mov' }, 'videos'],
    [{ url: 'https://cdn.example/speech.wav' }, 'files'],
    [{ url: 'https://cdn.example/no-extension' }, 'files'],
    [{ url: 'https://cdn.example/x', name: 'frame.jpg' }, 'images'],
    [{ url: 'https://cdn.example/a.png', media_type: 'video/mp4' }, 'videos'],
  ] as const)('%j goes to %s', (item, kind) => {
    expect(classifyMedia(item)).toBe(kind);
  });
});

describe('mediaTypeFromName', () => {
  test('knows common extensions, ignores query strings and unknown ones', () => {
    expect(mediaTypeFromName('https://x.example/a/b.jpeg?x=.png')).toBe('image/jpeg');
    expect(mediaTypeFromName('model.glb')).toBe('model/gltf-binary');
    expect(mediaTypeFromName('archive.xyz')).toBeUndefined();
  });
});

describe('describeMedia', () => {
  test.each([
    [[{ url: 'https://x.example/a.png' }], 'Generated 1 image.'],
    [[{ data: 'AA==', media_type: 'image/png' }, { url: 'https://x.example/b.webp' }], 'Generated 2 images.'],
    [[{ data: 'AA==', media_type: 'audio/L16;codec=pcm;rate=24000' }], 'Generated 1 audio clip.'],
    [
      [
        { url: 'https://x.example/a.mp4' },
        { url: 'https://x.example/speech.wav' },
        { url: 'https://x.example/notes.txt' },
        { url: 'https://x.example/b.mp4' },
      ],
      'Generated 2 videos, 1 audio clip and 1 file.',
    ],
  ] as const)('%j is described as %s', (items, text) => {
    expect(describeMedia(items)).toBe(text);
  });
});

describe('the media-only rule', () => {
  test('an answer with media and no text gets the description as content, in every format', () => {
    const gemini = normalizeResponse({
      format: 'google.generate-content',
      body: {
        candidates: [
          {
            content: { parts: [{ inlineData: { mimeType: 'audio/wav', data: 'UklGRg==' } }] },
            finishReason: 'STOP',
          },
        ],
      },
    });
    expect(gemini).toMatchObject({ success: true, content: 'Generated 1 audio clip.' });
    const chat = normalizeResponse({
      format: 'openrouter.chat',
      body: {
        choices: [
          {
            message: {
              role: 'assistant',
              content: '',
              images: [{ image_url: { url: 'data:image/png;base64,AA==' } }],
            },
            finish_reason: 'stop',
          },
        ],
      },
    });
    expect(chat).toMatchObject({ success: true, content: 'Generated 1 image.' });
  });

  test('text wins over the description, and an answer without media keeps its empty content', () => {
    const withText = normalizeResponse({
      format: 'google.generate-content',
      body: {
        candidates: [
          {
            content: { parts: [{ text: 'Here.' }, { inlineData: { mimeType: 'image/png', data: 'AA==' } }] },
            finishReason: 'STOP',
          },
        ],
      },
    });
    expect(withText).toMatchObject({ success: true, content: 'Here.' });
    const toolOnly = normalizeResponse({
      format: 'openai.chat',
      body: {
        choices: [
          {
            message: {
              role: 'assistant',
              content: null,
              tool_calls: [{ id: 'c', function: { name: 'f', arguments: '{}' } }],
            },
            finish_reason: 'tool_calls',
          },
        ],
      },
    });
    expect(toolOnly).toMatchObject({ success: true, content: '' });
  });
});

describe('assembleSuccess', () => {
  test('whatever the media, an answer without text gets a description that counts every item', () => {
    const item = fc.oneof(
      fc.record({ url: fc.webUrl() }),
      fc.record({
        data: fc.constant('AA=='),
        media_type: fc.constantFrom('image/png', 'video/mp4', 'audio/wav', 'application/pdf', 'text/plain'),
      }),
    );
    fc.assert(
      fc.property(
        fc.array(item, { minLength: 1, maxLength: 6 }),
        fc.constantFrom('', ' ', '\n'),
        (media, blank) => {
          const output = assembleSuccess('acme', blank, undefined, media, { trace_id: 't' });
          if (!output.success) return false;
          const counted = [...output.content.matchAll(/(\d+) /g)].reduce(
            (sum, match) => sum + Number(match[1]),
            0,
          );
          return output.content.startsWith('Generated ') && counted === media.length;
        },
      ),
    );
  });
});
