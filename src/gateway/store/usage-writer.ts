import { sleep } from '../../sleep.js';
import type { GatewayStore } from './open-store.js';

/** One request as the usage record keeps it: who, what, how it ended and how much; never prompts or outputs. */
export interface UsageRecord {
  /** Unique per request (not the trace id, which a client may repeat): a retried batch writes a record once. */
  request_id: string;
  /** When the request arrived (ISO 8601). */
  time: string;
  /** The request's trace id. */
  trace_id: string;
  /** The key's name (`static`, `admin` or a stored key's), or `null` when no key was accepted. */
  key_name: string | null;
  /** The route template (`/v1/text`). */
  route: string;
  /** The client surface that answered: `verdict`, or a drop-in API's (`openai`, `anthropic`). */
  surface: string;
  /** The envelope's provider. */
  provider: string | null;
  /** The model that answered. */
  model: string | null;
  /** The `provider:model` target that answered. */
  target: string | null;
  /** Provider requests made. */
  attempts: number;
  /** HTTP status served. */
  status: number;
  /** `ok` or the failure's code. */
  code: string;
  /** Time to answer, in milliseconds (to the end of the stream for a streamed answer). */
  latency_ms: number;
  /** Input tokens of a success. */
  input_tokens: number;
  /** Output tokens of a success. */
  output_tokens: number;
  /** Dollars the request cost (0 when no provider billed it); `null` when it could not be priced (docs/gateway.md, "Prices"). */
  cost_usd: number | null;
  /** Why the request has no price (`unknown_price`…); `null` when it has one. */
  cost_reason: string | null;
  /** `hit` when the response cache answered (no provider call, no tokens), `miss`, `bypass`, or `null` without a cache. */
  cache?: string | null | undefined;
  /** Dollars a cache hit saved (what the answer it replayed cost when it was made); `null` for other requests. */
  cost_saved_usd?: number | null | undefined;
}

/** How the writer batches and retries. */
export interface UsageWriterOptions {
  /** Records waiting at most; beyond it a record is dropped, counted and logged (default 10 000). */
  maxQueue?: number | undefined;
  /** Records per statement (default 500). */
  batchSize?: number | undefined;
  /** Longest wait between two tries of a failed batch, in milliseconds (default 30 000). */
  maxBackoffMs?: number | undefined;
  /** Told once per dropped run of records, with how many so far. */
  onDrop?: ((dropped: number, reason: string) => void) | undefined;
  /** Told when a batch fails (it is kept and tried again). */
  onError?: ((error: Error) => void) | undefined;
  /** Told about each record the store refuses for its content (it is set aside, the rest are written). */
  onPark?: ((record: UsageRecord, error: Error) => void) | undefined;
}

/** Counts for `/metrics`. */
export interface UsageWriterStats {
  /** Records written. */
  written: number;
  /** Records dropped (queue full, or left when a shutdown's flush gave up). */
  dropped: number;
  /** Batches that failed and were tried again. */
  failedBatches: number;
  /** Records the store refused for their content, set aside so the rest are written. */
  parked: number;
  /** Records waiting now. */
  queued: number;
}

const COLUMNS = [
  'request_id',
  'time',
  'trace_id',
  'key_name',
  'route',
  'surface',
  'provider',
  'model',
  'target',
  'attempts',
  'status',
  'code',
  'latency_ms',
  'input_tokens',
  'output_tokens',
  'cost_usd',
  'cost_reason',
  'cache',
  'cost_saved_usd',
] as const;

// One statement per batch whatever its size: every column travels as one array parameter.
const INSERT_BATCH = `INSERT INTO verdict_usage (${COLUMNS.join(', ')})
  SELECT * FROM unnest($1::text[], $2::timestamptz[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
    $8::text[], $9::text[], $10::integer[], $11::integer[], $12::text[], $13::integer[], $14::bigint[],
    $15::bigint[], $16::double precision[], $17::text[], $18::text[], $19::double precision[])
  ON CONFLICT (request_id) DO NOTHING`;

/** Failures in a row after which the writer counts as stuck (`/healthz` says so). */
export const STUCK_AFTER_FAILURES = 3;

/**
 * Writes usage records in batches, off the request's path: `add` only queues. One batch is in flight at a time;
 * a failed batch stays at the head of the queue and is tried again with a growing pause, so a store that is
 * down for a while loses nothing until the queue is full — and then every dropped record is counted. A batch the
 * store refuses for its data (a PostgreSQL data exception, such as a NUL in text) is split until the records at
 * fault are found: those are set aside (parked) and the rest written, so one bad record never blocks the queue.
 */
export class UsageWriter {
  private readonly queue: UsageRecord[] = [];
  private readonly maxQueue: number;
  private readonly batchSize: number;
  private readonly maxBackoffMs: number;
  private readonly options: UsageWriterOptions;
  private running: Promise<void> | undefined;
  private backoffMs = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private wakeRetry: (() => void) | undefined;
  private stopping = false;
  /** Counts for `/metrics`. */
  readonly stats: UsageWriterStats = { written: 0, dropped: 0, failedBatches: 0, parked: 0, queued: 0 };
  /** Failures in a row of the batch at the head of the queue. */
  private failuresInRow = 0;

