// What every benchmark prints about the machine it ran on, and the guard that keeps disturbed figures out of
// BENCHMARKS.md: a 1-minute load above 1 on two cores means each process got a fraction of a core.
import { cpus, loadavg } from 'node:os';

/** The highest 1-minute load at which figures are recorded unmarked. */
export const QUIET_LOAD = 1;

/**
 * Prints the machine and its 1-minute load, and stops the run when the load is above {@link QUIET_LOAD}
 * unless `--force` was given; then every figure of the run is marked as disturbed.
 */
export function checkQuietMachine(args = process.argv.slice(2)) {
  const before = loadavg()[0];
  const force = args.includes('--force');
  const quiet = before <= QUIET_LOAD;
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}`;
  process.stderr.write(`machine: ${machine}; 1-minute load before: ${before.toFixed(2)}\n`);
  if (!quiet && !force) {
    process.stderr.write(
      `The 1-minute load is ${before.toFixed(2)} (above ${QUIET_LOAD}): figures taken now would say more about ` +
        'the other work than about the code. Stop the other work and wait, or pass --force to mark them.\n',
    );
    process.exit(1);
  }
  return {
    machine,
    before,
    quiet,
    /** The line a report carries: the load before and after, and whether the figures are marked. */
    summary() {
      const after = loadavg()[0];
      // The run itself loads the machine, so only the load before it tells whether it ran alone.
      const mark = quiet ? '' : ' **Disturbed: not quiet-machine figures.**';
      return `Machine: ${machine}; 1-minute load ${before.toFixed(2)} before and ${after.toFixed(2)} after.${mark}`;
    },
  };
}

/** The median of a list of numbers. */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** `median (min–max)` of a list, each with `digits` decimals. */
export function spread(values, digits = 0) {
  const fixed = (value) =>
    value.toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: digits });
  return `${fixed(median(values))} (${fixed(Math.min(...values))}–${fixed(Math.max(...values))})`;
}
