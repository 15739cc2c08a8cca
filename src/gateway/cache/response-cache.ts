import { fromBase64, toBase64 } from '../../unified/base64.js';
import type { UnifiedSuccess } from '../../unified/types.js';
import type { TextStreamEvent } from '../basics/create-event-stream.js';
import type { CacheSettings } from '../config/cache-settings.js';
import type { GatewayStore } from '../store/open-store.js';
import { readStoredEntry, sweepStoredEntries, writeStoredEntry } from './cache-store.js';

/**
 * The gateway's response cache (docs/gateway.md, "Cache"): entries kept in memory per instance, least recently
 * used first out, bounded by bytes; the store, when the gateway has one, as the tier every instance shares.
 * It also knows which keys are being answered now, so identical requests in flight wait for the first one.
 */

/** What the cache did for a request, as `x-verdict-cache` says it. */
export type CacheStatus = 'hit' | 'miss' | 'bypass';

/** One stream event as the pipeline wrote it (not the final `envelope` event, which a hit writes anew). */
export interface CachedEvent {
  /** The event's name. */
  readonly event: Exclude<TextStreamEvent, 'envelope'>;
  /** Its data. */
  readonly data: unknown;
}

/** What an entry keeps: the built envelope of a success and, when it was streamed, the events before it. */
export interface CachedAnswer {
  /** The envelope as it was answered (its `metadata.trace_id` is the original request's). */
  readonly envelope: UnifiedSuccess;
  /** The stream's events, when the answer was streamed. */
  readonly events?: readonly CachedEvent[] | undefined;
}

/** An entry found: the answer and when it was stored. */
export interface CacheHit {
  /** The answer. */
  readonly answer: CachedAnswer;
  /** When it was stored, in milliseconds since the epoch. */
  readonly storedAt: number;
}

/**
 * One entry in memory: its JSON text, parsed again on each hit. A text is one flat string, where the parsed
 * answer would be a tree of objects, arrays and numbers several times its size (an embedding's vector above all),
 * and the size it takes is known rather than guessed.
 */
interface MemoryEntry {
  readonly text: string;
  /** What the entry holds the memory with, as {@link memoryBytesOf} counts it. */
  readonly bytes: number;
  readonly storedAt: number;
  readonly expiresAt: number;
}

/** Counts for `/metrics`. */
export interface CacheStats {
  /** Requests answered from the cache. */
  hits: number;
  /** Requests that found no entry and called the provider. */
  misses: number;
  /** Requests the cache did not take part in (`no-cache`, an uncacheable request, a route turned off). */
  bypasses: number;
  /** Requests that waited for an identical request in flight. */
  coalesced: number;
  /** Entries written. */
  stores: number;
  /** Answers too large to keep. */
  tooLarge: number;
  /** Entries evicted from memory to stay under its size. */
  evictions: number;
  /** Store reads or writes that failed (the request goes on without the store). */
  storeErrors: number;
}

/** What the cache needs besides its settings. */
export interface ResponseCacheOptions {
  /** The shared tier, when the gateway has a store. */
  store?: GatewayStore | undefined;
  /** The clock, in milliseconds since the epoch (tests give a fake one). */
  now?: (() => number) | undefined;
  /** Milliseconds between two sweeps of the store (expired entries, size cap); default 60 000. */
  sweepEveryMs?: number | undefined;
}

/** The response cache of one gateway instance. */
export class ResponseCache {
  /** The settings it runs with. */
  readonly settings: CacheSettings;
  /** Its counts. */
  readonly stats: CacheStats = {
    hits: 0,
    misses: 0,
    bypasses: 0,
    coalesced: 0,
    stores: 0,
    tooLarge: 0,
    evictions: 0,
    storeErrors: 0,
  };
  // A Map keeps insertion order: reading an entry moves it to the end, so the first one is the least recently used.
  private readonly memory = new Map<string, MemoryEntry>();
  private memoryBytes = 0;
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly store: GatewayStore | undefined;
  private readonly now: () => number;
  private readonly sweepEveryMs: number;
  private lastSweep: number;

  constructor(settings: CacheSettings, options: ResponseCacheOptions = {}) {
    this.settings = settings;
    this.store = options.store;
    this.now = options.now ?? Date.now;
    this.sweepEveryMs = options.sweepEveryMs ?? 60_000;
    this.lastSweep = this.now();
  }

  /** Bytes of the entries in memory now. */
  get bytesInMemory(): number {
    return this.memoryBytes;
  }

