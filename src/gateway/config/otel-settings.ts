import { LATEST_GEN_AI } from '../observability/otel-names.js';

// Where and how the gateway exports OpenTelemetry data, read from the standard OTEL_* variables and the config
// file's `otel` section (docs/gateway.md, "OpenTelemetry"). Pure: nothing OpenTelemetry is imported here, so a
// gateway without an endpoint reads these few variables and loads nothing else.

/** The OTLP/HTTP encodings the gateway exports in. */
export const OTLP_PROTOCOLS = ['http/protobuf', 'http/json'] as const;

/** One of {@link OTLP_PROTOCOLS}. */
export type OtlpProtocol = (typeof OTLP_PROTOCOLS)[number];

/** The config file's `otel` section; each member wins over its environment variable. */
export interface OtelConfig {
  /** Base URL of the collector's OTLP/HTTP receiver (`/v1/traces` and `/v1/metrics` are appended). */
  endpoint?: string | undefined;
  /** Full URL traces are posted to, over `endpoint`. */
  tracesEndpoint?: string | undefined;
  /** Full URL metrics are posted to, over `endpoint`. */
  metricsEndpoint?: string | undefined;
  /** `http/protobuf` (the default) or `http/json`. */
  protocol?: OtlpProtocol | undefined;
  /** Headers sent with every export (a collector's key, say). */
  headers?: Record<string, string> | undefined;
  /** `service.name` of the exported resource (default `verdict-gateway`). */
  serviceName?: string | undefined;
  /** More resource attributes (`deployment.environment.name`…). */
  resourceAttributes?: Record<string, string> | undefined;
  /** Put prompts and answers on the spans, redacted as log lines are (off by default). */
  captureContent?: boolean | undefined;
  /** Emit the latest experimental GenAI names only, as `OTEL_SEMCONV_STABILITY_OPT_IN=gen_ai_latest_experimental`. */
  latestConventions?: boolean | undefined;
}

/** What the exporters are built from; `undefined` settings mean OpenTelemetry is off. */
export interface OtelSettings {
  /** Where spans are posted; absent when traces are off. */
  readonly tracesUrl?: string | undefined;
  /** Where metrics are posted; absent when metrics are off. */
  readonly metricsUrl?: string | undefined;
  /** The encoding of both. */
  readonly protocol: OtlpProtocol;
  /** Headers of the span exports. */
  readonly tracesHeaders: Readonly<Record<string, string>>;
  /** Headers of the metric exports. */
  readonly metricsHeaders: Readonly<Record<string, string>>;
  /** `service.name`. */
  readonly serviceName: string;
  /** The other resource attributes. */
  readonly resourceAttributes: Readonly<Record<string, string>>;
  /** Prompts and answers on the spans. */
  readonly captureContent: boolean;
  /** The latest experimental GenAI names instead of the v1.36 ones. */
  readonly latestConventions: boolean;
  /** Most finished spans held for export; past it new spans are dropped, never queued. */
  readonly maxQueueSize: number;
  /** Most spans per export request. */
  readonly maxExportBatchSize: number;
  /** Milliseconds between two span exports. */
  readonly scheduleDelayMs: number;
  /** Longest wait for one export request, in milliseconds. */
  readonly exportTimeoutMs: number;
  /** Milliseconds between two metric exports. */
  readonly metricIntervalMs: number;
}

/** The settings, `undefined` when no endpoint is configured, or the problems that make them unusable. */
export type OtelSettingsRead =
  | { ok: true; settings: OtelSettings | undefined }
  | { ok: false; problems: string[] };

/** `k=v,k2=v2` with percent-encoded values (the OTLP header and resource-attribute lists). */
function parseList(value: string | undefined, name: string, problems: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of (value ?? '').split(',')) {
    if (item.trim() === '') continue;
    const equals = item.indexOf('=');
    const key = item.slice(0, equals).trim();
    if (equals <= 0 || key === '') {
      problems.push(`${name}: "${item.trim().slice(0, 40)}" is not key=value.`);
      continue;
    }
    try {
      out[key] = decodeURIComponent(item.slice(equals + 1).trim());
    } catch {
      problems.push(`${name}: the value of "${key.slice(0, 40)}" is not valid percent-encoding.`);
    }
  }
  return out;
}

/** A URL when `value` is an http(s) one, else a problem. */
function checkUrl(value: string | undefined, name: string, problems: string[]): string | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  try {
    const url = new URL(value.trim());
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.href;
  } catch {
    // Reported below.
  }
  problems.push(`${name} must be an http:// or https:// URL.`);
  return undefined;
}

/** The signal URL under a base endpoint, as the OTLP exporter specification builds it. */
function signalUrl(base: string, signal: 'traces' | 'metrics'): string {
  return `${base.endsWith('/') ? base : `${base}/`}v1/${signal}`;
}

/** A positive integer variable, or its default. */
function positiveOf(value: string | undefined, fallback: number, name: string, problems: string[]): number {
  if (value === undefined || value.trim() === '') return fallback;
  const number = Number(value);
  if (Number.isInteger(number) && number > 0) return number;
  problems.push(`${name} must be a positive integer.`);
  return fallback;
}

