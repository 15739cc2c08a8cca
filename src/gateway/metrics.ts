/**
 * The gateway's metrics in the Prometheus text exposition format, kept in memory per instance (each instance
 * of a load-balanced deployment is scraped on its own). A few counters and one histogram do not justify a
 * dependency that would tie the app to Node; this stays runtime-neutral like the rest of the Hono app.
 */

/** Upper bounds of the latency histogram, in seconds. */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120] as const;

/** One finished request, as the metrics count it. */
export interface RequestSample {
  /** The route template (`/v1/text`), or `other` for unknown paths (so paths cannot blow up the label set). */
  route: string;
  /** HTTP status served. */
  status: number;
  /** `ok` for a success, else the failure's code. */
  code: string;
  /** Wall time in seconds. */
  seconds: number;
  /** Provider attempts made (0 for requests that called no provider). */
  attempts: number;
  /** The envelope's provider. */
  provider: string;
}

function escapeLabel(value: string): string {
  return value.replaceAll('\\', '\\\\').replaceAll('"', '\\"').replaceAll('\n', '\\n');
}

function labels(pairs: Record<string, string>): string {
  return `{${Object.entries(pairs)
    .map(([key, value]) => `${key}="${escapeLabel(value)}"`)
    .join(',')}}`;
}

/** What the concurrency limit says of itself now, for its two gauges. */
export interface LimitGauges {
  /** Provider requests holding a place. */
  readonly inFlight: number;
  /** Requests waiting for a place. */
  readonly queued: number;
}

/** The counters and histogram of one gateway instance. */
export class GatewayMetrics {
  private readonly requests = new Map<string, number>();
  private readonly attempts = new Map<string, number>();
  private readonly histograms = new Map<string, { buckets: number[]; sum: number; count: number }>();

  /** Count one finished request. */
  record(sample: RequestSample): void {
    const key = labels({ route: sample.route, status: String(sample.status), code: sample.code });
    this.requests.set(key, (this.requests.get(key) ?? 0) + 1);
    if (sample.attempts > 0) {
      const attemptKey = labels({ route: sample.route, provider: sample.provider });
      this.attempts.set(attemptKey, (this.attempts.get(attemptKey) ?? 0) + sample.attempts);
    }
    const routeKey = labels({ route: sample.route });
    let histogram = this.histograms.get(routeKey);
    if (histogram === undefined) {
      histogram = { buckets: BUCKETS.map(() => 0), sum: 0, count: 0 };
      this.histograms.set(routeKey, histogram);
    }
    BUCKETS.forEach((bound, index) => {
      if (sample.seconds <= bound && histogram !== undefined)
        histogram.buckets[index] = (histogram.buckets[index] ?? 0) + 1;
    });
    histogram.sum += sample.seconds;
    histogram.count += 1;
  }

  /** The metrics as Prometheus text, with the gauges of the concurrency limit. */
  render(gauges: LimitGauges): string {
    const lines: string[] = [
      '# HELP verdict_gateway_requests_total Requests answered, by route, status and code.',
      '# TYPE verdict_gateway_requests_total counter',
      ...[...this.requests].map(([key, value]) => `verdict_gateway_requests_total${key} ${value}`),
      '# HELP verdict_gateway_provider_attempts_total Provider requests made, retries and fallbacks included.',
      '# TYPE verdict_gateway_provider_attempts_total counter',
      ...[...this.attempts].map(([key, value]) => `verdict_gateway_provider_attempts_total${key} ${value}`),
      '# HELP verdict_gateway_request_duration_seconds Time to answer, by route.',
      '# TYPE verdict_gateway_request_duration_seconds histogram',
    ];
    for (const [key, histogram] of this.histograms) {
      const route = key.slice(1, -1);
      BUCKETS.forEach((bound, index) => {
        lines.push(
          `verdict_gateway_request_duration_seconds_bucket{${route},le="${bound}"} ${histogram.buckets[index]}`,
        );
      });
      lines.push(`verdict_gateway_request_duration_seconds_bucket{${route},le="+Inf"} ${histogram.count}`);
      lines.push(`verdict_gateway_request_duration_seconds_sum${key} ${histogram.sum}`);
      lines.push(`verdict_gateway_request_duration_seconds_count${key} ${histogram.count}`);
    }
    lines.push(
      '# HELP verdict_gateway_in_flight Provider requests being served now.',
      '# TYPE verdict_gateway_in_flight gauge',
      `verdict_gateway_in_flight ${gauges.inFlight}`,
      '# HELP verdict_gateway_queued Requests waiting for a place now.',
      '# TYPE verdict_gateway_queued gauge',
      `verdict_gateway_queued ${gauges.queued}`,
    );
    return `${lines.join('\n')}\n`;
  }
}