  /** Entries in memory now. */
  get entriesInMemory(): number {
    return this.memory.size;
  }

  /** Whole seconds since `storedAt` by the cache's clock. */
  ageS(storedAt: number): number {
    return Math.max(0, Math.floor((this.now() - storedAt) / 1000));
  }

  /** The entry under `key` that has not expired: from memory, else from the store (then kept in memory too). */
  async read(key: string): Promise<CacheHit | undefined> {
    const now = this.now();
    const entry = this.memory.get(key);
    if (entry !== undefined) {
      this.memory.delete(key);
      if (entry.expiresAt > now) {
        this.memory.set(key, entry);
        return { answer: answerOfEntry(entry.text), storedAt: entry.storedAt };
      }
      this.memoryBytes -= entry.bytes;
    }
    if (this.store === undefined) return undefined;
    this.sweepNow(now);
    try {
      const stored = await readStoredEntry(this.store, key, new Date(now));
      if (stored === undefined) return undefined;
      const answer = answerOfEntry(stored.answer);
      this.keep(key, {
        text: stored.answer,
        bytes: memoryBytesOf(key, stored.answer),
        storedAt: stored.storedAt,
        expiresAt: stored.expiresAt,
      });
      return { answer, storedAt: stored.storedAt };
    } catch {
      this.stats.storeErrors++;
      return undefined;
    }
  }

  /**
   * Keep an answer for `ttlS` seconds: in memory, and in the store when there is one. An answer whose JSON is
   * larger than the entry size limit (in UTF-8 bytes) is not kept (answers `false`).
   */
  async write(key: string, answer: CachedAnswer, ttlS: number): Promise<boolean> {
    const text = entryTextOf(answer);
    const bytes = byteLength(text);
    if (bytes > this.settings.maxEntryBytes) {
      this.stats.tooLarge++;
      return false;
    }
    const storedAt = this.now();
    const expiresAt = storedAt + ttlS * 1000;
    this.keep(key, { text, bytes: memoryBytesOf(key, text), storedAt, expiresAt });
    this.stats.stores++;
    if (this.store !== undefined) {
      this.sweepNow(storedAt);
      try {
        await writeStoredEntry(this.store, key, text, bytes, new Date(storedAt), new Date(expiresAt));
      } catch {
        this.stats.storeErrors++;
      }
    }
    return true;
  }

  /** The answer being made now for `key`, to wait for, if an identical request is in flight. */
  pending(key: string): Promise<void> | undefined {
    return this.inFlight.get(key);
  }

  /** Say that a request is answering `key`; the function returned says it has ended (stored or not). */
  begin(key: string): () => void {
    let end!: () => void;
    const ended = new Promise<void>((resolve) => {
      end = resolve;
    });
    this.inFlight.set(key, ended);
    return () => {
      if (this.inFlight.get(key) === ended) this.inFlight.delete(key);
      end();
    };
  }

  /** Lines for `/metrics`. */
  metrics(): string[] {
    const counter = (name: string, help: string, value: number) => [
      `# HELP verdict_gateway_cache_${name} ${help}`,
      `# TYPE verdict_gateway_cache_${name} counter`,
      `verdict_gateway_cache_${name} ${value}`,
    ];
    return [
      ...counter('hits_total', 'Requests answered from the response cache.', this.stats.hits),
      ...counter(
        'misses_total',
        'Requests the cache could not answer, sent to a provider.',
        this.stats.misses,
      ),
      ...counter('bypasses_total', 'Requests the cache took no part in.', this.stats.bypasses),
      ...counter(
        'coalesced_total',
        'Requests that waited for an identical one in flight.',
        this.stats.coalesced,
      ),
      ...counter('stores_total', 'Answers written to the cache.', this.stats.stores),
      ...counter(
        'too_large_total',
        'Answers larger than the entry size limit, not kept.',
        this.stats.tooLarge,
      ),
      ...counter(
        'evictions_total',
        'Entries evicted from memory to stay under its size.',
        this.stats.evictions,
      ),
      ...counter(
        'store_errors_total',
        'Store reads or writes of the cache that failed.',
        this.stats.storeErrors,
      ),
      '# HELP verdict_gateway_cache_memory_bytes Bytes of the entries in memory.',
      '# TYPE verdict_gateway_cache_memory_bytes gauge',
      `verdict_gateway_cache_memory_bytes ${this.memoryBytes}`,
      '# HELP verdict_gateway_cache_memory_entries Entries in memory.',
      '# TYPE verdict_gateway_cache_memory_entries gauge',
      `verdict_gateway_cache_memory_entries ${this.memory.size}`,
    ];
  }