  constructor(
    private readonly store: GatewayStore,
    options: UsageWriterOptions = {},
  ) {
    this.options = options;
    this.maxQueue = options.maxQueue ?? 10_000;
    this.batchSize = options.batchSize ?? 500;
    this.maxBackoffMs = options.maxBackoffMs ?? 30_000;
  }

  /** Queue one record; answers `false` when the queue is full and the record was dropped. */
  add(record: UsageRecord): boolean {
    if (this.queue.length >= this.maxQueue) {
      this.stats.dropped++;
      this.options.onDrop?.(this.stats.dropped, 'queue full');
      return false;
    }
    this.queue.push(record);
    this.stats.queued = this.queue.length;
    this.running ??= this.drain();
    return true;
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.slice(0, this.batchSize);
        try {
          await this.writeIsolating(batch);
          this.queue.splice(0, batch.length);
          this.stats.queued = this.queue.length;
          this.backoffMs = 0;
          this.failuresInRow = 0;
        } catch (error) {
          this.stats.failedBatches++;
          // A store that cannot be reached is down, which health says already; stuck is a store that answers
          // and refuses the records.
          this.failuresInRow = refusedByStore(error) ? this.failuresInRow + 1 : 0;
          this.options.onError?.(error instanceof Error ? error : new Error(String(error)));
          if (this.stopping) return;
          this.backoffMs = Math.min(this.maxBackoffMs, this.backoffMs === 0 ? 250 : this.backoffMs * 2);
          await new Promise<void>((resolve) => {
            this.wakeRetry = resolve;
            this.timer = setTimeout(resolve, this.backoffMs);
            (this.timer as { unref?: () => void }).unref?.();
          });
          this.wakeRetry = undefined;
        }
      }
    } finally {
      this.running = undefined;
    }
  }

  /**
   * True when the store answered and refused the batch at the head of the queue several times in a row: usage is
   * not being recorded although the store is up.
   */
  get stuck(): boolean {
    return this.failuresInRow >= STUCK_AFTER_FAILURES && this.queue.length > 0;
  }

  /** Write `batch`; when the store refuses it for its data, write the halves apart and park the records at fault. */
  private async writeIsolating(batch: readonly UsageRecord[]): Promise<void> {
    try {
      await this.store.query(
        INSERT_BATCH,
        COLUMNS.map((column) => batch.map((record) => record[column] ?? null)),
      );
      this.stats.written += batch.length;
    } catch (error) {
      if (!isDataException(error)) throw error;
      const [record] = batch;
      if (batch.length === 1 && record !== undefined) {
        this.stats.parked++;
        this.options.onPark?.(record, error instanceof Error ? error : new Error(String(error)));
        return;
      }
      const half = Math.ceil(batch.length / 2);
      await this.writeIsolating(batch.slice(0, half));
      await this.writeIsolating(batch.slice(half));
    }
  }

  /**
   * Write what is queued, trying failed batches again without pausing, until the queue is empty or `deadlineMs`
   * has passed; what is left then is dropped and counted. Answers how many records were dropped.
   */
  async flush(deadlineMs = 5000): Promise<number> {
    const ends = Date.now() + deadlineMs;
    for (let round = 0; this.queue.length > 0 && Date.now() < ends && round < 10_000; round++) {
      clearTimeout(this.timer);
      this.wakeRetry?.();
      this.running ??= this.drain();
      this.stopping = true;
      const left = Math.max(1, ends - Date.now());
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        this.running,
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, left);
        }),
      ]);
      clearTimeout(timer);
      this.stopping = false;
      // A store that refuses at once would make this loop spin: pause a little between failed rounds.
      if (this.queue.length > 0 && Date.now() < ends) {
        await sleep(Math.min(100, Math.max(0, ends - Date.now())));
      }
    }
    const left = this.queue.length;
    if (left > 0) {
      this.queue.length = 0;
      this.stats.queued = 0;
      this.stats.dropped += left;
      this.options.onDrop?.(this.stats.dropped, 'store unreachable at shutdown');
    }
    return left;
  }
}

/**
 * True for a PostgreSQL data exception (SQLSTATE class 22: a NUL or bad encoding in text, a number out of range)
 * or an integrity constraint violation (class 23: a required value missing, a check failed): the records are at
 * fault, not the store, and trying them again can never succeed.
 */
function isDataException(error: unknown): boolean {
  const state = sqlStateOf(error);
  return state?.startsWith('22') === true || state?.startsWith('23') === true;
}

/**
 * True when the server answered and refused the statement: a SQLSTATE other than a connection exception (class
 * 08) or an operator's intervention such as a shutdown (class 57).
 */
function refusedByStore(error: unknown): boolean {
  const state = sqlStateOf(error);
  return state !== undefined && !state.startsWith('08') && !state.startsWith('57');
}

/** The PostgreSQL SQLSTATE an error or one of its causes carries. */
function sqlStateOf(error: unknown): string | undefined {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 4; depth++) {
    const code = (cause as { code?: unknown }).code;
    // Five characters with a digit: a SQLSTATE, not one of Node's errno codes (EPIPE).
    if (typeof code === 'string' && /^(?=.*[0-9])[0-9A-Z]{5}$/.test(code)) return code;
    cause = cause.cause;
  }
  return undefined;
}
