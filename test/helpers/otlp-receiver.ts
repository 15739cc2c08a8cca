/**
 * An OTLP/HTTP receiver on 127.0.0.1 for the gateway's OpenTelemetry tests: it takes `POST /v1/traces` and
 * `POST /v1/metrics` in either encoding (`application/x-protobuf` or `application/json`), decodes them into one
 * shape and keeps what it received.
 *
 *   const receiver = await startOtlpReceiver();
 *   ... OTEL_EXPORTER_OTLP_ENDPOINT = receiver.url ...
 *   receiver.spans       // every span received, decoded
 *   receiver.metrics     // every metric received, decoded
 *   receiver.hold()      // keep answers back until the returned function is called (a stalled collector)
 *
 * The protobuf reader below covers the fields of the OTLP trace and metric messages the tests read
 * (opentelemetry-proto: trace/v1/trace.proto, metrics/v1/metrics.proto, common/v1/common.proto).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One decoded span. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** 1 internal, 2 server, 3 client (the OTLP `SpanKind` numbers). */
  kind: number;
  start: bigint;
  end: bigint;
  attributes: Record<string, unknown>;
  events: { name: string; attributes: Record<string, unknown> }[];
  /** 0 unset, 1 ok, 2 error. */
  status: { code: number; message: string };
  resource: Record<string, unknown>;
}

/** One decoded histogram point. */
export interface ReceivedPoint {
  attributes: Record<string, unknown>;
  count: number;
  sum: number;
  bounds: number[];
}

/** One decoded metric. */
export interface ReceivedMetric {
  name: string;
  unit: string;
  points: ReceivedPoint[];
}

/** A running receiver. */
export interface OtlpReceiver {
  /** `http://127.0.0.1:PORT` (the OTLP base endpoint). */
  url: string;
  spans: ReceivedSpan[];
  metrics: ReceivedMetric[];
  /** Every export request: its path, content type and headers. */
  requests: { path: string; contentType: string; headers: Record<string, string | string[] | undefined> }[];
  /** Hold every answer until the returned function is called. */
  hold(): () => void;
  close(): Promise<void>;
}

/** A small protobuf reader: varints, fixed 32/64-bit values and length-delimited fields. */
class Reader {
  pos = 0;
  constructor(private readonly buf: Uint8Array) {}
  atEnd(): boolean {
    return this.pos >= this.buf.length;
  }
  varint(): bigint {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      const byte = this.buf[this.pos++];
      if (byte === undefined) throw new Error('Truncated varint.');
      result |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return result;
      shift += 7n;
    }
  }
  tag(): { field: number; wire: number } {
    const tag = Number(this.varint());
    return { field: tag >>> 3, wire: tag & 7 };
  }
  bytes(): Uint8Array {
    const length = Number(this.varint());
    const out = this.buf.subarray(this.pos, this.pos + length);
    this.pos += length;
    return out;
  }
  string(): string {
    return new TextDecoder().decode(this.bytes());
  }
  fixed64(): bigint {
    const view = new DataView(this.buf.buffer, this.buf.byteOffset + this.pos, 8);
    this.pos += 8;
    return view.getBigUint64(0, true);
  }
  double(): number {
    const view = new DataView(this.buf.buffer, this.buf.byteOffset + this.pos, 8);
    this.pos += 8;
    return view.getFloat64(0, true);
  }
  skip(wire: number): void {
    if (wire === 0) this.varint();
    else if (wire === 1) this.pos += 8;
    else if (wire === 2) this.bytes();
    else if (wire === 5) this.pos += 4;
    else throw new Error(`Unknown wire type ${wire}.`);
  }
  /** Each field of this message, handed to `read` with the reader positioned on its value. */
  fields(read: (field: number, wire: number) => boolean | undefined): void {
    while (!this.atEnd()) {
      const { field, wire } = this.tag();
      if (read(field, wire) !== true) this.skip(wire);
    }
  }
}

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

/** An `AnyValue`. */
function anyValue(buf: Uint8Array): unknown {
  const reader = new Reader(buf);
  let value: unknown;
  reader.fields((field) => {
    if (field === 1) value = reader.string();
    else if (field === 2) value = reader.varint() !== 0n;
    else if (field === 3) value = Number(BigInt.asIntN(64, reader.varint()));
    else if (field === 4) value = reader.double();
    else if (field === 5) {
      const values: unknown[] = [];
      const array = new Reader(reader.bytes());
      array.fields((inner) => {
        if (inner !== 1) return false;
        values.push(anyValue(array.bytes()));
        return true;
      });
      value = values;
    } else return false;
    return true;
  });
  return value;
}

