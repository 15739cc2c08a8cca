import { createEventStreamParser, type EventStreamStep } from '../../unified/create-event-stream-parser.js';
import {
  formatSpecOf,
  normalizeParsedStream,
  normalizeStream,
  type UnifiedFormat,
} from '../../unified/normalize-response.js';
import type { UnifiedOutput } from '../../unified/types.js';
import type { WireDelta, WireEventDeltas, WireReadContext, WireStreamReader } from './wire-format.js';

/**
 * The stream reader every native wire format uses: the incremental event-stream parser `verdict normalize` reads
 * captured streams with, the format's own deltas for the client, and at the end the normalizer's fold of every
 * event (`normalizeParsedStream`), so the live envelope is the offline one by construction. A stream refused with
 * an HTTP error status is an ordinary error body, kept whole and read as `normalizeStream` reads it.
 */
export function readWireStream(
  format: UnifiedFormat,
  deltasOf: WireEventDeltas,
  context: WireReadContext,
): WireStreamReader {
  const spec = formatSpecOf(format);
  const parser = createEventStreamParser();
  const events: unknown[] = [];
  const refused = context.status >= 400;
  const kept: (string | Uint8Array)[] = [];
  let broken: EventStreamStep | undefined;
  let errorSeen = false;
  const facts = () => ({
    format,
    provider: context.provider,
    traceId: context.traceId,
    status: context.status,
    headers: context.headers,
    latencyMs: context.latencyMs,
  });
  const take = (step: EventStreamStep, out: WireDelta[]) => {
    if (!step.ok) {
      broken ??= step;
      return;
    }
    for (const event of step.events) {
      events.push(event);
      if (!errorSeen && spec.parseStreamError?.(event) !== undefined) errorSeen = true;
      // Nothing after an error event reaches the client: the answer is that failure.
      if (!errorSeen) for (const delta of deltasOf(event)) out.push(delta);
    }
  };
  return {
    push(chunk) {
      if (refused) {
        kept.push(chunk);
        return [];
      }
      if (broken !== undefined) return [];
      const out: WireDelta[] = [];
      take(parser.push(chunk), out);
      return out;
    },
    failure() {
      if (broken !== undefined || errorSeen)
        return normalizeParsedStream({ ...facts(), parsed: broken ?? { ok: true, events } });
      return undefined;
    },
    end(): UnifiedOutput {
      if (refused) return normalizeStream({ ...facts(), events: joined(kept) });
      if (broken === undefined) take(parser.end(), []);
      return normalizeParsedStream({ ...facts(), parsed: broken ?? { ok: true, events } });
    },
  };
}

/** The pieces of a body as one text. */
function joined(pieces: readonly (string | Uint8Array)[]): string {
  const decoder = new TextDecoder();
  let text = '';
  for (const piece of pieces)
    text += typeof piece === 'string' ? piece : decoder.decode(piece, { stream: true });
  return text + decoder.decode();
}
