/** Why an input could not be read as one strict JSON document (see docs/library.md, "Strict JSON reading"). */
export const READ_ERROR_REASONS = [
  'not_found',
  'unreadable',
  'empty',
  'not_utf8',
  'syntax',
  'trailing_data',
  'too_deep',
  'too_large',
] as const;

/** One of {@link READ_ERROR_REASONS}. */
export type ReadErrorReason = (typeof READ_ERROR_REASONS)[number];

/** A failed read: the reason, a sentence for people, and where it happened when that is known. */
export interface ReadError {
  /** Stable reason code. */
  reason: ReadErrorReason;
  /** One sentence saying what is wrong. */
  message: string;
  /** Offset of the problem in the input, in bytes for byte input and UTF-16 code units for string input. */
  offset?: number;
  /** 1-based line of the problem. */
  line?: number;
  /** 1-based column of the problem, counted in characters. */
  column?: number;
}

/** A member name that appears more than once in one object. */
export interface DuplicateMember {
  /** JSON Pointer of the object holding the duplicate (`""` for the root). */
  path: string;
  /** The repeated member name. */
  key: string;
}

/** A remark about an input that was read, such as a UTF-8 byte order mark. */
export interface ReadWarning {
  /** Stable snake_case code, for example `utf8_bom`. */
  code: string;
  /** JSON Pointer the remark is about (`""` for the whole document). */
  path: string;
  /** One sentence for people. */
  message: string;
}

/** Limits applied while reading. */
export interface ReadOptions {
  /** Deepest nesting of arrays and objects accepted; deeper is `too_deep`. Default {@link DEFAULT_MAX_DEPTH}. */
  maxDepth?: number;
  /** Largest input accepted, in bytes (string input: UTF-16 code units); larger is `too_large`. Default: none. */
  maxBytes?: number;
}

/** The outcome of a strict read: the parsed value with what was noticed, or why it could not be read. */
export type ReadJsonResult =
  | { ok: true; value: unknown; duplicates: DuplicateMember[]; warnings: ReadWarning[] }
  | { ok: false; error: ReadError };

/** Default nesting limit: deep enough for any real result, shallow enough to never exhaust memory or stack. */
export const DEFAULT_MAX_DEPTH = 10_000;