/** A `KeyValue` into `into`. */
function keyValue(buf: Uint8Array, into: Record<string, unknown>): void {
  const reader = new Reader(buf);
  let key = '';
  let value: unknown;
  reader.fields((field) => {
    if (field === 1) key = reader.string();
    else if (field === 2) value = anyValue(reader.bytes());
    else return false;
    return true;
  });
  into[key] = value;
}

/** The attributes (field 1) of a `Resource`. */
function resourceOf(buf: Uint8Array): Record<string, unknown> {
  const reader = new Reader(buf);
  const attributes: Record<string, unknown> = {};
  reader.fields((field) => {
    if (field !== 1) return false;
    keyValue(reader.bytes(), attributes);
    return true;
  });
  return attributes;
}

/** Each `ResourceX` (field 1 of the request) with its resource and the payloads of its scopes. */
function eachScoped(
  buf: Uint8Array,
  each: (item: Uint8Array, resource: Record<string, unknown>) => void,
): void {
  const request = new Reader(buf);
  request.fields((field) => {
    if (field !== 1) return false;
    const resourceItems = new Reader(request.bytes());
    let resource: Record<string, unknown> = {};
    const scopes: Uint8Array[] = [];
    resourceItems.fields((inner) => {
      if (inner === 1) resource = resourceOf(resourceItems.bytes());
      else if (inner === 2) scopes.push(resourceItems.bytes());
      else return false;
      return true;
    });
    for (const scope of scopes) {
      const scoped = new Reader(scope);
      scoped.fields((inner) => {
        if (inner !== 2) return false;
        each(scoped.bytes(), resource);
        return true;
      });
    }
    return true;
  });
}

/** The spans of an `ExportTraceServiceRequest`. */
export function decodeTraceProtobuf(buf: Uint8Array): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  eachScoped(buf, (item, resource) => {
    const reader = new Reader(item);
    const span: ReceivedSpan = {
      traceId: '',
      spanId: '',
      parentSpanId: '',
      name: '',
      kind: 0,
      start: 0n,
      end: 0n,
      attributes: {},
      events: [],
      status: { code: 0, message: '' },
      resource,
    };
    reader.fields((field) => {
      if (field === 1) span.traceId = hex(reader.bytes());
      else if (field === 2) span.spanId = hex(reader.bytes());
      else if (field === 4) span.parentSpanId = hex(reader.bytes());
      else if (field === 5) span.name = reader.string();
      else if (field === 6) span.kind = Number(reader.varint());
      else if (field === 7) span.start = reader.fixed64();
      else if (field === 8) span.end = reader.fixed64();
      else if (field === 9) keyValue(reader.bytes(), span.attributes);
      else if (field === 11) {
        const event = new Reader(reader.bytes());
        const decoded = { name: '', attributes: {} as Record<string, unknown> };
        event.fields((inner) => {
          if (inner === 2) decoded.name = event.string();
          else if (inner === 3) keyValue(event.bytes(), decoded.attributes);
          else return false;
          return true;
        });
        span.events.push(decoded);
      } else if (field === 15) {
        const status = new Reader(reader.bytes());
        status.fields((inner) => {
          if (inner === 2) span.status.message = status.string();
          else if (inner === 3) span.status.code = Number(status.varint());
          else return false;
          return true;
        });
      } else return false;
      return true;
    });
    spans.push(span);
  });
  return spans;
}

/** The histogram metrics of an `ExportMetricsServiceRequest`. */
export function decodeMetricsProtobuf(buf: Uint8Array): ReceivedMetric[] {
  const metrics: ReceivedMetric[] = [];
  eachScoped(buf, (item) => {
    const reader = new Reader(item);
    const metric: ReceivedMetric = { name: '', unit: '', points: [] };
    reader.fields((field) => {
      if (field === 1) metric.name = reader.string();
      else if (field === 3) metric.unit = reader.string();
      else if (field === 9) {
        const histogram = new Reader(reader.bytes());
        histogram.fields((inner) => {
          if (inner !== 1) return false;
          const point = new Reader(histogram.bytes());
          const decoded: ReceivedPoint = { attributes: {}, count: 0, sum: 0, bounds: [] };
          point.fields((pointField, wire) => {
            if (pointField === 9) keyValue(point.bytes(), decoded.attributes);
            else if (pointField === 4) decoded.count = Number(point.fixed64());
            else if (pointField === 5) decoded.sum = point.double();
            else if (pointField === 7 && wire === 2) {
              const packed = new Reader(point.bytes());
              while (!packed.atEnd()) decoded.bounds.push(packed.double());
            } else if (pointField === 7) decoded.bounds.push(point.double());
            else return false;
            return true;
          });
          metric.points.push(decoded);
          return true;
        });
      } else return false;
      return true;
    });
    metrics.push(metric);
  });
  return metrics;
}

