import { afterAll, beforeAll, beforeEach } from 'vitest';
import { type ReplayProviders, startReplayProviders } from '../helpers/replay-providers.js';

/**
 * One replay server for the test file: started before its tests, reset before each, closed after them. The AI
 * SDK's console warnings about unknown model ids are turned off (the replayed models have made-up ids).
 */
export function useReplay(): () => ReplayProviders {
  let replay: ReplayProviders | undefined;
  beforeAll(async () => {
    (globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;
    replay = await startReplayProviders();
  });
  beforeEach(() => replay?.reset());
  afterAll(async () => {
    await replay?.close();
  });
  return () => {
    if (replay === undefined) throw new Error('The replay server is not started yet.');
    return replay;
  };
}
