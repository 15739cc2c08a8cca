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

/** A count under its Prometheus label set, written once when the count is first made. */
interface Count {
  readonly labels: string;
  value: number;
}

/** The count of `map` under `key`, made with the label set `pairs()` the first time. */
function countOf(map: Map<string, Count>, key: string, pairs: () => Record<string, string>): Count {
  let count = map.get(key);
  if (count === undefined) {
    count = { labels: labels(pairs()), value: 0 };
    map.set(key, count);
  }
  return count;
}

/** The counters and histogram of one gateway instance. */
export class GatewayMetrics {
  // Keyed by the label values joined with a newline, which no route, status or code holds; the label sets are
  // escaped and written once per key, not once per request.
  private readonly requests = new Map<string, Count>();
  private readonly attempts = new Map<string, Count>();
  private readonly histograms = new Map<
    string,
    { labels: string; buckets: number[]; sum: number; count: number }
  >();

  /** Count one finished request. */
  record(sample: RequestSample): void {
    const { route, code, provider } = sample;
    const status = String(sample.status);
    countOf(this.requests, `${route}\n${status}\n${code}`, () => ({ route, status, code })).value += 1;
    if (sample.attempts > 0) {
      countOf(this.attempts, `${route}\n${provider}`, () => ({ route, provider })).value += sample.attempts;
    }
    let histogram = this.histograms.get(route);
    if (histogram === undefined) {
      histogram = { labels: labels({ route }), buckets: BUCKETS.map(() => 0), sum: 0, count: 0 };
      this.histograms.set(route, histogram);
    }
    for (let index = 0; index < BUCKETS.length; index++) {
      if (sample.seconds <= (BUCKETS[index] as number))
        histogram.buckets[index] = (histogram.buckets[index] ?? 0) + 1;
    }
    histogram.sum += sample.seconds;
    histogram.count += 1;
  }

  /** The metrics as Prometheus text, with the gauges of the concurrency limit. */
  render(gauges: LimitGauges): string {
    const lines: string[] = [
      '# HELP verdict_gateway_requests_total Requests answered, by route, status and code.',
      '# TYPE verdict_gateway_requests_total counter',
      ...[...this.requests.values()].map(
        (count) => `verdict_gateway_requests_total${count.labels} ${count.value}`,
      ),
      '# HELP verdict_gateway_provider_attempts_total Provider requests made, retries and fallbacks included.',
      '# TYPE verdict_gateway_provider_attempts_total counter',
      ...[...this.attempts.values()].map(
        (count) => `verdict_gateway_provider_attempts_total${count.labels} ${count.value}`,
      ),
      '# HELP verdict_gateway_request_duration_seconds Time to answer, by route.',
      '# TYPE verdict_gateway_request_duration_seconds histogram',
    ];
    for (const histogram of this.histograms.values()) {
      const key = histogram.labels;
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
