import type { ImageModel, LanguageModel, SpeechModel, TranscriptionModel } from 'ai';
import { describe, expectTypeOf, test } from 'vitest';
import type { z } from 'zod';
import type { ModelOf, VideoModel } from '../../src/gateway/ai-sdk/model-types.js';
import type { Modality, RouteName } from '../../src/gateway/basics/route-table.js';
import type { RouteName as ConfigRouteName } from '../../src/gateway/config/config.js';
import type { AttemptInput, Target } from '../../src/gateway/pipeline/call-with-fallbacks.js';
import type { REQUEST_SCHEMAS, TextRequest } from '../../src/gateway/request/request-schemas.js';
import type { CallSpec } from '../../src/gateway/routes/serve-call.js';

describe('the route table types the gateway', () => {
  test('the configuration names and the modalities are the routes that call providers', () => {
    expectTypeOf<RouteName>().toEqualTypeOf<
      'text' | 'images' | 'speech' | 'transcriptions' | 'videos' | 'embeddings'
    >();
    expectTypeOf<ConfigRouteName>().toEqualTypeOf<RouteName>();
    expectTypeOf<Modality>().toEqualTypeOf<RouteName>();
  });

  test("a target carries the model of its route's modality, never a string id", () => {
    expectTypeOf<Target<ModelOf<'images'>>['model']>().toEqualTypeOf<Exclude<ImageModel, string>>();
    expectTypeOf<Target<ModelOf<'text'>>['model']>().toEqualTypeOf<Exclude<LanguageModel, string>>();
    expectTypeOf<Target<ModelOf<'speech'>>['model']>().toEqualTypeOf<Exclude<SpeechModel, string>>();
    expectTypeOf<Target<ModelOf<'transcriptions'>>['model']>().toEqualTypeOf<
      Exclude<TranscriptionModel, string>
    >();
    expectTypeOf<Target<ModelOf<'videos'>>['model']>().toEqualTypeOf<Exclude<VideoModel, string>>();
    expectTypeOf<Target<ModelOf<'images'>>['model']>().not.toBeString();
  });

  test("a route's call gets its own target, and the request schemas type the bodies", () => {
    type ImagesCall = Parameters<CallSpec<unknown, 'images'>['call']>[0];
    expectTypeOf<ImagesCall>().toEqualTypeOf<AttemptInput<ModelOf<'images'>>>();
    expectTypeOf<z.infer<(typeof REQUEST_SCHEMAS)['text']>>().toEqualTypeOf<TextRequest>();
    expectTypeOf<keyof typeof REQUEST_SCHEMAS>().toEqualTypeOf<RouteName>();
  });
});
