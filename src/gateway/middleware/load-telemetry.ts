import type { Attributes, Histogram, Context as OtelContext, Span, Tracer } from '@opentelemetry/api';
import type { Context, MiddlewareHandler } from 'hono';
import { parseTraceparent, randomHex } from '../../unified/trace-id-from.js';
import type { UnifiedOutput } from '../../unified/types.js';
import type { Redactor } from '../basics/redact-secrets.js';
import { providerRouteOf } from '../basics/route-table.js';
import type { OtelSettings } from '../config/otel-settings.js';
import {
  OTEL_ATTRIBUTES as A,
  DEFAULT_HOST_OF_TYPE,
  OPERATION_OF_ROUTE,
  OTEL_EVENTS,
  OTEL_METRICS,
  OUTPUT_TYPE_OF_ROUTE,
  PROVIDER_NAME_OF_TYPE,
} from '../observability/otel-names.js';
import type { AttemptSpan, AttemptTarget, RequestTelemetry } from '../observability/request-telemetry.js';
import { traceHeaders } from '../pipeline/call-with-fallbacks.js';
import { type GatewayEnv, onAnswerEnd } from '../pipeline/gateway-env.js';

// The gateway's OpenTelemetry export (docs/gateway.md, "OpenTelemetry"). The SDK, the exporters and even the API
// are imported here only, with dynamic imports, and only once an endpoint is configured: a gateway without one
// never loads them. Only `import type` names OpenTelemetry at the top of this file.

/** The gateway's OpenTelemetry export, once loaded. */
export interface GatewayTelemetry {
  /** Begins the request's server span and ends every span of it once its answer has ended. */
  readonly middleware: MiddlewareHandler<GatewayEnv>;
  /** Export what is held now, waiting at most `deadlineMs`. */
  flush(deadlineMs?: number): Promise<void>;
  /** Export what is held and stop exporting. */
  shutdown(deadlineMs?: number): Promise<void>;
}

/** What the export needs from the gateway. */
export interface TelemetryOptions {
  /** Receives the warnings of failed exports as JSON lines, at most one a minute per signal. */
  log?: ((line: string) => void) | undefined;
}

/** Longest captured prompt or answer, in characters of its JSON: a longer one is cut (docs/gateway.md). */
export const MAX_CAPTURED_CHARS = 32 * 1024;

/** At most one warning a minute per signal for failed exports. */
const WARNING_INTERVAL_MS = 60_000;

/** Export requests of one signal in flight at once; past it an export fails at once instead of queueing. */
const EXPORTS_IN_FLIGHT = 2;

let loads = 0;

/** How many times the OpenTelemetry packages were loaded in this process (the off-by-default test reads it). */
export function telemetryLoads(): number {
  return loads;
}

/** The part of an OTLP exporter the export wraps: `export` reports each batch's outcome. */
interface ExporterLike<T> {
  export(items: T, done: (result: { code: number; error?: Error }) => void): void;
  shutdown(): Promise<void>;
  forceFlush?(): Promise<void>;
  selectAggregationTemporality?(type: never): unknown;
  selectAggregation?(type: never): unknown;
}

/**
 * The exporter with its failures reported through `warn`, at most once a minute with how many failed since:
 * an unreachable collector costs a log line a minute, and the batch is dropped, never kept for a retry.
 */
function watchFailures<T, E extends ExporterLike<T>>(
  exporter: E,
  warn: (failed: number, error?: Error) => void,
): E {
  let failed = 0;
  let lastWarning = Number.NEGATIVE_INFINITY;
  const { selectAggregationTemporality, selectAggregation } = exporter;
  const wrapped: ExporterLike<T> = {
    export: (items, done) =>
      exporter.export(items, (result) => {
        if (result.code !== 0) {
          failed++;
          const now = Date.now();
          if (now - lastWarning >= WARNING_INTERVAL_MS) {
            lastWarning = now;
            warn(failed, result.error);
            failed = 0;
          }
        }
        done(result);
      }),
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve(),
    // The metric reader asks the exporter which temporality and aggregation it wants.
    ...(selectAggregationTemporality === undefined
      ? {}
      : { selectAggregationTemporality: selectAggregationTemporality.bind(exporter) }),
    ...(selectAggregation === undefined ? {} : { selectAggregation: selectAggregation.bind(exporter) }),
  };
  return wrapped as E;
}

