import { useState } from 'preact/hooks';
import { Callout } from '../connection/callout.js';
import { callGateway, clientOf } from '../try/send-request.js';
import { RadioGroup } from '../ui/radio-group.js';
import { LineChart } from './line-chart.js';
import './usage.css';
import {
  chartData,
  compactNumber,
  formatDollars,
  METRICS,
  type MetricName,
  readRequestPage,
  readUsageReport,
  type UsageRecordRow,
  type UsageReport,
} from './usage-series.js';

const RANGES = { hour: 'Last hour', day: 'Last 24 hours', week: 'Last 7 days' } as const;
type RangeName = keyof typeof RANGES;
const RANGE_OF: Record<RangeName, { ms: number; bucket: 'minute' | 'hour' | 'day' }> = {
  hour: { ms: 3_600_000, bucket: 'minute' },
  day: { ms: 86_400_000, bucket: 'hour' },
  week: { ms: 7 * 86_400_000, bucket: 'day' },
};
const GROUPS = { key: 'Key', provider: 'Provider', model: 'Model' } as const;
type GroupName = keyof typeof GROUPS;
const CHARTS: MetricName[] = ['requests', 'tokens', 'cost', 'errorRate', 'latencyP50', 'latencyP95'];

function Totals({ report }: { report: UsageReport }) {
  const { totals } = report;
  const rate = totals.requests === 0 ? 0 : (100 * totals.errors) / totals.requests;
  const tiles: [string, string][] = [
    ['Requests', compactNumber(totals.requests)],
    ['Failed', `${compactNumber(totals.errors)} (${rate.toFixed(1)} %)`],
    ['Tokens in / out', `${compactNumber(totals.input_tokens)} / ${compactNumber(totals.output_tokens)}`],
    // Calls without a price are counted apart, never as $0 (docs/gateway.md, "Prices").
    [
      'Cost',
      `${formatDollars(totals.cost_usd)}${totals.unpriced > 0 ? ` + ${compactNumber(totals.unpriced)} unpriced` : ''}`,
    ],
    ['Latency p50 / p95', `${totals.latency_p50_ms ?? '–'} / ${totals.latency_p95_ms ?? '–'} ms`],
  ];
  return (
    <dl class="usage-totals">
      {tiles.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function RequestTable({ rows }: { rows: UsageRecordRow[] }) {
  if (rows.length === 0) return <p class="note">No request records match.</p>;
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard.
    <section class="table-scroll" tabIndex={0} aria-label="Request records">
      <table class="usage-requests">
        <caption class="visually-hidden">Request records, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Time (UTC)</th>
            <th scope="col">Trace id</th>
            <th scope="col">Key</th>
            <th scope="col">Route</th>
            <th scope="col">Target</th>
            <th scope="col">Code</th>
            <th scope="col">Latency</th>
            <th scope="col">Tokens</th>
            <th scope="col">Cost</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.request_id}>
              <td>{row.time.replace('T', ' ').replace(/\.\d+Z$/, '')}</td>
              <td>
                <code>{row.trace_id}</code>
              </td>
              <td>{row.key_name ?? '–'}</td>
              <td>{row.route}</td>
              <td>{row.target ?? row.provider ?? '–'}</td>
              <td class={row.code === 'ok' ? 'code-ok' : 'code-bad'}>
                {row.code} <span class="status">{row.status}</span>
              </td>
              <td>{row.latency_ms} ms</td>
              <td>
                {row.input_tokens} / {row.output_tokens}
              </td>
              <td title={row.cost_reason ?? undefined}>
                {row.cost_usd === null ? 'unpriced' : formatDollars(row.cost_usd)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** The trace id the address asks for (`#usage?trace_id=…`, a trace id's link in Try and Compare), or empty. */
function traceOfAddress(): string {
  const query = location.hash.split('?')[1] ?? '';
  return new URLSearchParams(query).get('trace_id') ?? '';
}

/** The Usage view: charts of a range's usage split by key, provider or model, and the request records. */
export function UsageView() {
  const [baseUrl, setBaseUrl] = useState('');
  const [key, setKey] = useState('');
  const [range, setRange] = useState<RangeName>('hour');
  const [group, setGroup] = useState<GroupName>('key');
  const [report, setReport] = useState<UsageReport | undefined>();
  const [problem, setProblem] = useState<string | undefined>();
  // A gateway without a store has no usage routes: a callout says how to start one that keeps usage.
  const [storeless, setStoreless] = useState(false);
  const [trace, setTrace] = useState(traceOfAddress);
  const asked = traceOfAddress();
  const [rows, setRows] = useState<UsageRecordRow[] | undefined>();
  const [next, setNext] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const loadRequests = async (cursor?: string) => {
    const query = {
      limit: 25,
      ...(trace.trim() === '' ? {} : { trace_id: trace.trim() }),
      ...(cursor === undefined ? {} : { cursor }),
    };
    const answer = await callGateway((options) => clientOf({ baseUrl, key }).usageRequests(query, options));
    const page = readRequestPage(answer.envelope);
    if (!page.ok) {
      setProblem(page.problem);
      return;
    }
    setRows(cursor === undefined ? page.requests : [...(rows ?? []), ...page.requests]);
    setNext(page.next);
  };

  const load = async (chosen = range, grouped = group) => {
    setBusy(true);
    setProblem(undefined);
    setStoreless(false);
    const to = new Date();
    const from = new Date(to.getTime() - RANGE_OF[chosen].ms);
    const query = {
      from: from.toISOString(),
      to: to.toISOString(),
      group_by: grouped,
      bucket: RANGE_OF[chosen].bucket,
    };
    const answer = await callGateway(
      (options) => clientOf({ baseUrl, key }).usage(query, options),
      undefined,
    );
    const read = readUsageReport(answer.envelope);
    if (read.ok) {
      setReport(read.report);
      await loadRequests();
    } else if (
      !answer.envelope.success &&
      answer.envelope.provider === 'system' &&
      answer.envelope.error.code === 'NOT_FOUND'
    ) {
      setReport(undefined);
      setStoreless(true);
    } else {
      setReport(undefined);
      setProblem(
        read.problem + (answer.status === 401 || answer.status === 403 ? ' Enter the admin key above.' : ''),
      );
    }
    setBusy(false);
  };

  return (
    <section aria-labelledby="usage-title" class="usage">
      <h2 id="usage-title">Usage</h2>
      <form
        class="usage-controls"
        onSubmit={(event) => {
          event.preventDefault();
          void load();
        }}
      >
        <label>
          Gateway URL (empty: this page's server)
          <input
            type="url"
            value={baseUrl}
            placeholder="http://127.0.0.1:8787"
            onInput={(e) => setBaseUrl(e.currentTarget.value)}
          />
        </label>
        <label>
          Admin key
          <input
            type="password"
            autocomplete="off"
            value={key}
            onInput={(e) => setKey(e.currentTarget.value)}
          />
        </label>
        <RadioGroup
          legend="Range"
          name="usage-range"
          choices={RANGES}
          value={range}
          onChange={(value) => {
            setRange(value);
            if (report !== undefined) void load(value, group);
          }}
        />
        <RadioGroup
          legend="Split by"
          name="usage-group"
          choices={GROUPS}
          value={group}
          onChange={(value) => {
            setGroup(value);
            if (report !== undefined) void load(range, value);
          }}
        />
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Loading…' : 'Show usage'}
        </button>
      </form>
      {report === undefined && asked !== '' && !storeless && (
        <p class="note">
          The request records of trace <code class="trace">{asked}</code> are shown once the usage is: enter
          the admin key and press Show usage.
        </p>
      )}
      {storeless && (
        <Callout title="This gateway keeps no usage">
          <p>
            It has no store, so it records no usage to show. Start it with <code>--store DIR</code> (
            <code>npx verdict gateway --store ./verdict-store</code>): it then keeps a record of every
            request, its keys with their limits, and the usage this view draws.
          </p>
        </Callout>
      )}
      {problem === undefined ? null : (
        <p class="note bad" role="alert">
          {problem}
        </p>
      )}
      {report === undefined ? null : (
        <>
          <Totals report={report} />
          <div class="usage-charts">
            {CHARTS.map((metric) => (
              <LineChart
                key={metric}
                id={`chart-${metric}`}
                title={METRICS[metric].title}
                unit={METRICS[metric].unit}
                data={chartData(report, metric)}
                bucket={report.bucket}
              />
            ))}
          </div>
          <h3>Requests</h3>
          <form
            class="usage-search"
            aria-label="Search request records"
            onSubmit={(event) => {
              event.preventDefault();
              void loadRequests();
            }}
          >
            <label>
              Trace id
              <input
                type="search"
                value={trace}
                spellcheck={false}
                onInput={(e) => setTrace(e.currentTarget.value)}
              />
            </label>
            <button type="submit">Search</button>
          </form>
          {rows === undefined ? null : <RequestTable rows={rows} />}
          {next === null ? null : (
            <button type="button" onClick={() => void loadRequests(next)}>
              More requests
            </button>
          )}
        </>
      )}
    </section>
  );
}
