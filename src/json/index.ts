/** Strict JSON reading (see docs/library.md): UTF-8 check, duplicate members, depth limit, positions. */
export { readJson } from './read-json.js';
export type {
  DuplicateMember,
  ReadError,
  ReadErrorReason,
  ReadJsonResult,
  ReadOptions,
  ReadWarning,
} from './types.js';
export { DEFAULT_MAX_DEPTH, READ_ERROR_REASONS } from './types.js';
