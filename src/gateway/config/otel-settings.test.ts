import { describe, expect, test } from 'vitest';
import { readOtelSettings } from './otel-settings.js';

describe('readOtelSettings', () => {
  test('is off without an endpoint, whatever else is set', () => {
    expect(readOtelSettings(undefined, { OTEL_SERVICE_NAME: 'x' })).toEqual({
      ok: true,
      settings: undefined,
    });
  });

  test('appends the signal paths to the base endpoint; a signal endpoint is used as it is', () => {
    const read = readOtelSettings(undefined, {
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/otlp',
      OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: 'https://metrics.example/ingest',
    });
    expect(read).toMatchObject({
      ok: true,
      settings: {
        tracesUrl: 'http://collector:4318/otlp/v1/traces',
        metricsUrl: 'https://metrics.example/ingest',
        protocol: 'http/protobuf',
        serviceName: 'verdict-gateway',
        captureContent: false,
        latestConventions: false,
      },
    });
  });

  test('reads headers and resource attributes percent-decoded, and the service name from either', () => {
    const read = readOtelSettings(undefined, {
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318',
      OTEL_EXPORTER_OTLP_HEADERS: 'api-key=a%2Cb, x-team = blue',
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'x-team=red',
      OTEL_RESOURCE_ATTRIBUTES: 'service.name=from-resource,region=eu%20west',
    });
    expect(read).toMatchObject({
      ok: true,
      settings: {
        tracesHeaders: { 'api-key': 'a,b', 'x-team': 'red' },
        metricsHeaders: { 'api-key': 'a,b', 'x-team': 'blue' },
        serviceName: 'from-resource',
        resourceAttributes: { region: 'eu west' },
      },
    });
  });

  test('the config section wins over the variables; the opt-in and content capture are read', () => {
    const read = readOtelSettings(
      { endpoint: 'http://config:4318', protocol: 'http/json', serviceName: 'configured' },
      {
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://env:4318',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
        OTEL_SEMCONV_STABILITY_OPT_IN: 'http, gen_ai_latest_experimental',
        OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'TRUE',
      },
    );
    expect(read).toMatchObject({
      ok: true,
      settings: {
        tracesUrl: 'http://config:4318/v1/traces',
        protocol: 'http/json',
        serviceName: 'configured',
        latestConventions: true,
        captureContent: true,
      },
    });
  });

  test('OTEL_SDK_DISABLED and the exporters set to none turn signals off', () => {
    const base = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' };
    expect(readOtelSettings(undefined, { ...base, OTEL_SDK_DISABLED: 'true' })).toEqual({
      ok: true,
      settings: undefined,
    });
    const read = readOtelSettings(undefined, { ...base, OTEL_METRICS_EXPORTER: 'none' });
    expect(read.ok && read.settings?.metricsUrl).toBeUndefined();
    expect(read.ok && read.settings?.tracesUrl).toBe('http://127.0.0.1:4318/v1/traces');
  });

  test('reports every bad value at once instead of throwing', () => {
    const read = readOtelSettings(undefined, {
      OTEL_EXPORTER_OTLP_ENDPOINT: 'ftp://collector',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
      OTEL_EXPORTER_OTLP_HEADERS: 'novalue',
      OTEL_BSP_MAX_QUEUE_SIZE: '-3',
    });
    expect(read.ok).toBe(false);
    expect(read.ok ? [] : read.problems).toHaveLength(4);
  });

  test('a batch larger than the queue is cut to the queue', () => {
    const read = readOtelSettings(undefined, {
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318',
      OTEL_BSP_MAX_QUEUE_SIZE: '10',
      OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '50',
    });
    expect(read.ok && read.settings?.maxExportBatchSize).toBe(10);
  });
});