  /** Sweep the store now (tests, and the background sweep); answers how many entries went. */
  async sweep(): Promise<number> {
    if (this.store === undefined) return 0;
    return sweepStoredEntries(this.store, new Date(this.now()), this.settings.maxStoreBytes);
  }

  /** Put an entry in memory, evicting the least recently used ones until the rest fit. */
  private keep(key: string, entry: MemoryEntry): void {
    const previous = this.memory.get(key);
    if (previous !== undefined) {
      this.memory.delete(key);
      this.memoryBytes -= previous.bytes;
    }
    if (entry.bytes > this.settings.maxMemoryBytes) return;
    this.memory.set(key, entry);
    this.memoryBytes += entry.bytes;
    for (const [oldest, old] of this.memory) {
      if (this.memoryBytes <= this.settings.maxMemoryBytes) break;
      this.memory.delete(oldest);
      this.memoryBytes -= old.bytes;
      this.stats.evictions++;
    }
  }

  /** Start a sweep of the store when the last one is old enough; it runs off the request's path. */
  private sweepNow(now: number): void {
    if (now - this.lastSweep < this.sweepEveryMs) return;
    this.lastSweep = now;
    this.sweep().catch(() => {
      this.stats.storeErrors++;
    });
  }
}

/**
 * An entry as it is kept, in memory and in the store: the answer's JSON, with the vectors of an embeddings answer
 * (`metadata.embeddings`) moved out of the envelope and written as base64 of their float64 bytes, little-endian
 * (`vectors`): exactly the numbers the provider gave, in 10.7 characters each where JSON takes up to 24.
 */
export function entryTextOf(answer: CachedAnswer): string {
  const { embeddings, ...metadata } = answer.envelope.metadata;
  if (!isVectorList(embeddings)) return JSON.stringify(answer);
  const vectors = embeddings.map((vector) => {
    const bytes = new DataView(new ArrayBuffer(vector.length * 8));
    for (const [index, value] of vector.entries()) bytes.setFloat64(index * 8, value, true);
    return toBase64(new Uint8Array(bytes.buffer));
  });
  return JSON.stringify({ ...answer, envelope: { ...answer.envelope, metadata }, vectors });
}

/** The answer of an entry's text, its vectors put back in the envelope. */
export function answerOfEntry(text: string): CachedAnswer {
  const { vectors, ...answer } = JSON.parse(text) as CachedAnswer & { vectors?: unknown };
  if (!Array.isArray(vectors)) return answer;
  const embeddings = vectors.map((vector) => {
    const bytes = typeof vector === 'string' ? fromBase64(vector) : undefined;
    if (bytes === undefined || bytes.byteLength % 8 !== 0)
      throw new TypeError('A cache entry holds a bad vector.');
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    return Array.from({ length: bytes.byteLength / 8 }, (_, index) => view.getFloat64(index * 8, true));
  });
  return {
    ...answer,
    envelope: { ...answer.envelope, metadata: { ...answer.envelope.metadata, embeddings } },
  };
}

/** Whether a value is a list of lists of numbers (an embeddings answer's vectors). */
function isVectorList(value: unknown): value is number[][] {
  return (
    Array.isArray(value) &&
    value.every((vector) => Array.isArray(vector) && vector.every((item) => typeof item === 'number'))
  );
}

/** The UTF-8 length of a text. */
function byteLength(text: string): number {
  let bytes = text.length;
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    // Two bytes up to U+07FF, three for the rest of the BMP; a surrogate pair (four bytes) is two units of two.
    if (unit > 0x7f) bytes += unit > 0x7ff && (unit < 0xd800 || unit > 0xdfff) ? 2 : 1;
  }
  return bytes;
}

/**
 * Bytes an entry holds in memory, besides what the Map itself takes: the key and the text as JavaScript engines
 * keep strings (one byte per character when every character is Latin-1, else two), and the entry's record.
 */
export const ENTRY_OVERHEAD_BYTES = 128;

/** The memory an entry of `text` under `key` is counted for (docs/gateway.md, "Cache"). */
export function memoryBytesOf(key: string, text: string): number {
  return ENTRY_OVERHEAD_BYTES + stringBytes(key) + stringBytes(text);
}

/** Bytes a string takes in memory: one per character when all are Latin-1, two otherwise. */
function stringBytes(text: string): number {
  // Latin-1 only: no character past U+00FF.
  return /[\u0100-\uffff]/.test(text) ? text.length * 2 : text.length;
}