/** An OTLP JSON `AnyValue`. */
function jsonValue(value: Record<string, unknown> | undefined): unknown {
  if (value === undefined) return undefined;
  if ('stringValue' in value) return value.stringValue;
  if ('boolValue' in value) return value.boolValue;
  if ('intValue' in value) return Number(value.intValue);
  if ('doubleValue' in value) return Number(value.doubleValue);
  if ('arrayValue' in value) {
    const values = (value.arrayValue as { values?: Record<string, unknown>[] }).values ?? [];
    return values.map((item) => jsonValue(item));
  }
  return undefined;
}

/** OTLP JSON attributes. */
function jsonAttributes(list: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const item of (list ?? []) as { key: string; value?: Record<string, unknown> }[])
    out[item.key] = jsonValue(item.value);
  return out;
}

/** Each item of the scopes of an OTLP JSON request. */
function eachJsonScoped(
  body: Record<string, unknown>,
  resourceKey: string,
  scopeKey: string,
  itemKey: string,
  each: (item: Record<string, unknown>, resource: Record<string, unknown>) => void,
): void {
  for (const group of (body[resourceKey] ?? []) as Record<string, unknown>[]) {
    const resource = jsonAttributes((group.resource as { attributes?: unknown } | undefined)?.attributes);
    for (const scope of (group[scopeKey] ?? []) as Record<string, unknown>[])
      for (const item of (scope[itemKey] ?? []) as Record<string, unknown>[]) each(item, resource);
  }
}

/** The spans of an OTLP JSON trace request (ids in hex, as the JSON encoding writes them). */
export function decodeTraceJson(body: Record<string, unknown>): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  eachJsonScoped(body, 'resourceSpans', 'scopeSpans', 'spans', (span, resource) => {
    const status = (span.status ?? {}) as { code?: number; message?: string };
    spans.push({
      traceId: String(span.traceId ?? ''),
      spanId: String(span.spanId ?? ''),
      parentSpanId: String(span.parentSpanId ?? ''),
      name: String(span.name ?? ''),
      kind: Number(span.kind ?? 0),
      start: BigInt(String(span.startTimeUnixNano ?? 0)),
      end: BigInt(String(span.endTimeUnixNano ?? 0)),
      attributes: jsonAttributes(span.attributes),
      events: ((span.events ?? []) as { name: string; attributes?: unknown }[]).map((event) => ({
        name: event.name,
        attributes: jsonAttributes(event.attributes),
      })),
      status: { code: Number(status.code ?? 0), message: String(status.message ?? '') },
      resource,
    });
  });
  return spans;
}

/** The histogram metrics of an OTLP JSON metrics request. */
export function decodeMetricsJson(body: Record<string, unknown>): ReceivedMetric[] {
  const metrics: ReceivedMetric[] = [];
  eachJsonScoped(body, 'resourceMetrics', 'scopeMetrics', 'metrics', (metric) => {
    const points = ((metric.histogram as { dataPoints?: Record<string, unknown>[] } | undefined)
      ?.dataPoints ?? []) as Record<string, unknown>[];
    metrics.push({
      name: String(metric.name ?? ''),
      unit: String(metric.unit ?? ''),
      points: points.map((point) => ({
        attributes: jsonAttributes(point.attributes),
        count: Number(point.count ?? 0),
        sum: Number(point.sum ?? 0),
        bounds: ((point.explicitBounds ?? []) as unknown[]).map(Number),
      })),
    });
  });
  return metrics;
}

/** Start a receiver on 127.0.0.1 with a free port. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const metrics: ReceivedMetric[] = [];
  const requests: OtlpReceiver['requests'] = [];
  let held: Promise<void> | undefined;
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      const body = new Uint8Array(Buffer.concat(chunks));
      const contentType = request.headers['content-type'] ?? '';
      const path = request.url ?? '';
      requests.push({ path, contentType, headers: request.headers });
      const json = contentType.includes('json');
      const parsed = json
        ? (JSON.parse(Buffer.from(body).toString('utf8')) as Record<string, unknown>)
        : undefined;
      if (path.endsWith('/v1/traces'))
        spans.push(...(parsed === undefined ? decodeTraceProtobuf(body) : decodeTraceJson(parsed)));
      else if (path.endsWith('/v1/metrics'))
        metrics.push(...(parsed === undefined ? decodeMetricsProtobuf(body) : decodeMetricsJson(parsed)));
      await held;
      if (json) {
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      } else {
        response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    metrics,
    requests,
    hold() {
      let release!: () => void;
      held = new Promise<void>((resolve) => {
        release = resolve;
      });
      return () => {
        held = undefined;
        release();
      };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
