import type { z } from 'zod';
import { readJson } from '../../json/index.js';
import type { UnifiedErrorCode } from '../../unified/error-taxonomy.js';
import { expandUnions, REQUEST_PARSE_OPTIONS } from '../basics/describe-issue.js';
import { type ConfigProblem, duplicateProblems, problemsOf } from '../config/config-problem.js';

/** Why a request body was refused: the failure's code, a sentence and its details. */
export interface RequestProblem {
  /** `VALIDATION_ERROR` or `PAYLOAD_TOO_LARGE`. */
  code: UnifiedErrorCode;
  /** One sentence for people. */
  message: string;
  /** Machine-readable details; `problems` lists every problem with its JSON Pointer. */
  details: Record<string, unknown>;
}

/** The outcome of reading a request. */
export type RequestRead<T> = { ok: true; value: T } | { ok: false; problem: RequestProblem };

/** Deepest nesting accepted in a request body: requests are shallow, so deep bodies are refused early. */
const MAX_REQUEST_DEPTH = 64;

function tooLarge(limit: number): RequestRead<never> {
  return {
    ok: false,
    problem: {
      code: 'PAYLOAD_TOO_LARGE',
      message: `The request body is larger than ${limit} bytes.`,
      details: { max_body_bytes: limit },
    },
  };
}

/** Why a body could not be read: too slow (`REQUEST_TIMEOUT`), or the client's connection ended mid-body. */
function unread(timedOut: boolean, timeoutMs: number): RequestRead<never> {
  return {
    ok: false,
    problem: timedOut
      ? {
          code: 'REQUEST_TIMEOUT',
          message: `The request body did not arrive within ${timeoutMs} ms.`,
          details: { body_timeout_ms: timeoutMs },
        }
      : {
          code: 'REQUEST_TIMEOUT',
          message: 'The client closed the connection before the request body was complete.',
          details: { reason: 'client_closed' },
        },
  };
}

/**
 * Read the raw body, refusing more than `limit` bytes without reading past them, and giving up after
 * `timeoutMs` (a client that sends its body slowly holds no place for long). A body the client stopped
 * sending is a `REQUEST_TIMEOUT` problem whose details say `client_closed`.
 */
export async function readBodyBytes(
  request: Request,
  limit: number,
  timeoutMs = Number.POSITIVE_INFINITY,
): Promise<RequestRead<Uint8Array>> {
  if (!Number.isFinite(timeoutMs))
    return readBodyWithin(request, limit).catch(() => unread(false, timeoutMs));
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), timeoutMs);
  });
  const reading = readBodyWithin(request, limit);
  try {
    const read = await Promise.race([reading, late]);
    if (read !== 'late') return read;
    reading.catch(() => undefined);
    await request.body?.cancel().catch(() => undefined);
    return unread(true, timeoutMs);
  } catch {
    return unread(false, timeoutMs);
  } finally {
    clearTimeout(timer);
  }
}

async function readBodyWithin(request: Request, limit: number): Promise<RequestRead<Uint8Array>> {
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) return tooLarge(limit);
  // A body with a declared length within the limit is read in one go: the HTTP server reads exactly that many
  // bytes (Node's @hono/node-server then skips the Web stream entirely, which is most of a small request's
  // reading cost). The size is still checked, for runtimes that pass a Request whose header does not match.
  if (
    request.headers.get('content-length') !== null &&
    Number.isSafeInteger(declared) &&
    declared >= 0 &&
    request.headers.get('transfer-encoding') === null
  ) {
    const bytes = new Uint8Array(await request.arrayBuffer());
    return bytes.byteLength > limit ? tooLarge(limit) : { ok: true, value: bytes };
  }
  if (request.body === null) return { ok: true, value: new Uint8Array() };
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      return tooLarge(limit);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { ok: true, value: bytes };
}

/** A `VALIDATION_ERROR` problem listing `problems`. */
export function invalidRequest(
  problems: ConfigProblem[],
  extra: Record<string, unknown> = {},
): RequestProblem {
  const listed = problems
    .slice(0, 3)
    .map((problem) => `${problem.path || '/'}: ${problem.message}`)
    .join('; ');
  const more = problems.length > 3 ? ` (and ${problems.length - 3} more)` : '';
  return {
    code: 'VALIDATION_ERROR',
    message: `The request is invalid: ${listed}${more}`,
    details: { problems, ...extra },
  };
}

/** Parse JSON bytes with verdict's strict reader (UTF-8, duplicate members, depth) and check them against `schema`. */
export function parseJsonRequest<S extends z.ZodType>(bytes: Uint8Array, schema: S): RequestRead<z.infer<S>> {
  if (bytes.byteLength === 0) {
    return {
      ok: false,
      problem: invalidRequest([{ path: '', message: 'The request body is empty; send a JSON object.' }]),
    };
  }
  const read = readJson(bytes, { maxDepth: MAX_REQUEST_DEPTH });
  if (!read.ok) {
    const where = read.error.line === undefined ? {} : { line: read.error.line, column: read.error.column };
    return {
      ok: false,
      problem: invalidRequest([{ path: '', message: `The body is not JSON: ${read.error.message}` }], {
        reason: read.error.reason,
        ...where,
      }),
    };
  }
  const problems: ConfigProblem[] = duplicateProblems(read.duplicates);
  const parsed = schema.safeParse(read.value, REQUEST_PARSE_OPTIONS);
  if (!parsed.success) problems.push(...problemsOf(expandUnions(parsed.error.issues)));
  if (problems.length > 0) return { ok: false, problem: invalidRequest(problems) };
  return { ok: true, value: parsed.data as z.infer<S> };
}
