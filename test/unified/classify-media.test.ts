import { describe, expect, test } from 'vitest';
import { classifyMedia, mediaTypeFromName } from '../../src/unified/index.js';

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
