import { type ChartData, compactNumber, niceScale, timeTicks } from './usage-series.js';

/** Props of {@link LineChart}. */
export interface LineChartProps {
  /** Id prefix for the chart's title and description (unique on the page). */
  id: string;
  /** What the chart shows ("Requests"). */
  title: string;
  /** The unit of the values ("ms", "%"…). */
  unit: string;
  /** The time grid and its lines. */
  data: ChartData;
  /** Bucket width, for the time labels. */
  bucket: 'minute' | 'hour' | 'day';
}

// Drawn at about its size on a desktop; it scales down (text with it) on a phone, keeping its proportions.
const WIDTH = 440;
const HEIGHT = 200;
const PAD = { left: 48, right: 12, top: 12, bottom: 28 };
// Lines differ by dash pattern as well as colour, so they stay apart without colour vision.
const DASHES = ['', '6 3', '2 3', '10 3 2 3', '1 5', '4 4'];

function timeLabel(time: number, bucket: LineChartProps['bucket']): string {
  const date = new Date(time);
  const pad = (value: number) => String(value).padStart(2, '0');
  if (bucket === 'day')
    return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
  return `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}`;
}

/** Split a line into runs of points without gaps (a `null` ends a run). */
function runs(
  values: (number | null)[],
  x: (index: number) => number,
  y: (value: number) => number,
): string[] {
  const paths: string[] = [];
  let current: string[] = [];
  values.forEach((value, index) => {
    if (value === null) {
      if (current.length > 0) paths.push(current.join(' '));
      current = [];
      return;
    }
    current.push(`${x(index).toFixed(1)},${y(value).toFixed(1)}`);
  });
  if (current.length > 0) paths.push(current.join(' '));
  return paths;
}

/**
 * A line chart as SVG: an image with a title and a description that says what it shows in words, a legend, and
 * the same numbers as a table (collapsed) for people who read them rather than see them.
 */
export function LineChart({ id, title, unit, data, bucket }: LineChartProps) {
  const values = data.lines.flatMap((line) => line.values).filter((value): value is number => value !== null);
  const max = values.length === 0 ? 0 : Math.max(...values);
  const { top, step } = niceScale(max);
  const inner = { width: WIDTH - PAD.left - PAD.right, height: HEIGHT - PAD.top - PAD.bottom };
  const count = Math.max(1, data.times.length - 1);
  const x = (index: number) => PAD.left + (index / count) * inner.width;
  const y = (value: number) => PAD.top + inner.height - (value / top) * inner.height;
  const ticks = Array.from({ length: Math.round(top / step) + 1 }, (_, index) => index * step);
  const labelled = new Set(timeTicks(data.times, bucket));
  const peak = data.lines
    .map((line) => ({
      label: line.label,
      max: Math.max(0, ...line.values.filter((v): v is number => v !== null)),
    }))
    .sort((a, b) => b.max - a.max)[0];
  const description =
    values.length === 0
      ? `No ${title.toLowerCase()} in this range.`
      : `${data.lines.length} line(s) over ${data.times.length} ${bucket}(s); highest ${compactNumber(max)} ${unit}${peak === undefined ? '' : ` (${peak.label})`}.`;
  return (
    <figure class="usage-chart">
      <figcaption id={`${id}-title`}>
        {title} <span class="unit">({unit})</span>
      </figcaption>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby={`${id}-svg-title ${id}-desc`}>
        <title id={`${id}-svg-title`}>{`${title} (${unit})`}</title>
        <desc id={`${id}-desc`}>{description}</desc>
        {ticks.map((tick) => (
          <g key={tick} class="grid">
            <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(tick)} y2={y(tick)} />
            <text x={PAD.left - 6} y={y(tick) + 4} text-anchor="end">
              {compactNumber(tick)}
            </text>
          </g>
        ))}
        {data.times.map((time, index) =>
          labelled.has(index) ? (
            <text key={time} class="axis" x={x(index)} y={HEIGHT - 8} text-anchor="middle">
              {timeLabel(time, bucket)}
            </text>
          ) : null,
        )}
        {data.lines.map((line, index) =>
          runs(line.values, x, y).map((points) =>
            points.includes(' ') ? (
              <polyline
                key={`${line.label}-${points}`}
                class={`series series-${index + 1}`}
                points={points}
                stroke-dasharray={DASHES[index % DASHES.length]}
              />
            ) : (
              <circle
                key={`${line.label}-${points}`}
                class={`series series-${index + 1}`}
                cx={points.split(',')[0]}
                cy={points.split(',')[1]}
                r="2.5"
              />
            ),
          ),
        )}
      </svg>
      <ul class="legend" aria-label={`${title}: lines`}>
        {data.lines.map((line, index) => (
          <li key={line.label}>
            <svg width="28" height="10" aria-hidden="true">
              <line
                class={`series series-${index + 1}`}
                x1="1"
                x2="27"
                y1="5"
                y2="5"
                stroke-dasharray={DASHES[index % DASHES.length]}
              />
            </svg>
            {line.label}
          </li>
        ))}
      </ul>
      <details class="chart-table">
        <summary>{title} as a table</summary>
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard. */}
        <section class="table-scroll" tabIndex={0} aria-label={`${title} as a table`}>
          <table>
            <thead>
              <tr>
                <th scope="col">Time (UTC)</th>
                {data.lines.map((line) => (
                  <th key={line.label} scope="col">
                    {line.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {data.times.map((time, index) => (
                <tr key={time}>
                  <th scope="row">{timeLabel(time, bucket)}</th>
                  {data.lines.map((line) => {
                    const value = line.values[index];
                    return (
                      <td key={line.label}>
                        {value === null || value === undefined ? '–' : compactNumber(value)}
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      </details>
    </figure>
  );
}
