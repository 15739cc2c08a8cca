import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  isUnifiedFormat,
  normalizeResponse,
  normalizeStream,
  type UnifiedOutput,
} from '../../src/unified/index.js';

/** One recorded provider exchange of the project's fixture corpus (`test/fixtures/unified/<format>/<expect>/`). */
export interface ProviderFixture {
  /** Path relative to the corpus root, for test names. */
  name: string;
  /** The format folder. */
  format: string;
  /** The expectation folder: `success` or a taxonomy code. */
  expectation: string;
  /** What the fixture shows. */
  description?: string;
  /** Where its field names, status codes and headers come from (the recordings and docs it was written from). */
  source?: string;
  /** Provider HTTP status (200 when absent). */
  status?: number;
  /** Provider response headers. */
  headers?: Record<string, string>;
  /** JSON body (given to the normalizer as JSON text) or a raw text body. */
  body?: unknown;
  /** A binary body, base64-encoded (for a stream fixture: the raw captured stream, such as an AWS event-stream). */
  body_base64?: string;
  /** True for a stream fixture. */
  stream?: boolean;
  /** Stream event payloads. */
  events?: unknown[];
  /** A stream as raw SSE text. */
  sse?: string;
  /** A partial envelope the output must match. */
  expect?: Record<string, unknown>;
}

/** The corpus root. */
export const FIXTURE_ROOT = join(import.meta.dirname, '..', 'fixtures', 'unified');

/** Every fixture of the corpus, with the folder names it was found under. */
export function loadFixtures(): ProviderFixture[] {
  const fixtures: ProviderFixture[] = [];
  for (const format of readdirSync(FIXTURE_ROOT)) {
    for (const expectation of readdirSync(join(FIXTURE_ROOT, format))) {
      for (const file of readdirSync(join(FIXTURE_ROOT, format, expectation))) {
        const data = JSON.parse(
          readFileSync(join(FIXTURE_ROOT, format, expectation, file), 'utf8'),
        ) as ProviderFixture;
        fixtures.push({ ...data, name: `${format}/${expectation}/${file}`, format, expectation });
      }
    }
  }
  return fixtures;
}

/** Base64 to bytes, for binary fixtures. */
export function fromBase64(text: string): Uint8Array {
  return Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
}

/** The envelope `verdict normalize` gives for a fixture (a stream fixture through `normalizeStream`). */
export function normalizeFixture(fixture: ProviderFixture, traceId?: string): UnifiedOutput {
  if (!isUnifiedFormat(fixture.format)) throw new Error(`unknown format folder ${fixture.format}`);
  const common = { format: fixture.format, status: fixture.status, headers: fixture.headers, traceId };
  if (fixture.stream === true) {
    const raw = fixture.body_base64 === undefined ? undefined : fromBase64(fixture.body_base64);
    return normalizeStream({ ...common, events: raw ?? fixture.sse ?? fixture.events ?? [] });
  }
  const body =
    fixture.body_base64 !== undefined
      ? fromBase64(fixture.body_base64)
      : typeof fixture.body === 'string'
        ? fixture.body
        : JSON.stringify(fixture.body);
  return normalizeResponse({ ...common, body });
}