/**
 * Read the OpenTelemetry settings from `config` (the config file's `otel` section, or the CLI's flags) over
 * `env` (the standard OTEL_* variables). Never throws: a bad value is a problem in the answer.
 */
export function readOtelSettings(
  config: OtelConfig | undefined,
  env: Readonly<Record<string, string | undefined>>,
): OtelSettingsRead {
  const problems: string[] = [];
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true' && config === undefined) {
    return { ok: true, settings: undefined };
  }
  const base = checkUrl(config?.endpoint ?? env.OTEL_EXPORTER_OTLP_ENDPOINT, 'The OTLP endpoint', problems);
  const tracesOff = env.OTEL_TRACES_EXPORTER?.trim() === 'none';
  const metricsOff = env.OTEL_METRICS_EXPORTER?.trim() === 'none';
  const tracesUrl = tracesOff
    ? undefined
    : (checkUrl(
        config?.tracesEndpoint ?? env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT,
        'The OTLP traces endpoint',
        problems,
      ) ?? (base === undefined ? undefined : signalUrl(base, 'traces')));
  const metricsUrl = metricsOff
    ? undefined
    : (checkUrl(
        config?.metricsEndpoint ?? env.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT,
        'The OTLP metrics endpoint',
        problems,
      ) ?? (base === undefined ? undefined : signalUrl(base, 'metrics')));
  const protocol = config?.protocol ?? env.OTEL_EXPORTER_OTLP_PROTOCOL?.trim() ?? 'http/protobuf';
  if (!(OTLP_PROTOCOLS as readonly string[]).includes(protocol)) {
    problems.push(
      `OTEL_EXPORTER_OTLP_PROTOCOL "${protocol.slice(0, 40)}" is not supported; use http/protobuf or http/json.`,
    );
  }
  const headers =
    config?.headers ?? parseList(env.OTEL_EXPORTER_OTLP_HEADERS, 'OTEL_EXPORTER_OTLP_HEADERS', problems);
  const tracesHeaders = {
    ...headers,
    ...parseList(env.OTEL_EXPORTER_OTLP_TRACES_HEADERS, 'OTEL_EXPORTER_OTLP_TRACES_HEADERS', problems),
  };
  const metricsHeaders = {
    ...headers,
    ...parseList(env.OTEL_EXPORTER_OTLP_METRICS_HEADERS, 'OTEL_EXPORTER_OTLP_METRICS_HEADERS', problems),
  };
  const resourceAttributes = {
    ...parseList(env.OTEL_RESOURCE_ATTRIBUTES, 'OTEL_RESOURCE_ATTRIBUTES', problems),
    ...config?.resourceAttributes,
  };
  const serviceName =
    config?.serviceName ??
    (env.OTEL_SERVICE_NAME?.trim() || undefined) ??
    resourceAttributes['service.name'] ??
    'verdict-gateway';
  const optIn = (env.OTEL_SEMCONV_STABILITY_OPT_IN ?? '').split(',').map((item) => item.trim());
  const settings: OtelSettings = {
    tracesUrl,
    metricsUrl,
    protocol: protocol as OtlpProtocol,
    tracesHeaders,
    metricsHeaders,
    serviceName,
    resourceAttributes,
    captureContent:
      config?.captureContent ??
      env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT?.trim().toLowerCase() === 'true',
    latestConventions: config?.latestConventions ?? optIn.includes(LATEST_GEN_AI),
    maxQueueSize: positiveOf(env.OTEL_BSP_MAX_QUEUE_SIZE, 2048, 'OTEL_BSP_MAX_QUEUE_SIZE', problems),
    maxExportBatchSize: positiveOf(
      env.OTEL_BSP_MAX_EXPORT_BATCH_SIZE,
      512,
      'OTEL_BSP_MAX_EXPORT_BATCH_SIZE',
      problems,
    ),
    scheduleDelayMs: positiveOf(env.OTEL_BSP_SCHEDULE_DELAY, 5000, 'OTEL_BSP_SCHEDULE_DELAY', problems),
    exportTimeoutMs: positiveOf(
      env.OTEL_EXPORTER_OTLP_TIMEOUT,
      10_000,
      'OTEL_EXPORTER_OTLP_TIMEOUT',
      problems,
    ),
    metricIntervalMs: positiveOf(
      env.OTEL_METRIC_EXPORT_INTERVAL,
      60_000,
      'OTEL_METRIC_EXPORT_INTERVAL',
      problems,
    ),
  };
  if (problems.length > 0) return { ok: false, problems };
  if (tracesUrl === undefined && metricsUrl === undefined) return { ok: true, settings: undefined };
  // A batch larger than the queue could never fill: the SDK refuses it.
  if (settings.maxExportBatchSize > settings.maxQueueSize) {
    return { ok: true, settings: { ...settings, maxExportBatchSize: settings.maxQueueSize } };
  }
  return { ok: true, settings };
}