/** A URL without its credentials and query, for a warning. */
function shownUrl(url: string): string {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}`;
}

/** `text` cut to {@link MAX_CAPTURED_CHARS}. */
function bounded(text: string): string {
  return text.length <= MAX_CAPTURED_CHARS ? text : `${text.slice(0, MAX_CAPTURED_CHARS)}…`;
}

/** One message of content capture, in the conventions' parts form. */
interface CapturedMessage {
  role: string;
  parts: { type: string; content?: string }[];
  finish_reason?: string;
}

/** The parts of one request message's content: texts kept, other parts named by their type only. */
function partsOf(content: unknown): CapturedMessage['parts'] {
  if (typeof content === 'string') return [{ type: 'text', content }];
  if (!Array.isArray(content)) return [];
  return content.map((part: unknown) => {
    const { type, text } = (part ?? {}) as { type?: unknown; text?: unknown };
    return typeof text === 'string'
      ? { type: 'text', content: text }
      : { type: typeof type === 'string' ? type : 'unknown' };
  });
}

/** The request's prompt as messages: a text request's `messages`, or the `prompt`/`input`/`text` of the others. */
function inputMessagesOf(body: unknown): CapturedMessage[] {
  const { messages, prompt, input, text } = (body ?? {}) as Record<string, unknown>;
  if (Array.isArray(messages)) {
    return messages.map((message: unknown) => {
      const { role, content } = (message ?? {}) as { role?: unknown; content?: unknown };
      return { role: typeof role === 'string' ? role : 'user', parts: partsOf(content) };
    });
  }
  const single = [prompt, input, text].find((value) => typeof value === 'string');
  return single === undefined ? [] : [{ role: 'user', parts: partsOf(single) }];
}

/** A finite number, or `undefined`. */
function numberOf(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** The request parameters of a body, under the conventions' names. */
function requestParametersOf(body: unknown): Attributes {
  const b = (body ?? {}) as Record<string, unknown>;
  const stop = typeof b.stop === 'string' ? [b.stop] : Array.isArray(b.stop) ? b.stop : undefined;
  const attributes: Attributes = {
    [A.requestTemperature]: numberOf(b.temperature),
    [A.requestTopP]: numberOf(b.top_p),
    [A.requestTopK]: numberOf(b.top_k),
    [A.requestMaxTokens]: numberOf(b.max_tokens) ?? numberOf(b.max_output_tokens),
    [A.requestSeed]: numberOf(b.seed),
    [A.requestFrequencyPenalty]: numberOf(b.frequency_penalty),
    [A.requestPresencePenalty]: numberOf(b.presence_penalty),
    [A.requestChoiceCount]: numberOf(b.n),
    [A.requestStopSequences]: stop?.filter((item): item is string => typeof item === 'string'),
  };
  for (const key of Object.keys(attributes)) if (attributes[key] === undefined) delete attributes[key];
  return attributes;
}

/** The cost of an envelope in US dollars, when its metadata says it (`metadata.cost`). */
function costOf(envelope: UnifiedOutput): number | undefined {
  const cost = envelope.metadata.cost;
  if (typeof cost === 'number') return numberOf(cost);
  if (cost === null || typeof cost !== 'object') return undefined;
  const { total_usd: total, usd } = cost as { total_usd?: unknown; usd?: unknown };
  return numberOf(total) ?? numberOf(usd);
}

/** `server.address` and `server.port` of a target: its base URL's, or its provider's usual host. */
function serverOf(target: AttemptTarget): Attributes {
  const base = target.provider.baseURL;
  if (base === undefined) {
    const host = DEFAULT_HOST_OF_TYPE[target.provider.type];
    return host === undefined ? {} : { [A.serverAddress]: host };
  }
  try {
    const url = new URL(base);
    const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
    return { [A.serverAddress]: url.hostname, [A.serverPort]: port };
  } catch {
    return {};
  }
}

/** The trace context of a caller's valid `traceparent` whose trace id is the request's. */
function callerContextOf(
  header: string | undefined,
  traceId: string,
): { spanId: string; flags: number } | undefined {
  if (header === undefined || parseTraceparent(header) !== traceId) return undefined;
  const [, , spanId, flags] = header.trim().split('-');
  if (spanId === undefined || flags === undefined) return undefined;
  return { spanId, flags: Number.parseInt(flags.slice(0, 2), 16) };
}

/**
 * Now in epoch milliseconds with sub-millisecond precision, from one clock for every span: the SDK's own start
 * and end times add a per-span offset rounded to Date.now()'s millisecond, which can put a child's end after
 * its parent's.
 */
function clock(): number {
  return performance.timeOrigin + performance.now();
}

/** A W3C trace id the SDK accepts. */
const W3C_TRACE_ID = /^(?!0{32})[0-9a-f]{32}$/;

/**
 * Load the OpenTelemetry SDK and the OTLP/HTTP exporters of `settings.protocol`, and answer the gateway's
 * telemetry: a server span per request, a client span per provider attempt, and the GenAI metrics. Rejects when
 * the packages cannot be loaded (they are optional; docs/install.md).
 */
export async function loadTelemetry(
  settings: OtelSettings,
  options: TelemetryOptions = {},
): Promise<GatewayTelemetry> {
  loads++;
  const json = settings.protocol === 'http/json';
  const [api, traceBase, metricsSdk, resources, traceExport, metricExport] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/sdk-metrics'),
    import('@opentelemetry/resources'),
    json
      ? import('@opentelemetry/exporter-trace-otlp-http')
      : import('@opentelemetry/exporter-trace-otlp-proto'),
    json
      ? import('@opentelemetry/exporter-metrics-otlp-http')
      : import('@opentelemetry/exporter-metrics-otlp-proto'),
  ]);
  const { SpanKind, SpanStatusCode, ROOT_CONTEXT, trace } = api;
  const log = options.log ?? (() => undefined);
  const warnFor = (signal: 'traces' | 'metrics', url: string) => (failed: number, error?: Error) =>
    log(
      JSON.stringify({
        time: new Date().toISOString(),
        event: 'otel_export_failed',
        signal,
        endpoint: shownUrl(url),
        failed,
        error: (error?.message ?? 'export failed').slice(0, 200),
      }),
    );
  const resource = resources.resourceFromAttributes({
    ...settings.resourceAttributes,
    'service.name': settings.serviceName,
  });

  // Root spans take the gateway's own trace id, so that the id in `x-trace-id`, the envelope and the log line is
  // the one to search for in the tracing backend: the id generator hands out the id set just before the span.
  let nextTraceId: string | undefined;
  const idGenerator = {
    generateTraceId(): string {
      const id = nextTraceId ?? randomHex(16);
      nextTraceId = undefined;
      return id;
    },
    generateSpanId: () => randomHex(8),
  };
  let tracerProvider: InstanceType<typeof traceBase.BasicTracerProvider> | undefined;
  let tracer: Tracer | undefined;
  if (settings.tracesUrl !== undefined) {
    const exporter = watchFailures(
      new traceExport.OTLPTraceExporter({
        url: settings.tracesUrl,
        headers: { ...settings.tracesHeaders },
        timeoutMillis: settings.exportTimeoutMs,
        concurrencyLimit: EXPORTS_IN_FLIGHT,
      }),
      warnFor('traces', settings.tracesUrl),
    );
    tracerProvider = new traceBase.BasicTracerProvider({
      resource,
      idGenerator,
      spanProcessors: [
        new traceBase.BatchSpanProcessor(exporter, {
          maxQueueSize: settings.maxQueueSize,
          maxExportBatchSize: settings.maxExportBatchSize,
          scheduledDelayMillis: settings.scheduleDelayMs,
          exportTimeoutMillis: settings.exportTimeoutMs,
        }),
      ],
    });
    tracer = tracerProvider.getTracer('verdict-gateway');
  }
  let meterProvider: InstanceType<typeof metricsSdk.MeterProvider> | undefined;
  let histograms: Record<keyof typeof OTEL_METRICS, Histogram> | undefined;
  if (settings.metricsUrl !== undefined) {
    const exporter = watchFailures(
      new metricExport.OTLPMetricExporter({
        url: settings.metricsUrl,
        headers: { ...settings.metricsHeaders },
        timeoutMillis: settings.exportTimeoutMs,
        concurrencyLimit: EXPORTS_IN_FLIGHT,
      }),
      warnFor('metrics', settings.metricsUrl),
    );
    meterProvider = new metricsSdk.MeterProvider({
      resource,
      readers: [
        new metricsSdk.PeriodicExportingMetricReader({
          exporter,
          exportIntervalMillis: settings.metricIntervalMs,
          exportTimeoutMillis: Math.min(settings.exportTimeoutMs, settings.metricIntervalMs),
        }),
      ],
    });
    const meter = meterProvider.getMeter('verdict-gateway');
    const histogram = (spec: (typeof OTEL_METRICS)[keyof typeof OTEL_METRICS]) =>
      meter.createHistogram(spec.name, {
        unit: spec.unit,
        description: spec.description,
        advice: { explicitBucketBoundaries: [...spec.buckets] },
      });
    histograms = {
      operationDuration: histogram(OTEL_METRICS.operationDuration),
      tokenUsage: histogram(OTEL_METRICS.tokenUsage),
      timeToFirstChunk: histogram(OTEL_METRICS.timeToFirstChunk),
      timeToFirstToken: histogram(OTEL_METRICS.timeToFirstToken),
    };
  }
  const latest = settings.latestConventions;
  const firstTokenHistogram = latest ? histograms?.timeToFirstChunk : histograms?.timeToFirstToken;

  /** One provider attempt in flight. */
  interface Attempt {
    span: Span | undefined;
    startedAt: number;
    metricAttributes: Attributes;
    ended: boolean;
  }

  /** The spans and measurements of one request. */
  function startRequest(c: Context<GatewayEnv>): RequestTelemetry & { end(): void } {
    const traceId = c.get('traceId');
    const caller = callerContextOf(c.req.header('traceparent'), traceId);
    const parent =
      caller === undefined
        ? ROOT_CONTEXT
        : trace.setSpanContext(ROOT_CONTEXT, {
            traceId,
            spanId: caller.spanId,
            traceFlags: caller.flags,
            isRemote: true,
          });
    if (caller === undefined && W3C_TRACE_ID.test(traceId)) nextTraceId = traceId;
    const server = tracer?.startSpan(
      c.req.method,
      {
        kind: SpanKind.SERVER,
        attributes: { [A.httpMethod]: c.req.method, [A.traceId]: traceId },
        startTime: clock(),
      },
      parent,
    );
    nextTraceId = undefined;
    const context: OtelContext = server === undefined ? parent : trace.setSpan(parent, server);
    let current: Attempt | undefined;
    let captured: string | undefined;
    const redactor = (): Redactor | undefined => c.get('redactor');
    const body = (): unknown => (c.req.valid as (target: 'json') => unknown)('json');
    const capture = (value: unknown) =>
      bounded(redactor()?.redact(JSON.stringify(value)) ?? JSON.stringify(value));

    const endAttempt = (attempt: Attempt, envelope: UnifiedOutput | undefined, code: string) => {
      if (attempt.ended) return;
      attempt.ended = true;
      const { span } = attempt;
      const measured: Attributes = { ...attempt.metricAttributes };
      if (envelope?.success === true && code === 'ok') {
        const { metadata, usage } = envelope;
        const reported = metadata.usage_reported !== false;
        const details = metadata.usage_details ?? {};
        const cacheRead = details.cached_input_tokens ?? details.cache_read_input_tokens;
        const cacheCreation = details.cache_creation_input_tokens;
        const cost = costOf(envelope);
        const response: Attributes = {
          [A.responseModel]: typeof metadata.model === 'string' ? metadata.model : undefined,
          [A.responseId]: typeof metadata.response_id === 'string' ? metadata.response_id : undefined,
          [A.responseFinishReasons]:
            metadata.finish_reason === undefined ? undefined : [metadata.finish_reason],
          [A.inputTokens]: reported ? usage.input_tokens : undefined,
          [A.outputTokens]: reported ? usage.output_tokens : undefined,
          [A.cacheReadInputTokens]: reported ? cacheRead : undefined,
          [A.cacheCreationInputTokens]: reported ? cacheCreation : undefined,
          [A.costUsd]: cost,
        };
        for (const key of Object.keys(response)) if (response[key] === undefined) delete response[key];
        span?.setAttributes(response);
        if (typeof metadata.model === 'string') measured[A.responseModel] = metadata.model;
        if (reported && histograms !== undefined) {
          histograms.tokenUsage.record(usage.input_tokens, { ...measured, [A.tokenType]: 'input' });
          histograms.tokenUsage.record(usage.output_tokens, { ...measured, [A.tokenType]: 'output' });
        }
        if (settings.captureContent && span !== undefined) {
          const output = capture([
            {
              role: 'assistant',
              parts: [{ type: 'text', content: envelope.content }],
              ...(metadata.finish_reason === undefined ? {} : { finish_reason: metadata.finish_reason }),
            } satisfies CapturedMessage,
          ]);
          if (latest) span.setAttribute(A.outputMessages, output);
          else span.addEvent(OTEL_EVENTS.completion, { [OTEL_EVENTS.completionAttribute]: output });
        }
      } else {
        span?.setAttribute(A.errorType, code);
        span?.setStatus({ code: SpanStatusCode.ERROR, message: code });
        measured[A.errorType] = code;
      }
      const now = clock();
      histograms?.operationDuration.record((now - attempt.startedAt) / 1000, measured);
      span?.end(now);
    };

    return {
      startAttempt(target: AttemptTarget, number: number): AttemptSpan {
        const route = providerRouteOf(c.get('facts')?.route ?? '') ?? 'text';
        const operation = OPERATION_OF_ROUTE[route] ?? 'generate_content';
        const provider = PROVIDER_NAME_OF_TYPE[target.provider.type] ?? target.provider.type;
        const server = serverOf(target);
        const metricAttributes: Attributes = {
          [A.operationName]: operation,
          [A.providerName]: provider,
          ...(latest ? {} : { [A.system]: provider }),
          [A.requestModel]: target.modelId,
          ...server,
        };
        const startedAt = clock();
        const span = tracer?.startSpan(
          `${operation} ${target.modelId}`,
          {
            kind: SpanKind.CLIENT,
            attributes: {
              ...metricAttributes,
              ...requestParametersOf(body()),
              [A.outputType]: OUTPUT_TYPE_OF_ROUTE[route] ?? 'text',
              [A.traceId]: traceId,
              [A.target]: target.label,
              [A.attempt]: number,
            },
            startTime: startedAt,
          },
          context,
        );
        if (settings.captureContent && span?.isRecording()) {
          captured ??= capture(inputMessagesOf(body()));
          if (latest) span.setAttribute(A.inputMessages, captured);
          else span.addEvent(OTEL_EVENTS.prompt, { [OTEL_EVENTS.promptAttribute]: captured });
        }
        const attempt: Attempt = { span, startedAt, metricAttributes, ended: false };
        current = attempt;
        const spanContext = span?.spanContext();
        // Without a span (metrics only) the provider still gets the caller's trace flags, as with tracing off.
        const headers = traceHeaders(traceId, caller?.flags.toString(16).padStart(2, '0'));
        if (spanContext !== undefined && trace.isSpanContextValid(spanContext)) {
          const flags = spanContext.traceFlags.toString(16).padStart(2, '0');
          headers.traceparent = `00-${spanContext.traceId}-${spanContext.spanId}-${flags}`;
        }
        return {
          headers,
          fail: (failure) => endAttempt(attempt, undefined, failure.success ? 'ok' : failure.error.code),
        };
      },
      firstToken() {
        if (current === undefined || current.ended) return;
        const seconds = (clock() - current.startedAt) / 1000;
        current.span?.setAttribute(A.timeToFirstTokenS, seconds);
        firstTokenHistogram?.record(seconds, current.metricAttributes);
      },
      end() {
        const facts = c.get('facts');
        const status = facts?.code === 'client_closed' ? 499 : c.res.status;
        const code = facts?.code ?? (status < 400 ? 'ok' : 'INTERNAL_ERROR');
        if (current !== undefined) endAttempt(current, facts?.envelope, code);
        if (server === undefined) return;
        const route = facts?.route ?? 'other';
        server.updateName(`${c.req.method} ${route}`);
        server.setAttributes({
          [A.httpRoute]: route,
          [A.httpStatus]: status,
          [A.attempts]: facts?.attempts ?? 0,
        });
        if (facts?.target !== undefined) server.setAttribute(A.target, facts.target);
        if (facts?.key !== undefined) server.setAttribute(A.keyName, facts.key);
        if (code !== 'ok') server.setAttribute(A.errorType, code);
        // An HTTP server span is an error when the gateway failed (5xx), not when the client's request did.
        if (status >= 500) server.setStatus({ code: SpanStatusCode.ERROR, message: code });
        server.end(clock());
      },
    };
  }

  const settle = async (work: Promise<unknown>[], deadlineMs: number) => {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, deadlineMs);
      timer.unref?.();
    });
    await Promise.race([Promise.allSettled(work), deadline]);
    clearTimeout(timer);
  };

  return {
    middleware: async (c, next) => {
      const request = startRequest(c);
      c.set('telemetry', request);
      try {
        await next();
      } finally {
        onAnswerEnd(c.get('facts'), () => request.end());
      }
    },
    flush: (deadlineMs = 5000) =>
      settle(
        [tracerProvider?.forceFlush(), meterProvider?.forceFlush()].filter((work) => work !== undefined),
        deadlineMs,
      ),
    shutdown: (deadlineMs = 5000) =>
      settle(
        [tracerProvider?.shutdown(), meterProvider?.shutdown()].filter((work) => work !== undefined),
        deadlineMs,
      ),
  };
}
