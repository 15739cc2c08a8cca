// Shared by the benchmarks that run with one npm script each (bench:reader, bench:jsonl, bench:cold-start): the
// 1-minute load before and after, interleaved rounds, and median with spread. Figures taken with a load above 1
// are marked as not for the record: on a busy machine they say more about the machine than about the code.
import { cpus, loadavg } from 'node:os';

/** Most load (1-minute average) under which figures may be recorded. */
export const QUIET_LOAD = 1;

/** Prints the machine and the load before the run; returns a function that prints the load after and the verdict. */
export function watchLoad(title) {
  const before = loadavg()[0];
  console.log(`# ${title}`);
  console.log(`node ${process.version}, ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'})`);
  console.log(`1-minute load before: ${before.toFixed(2)}`);
  if (before > QUIET_LOAD) {
    console.log(`NOT FOR THE RECORD: the load is above ${QUIET_LOAD}; run again on a quiet machine.`);
  }
  return () => {
    const after = loadavg()[0];
    console.log(`1-minute load after: ${after.toFixed(2)}`);
    const quiet = before <= QUIET_LOAD && after <= QUIET_LOAD;
    console.log(
      quiet
        ? 'The load stayed at or below 1: the figures may be recorded.'
        : 'NOT FOR THE RECORD: the load was above 1.',
    );
    return quiet;
  };
}

/**
 * Runs every target once per round, in turn, for `rounds` rounds (at least 5), after one warm-up run each, so
 * that a busy moment of the machine hits every target alike. `measure(target)` returns one figure (a time, in
 * milliseconds); the result maps each target's name to its figures.
 */
export async function interleave(targets, measure, rounds = 5) {
  const count = Math.max(5, rounds);
  const figures = new Map(targets.map((target) => [target.name, []]));
  for (const target of targets) await measure(target);
  for (let round = 0; round < count; round++) {
    for (const target of targets) figures.get(target.name).push(await measure(target));
  }
  return figures;
}

/** The median of some figures. */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** `median (min–max)` of some figures, with `digits` decimals. */
export function spread(values, digits = 1) {
  const f = (n) => n.toFixed(digits);
  return `${f(median(values))} (${f(Math.min(...values))}–${f(Math.max(...values))})`;
}

/** The ratio of two targets' figures paired within each round: median and spread of figures[a][k] / figures[b][k]. */
export function pairedRatio(figures, a, b, digits = 2) {
  const x = figures.get(a);
  const y = figures.get(b);
  return spread(
    x.map((value, k) => value / y[k]),
    digits,
  );
}
