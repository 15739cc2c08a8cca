/**
 * The signals that interrupt a run, with their numbers on Linux and macOS: an interrupted run exits with
 * 128 + the number, as shells report a command a signal ended (130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP).
 */
export const INTERRUPT_SIGNALS = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 } as const;

/** A signal that interrupts a run. */
export type InterruptSignal = keyof typeof INTERRUPT_SIGNALS;

/** The abort reason of an interrupted run: the signal that interrupted it. */
export class Interruption extends Error {
  /** The signal that interrupted the run. */
  readonly signal: InterruptSignal;

  constructor(signal: InterruptSignal) {
    super(`Interrupted by ${signal}.`);
    this.name = 'Interruption';
    this.signal = signal;
  }
}

/**
 * True for an {@link Interruption}, also one made by another copy of this module (the bundled CLI entry and
 * the subcommands it loads from `dist/` each have their own), so the name is checked too.
 */
export function isInterruption(value: unknown): value is Interruption {
  return value instanceof Interruption || (value instanceof Error && value.name === 'Interruption');
}

/**
 * The signal an abort reason names: an {@link Interruption}, a bare signal name, or SIGINT for any other
 * reason (a test or a library caller aborting without saying why is treated as Ctrl-C).
 */
export function interruptSignalOf(reason: unknown): InterruptSignal {
  const named = isInterruption(reason) ? reason.signal : reason;
  return typeof named === 'string' && Object.hasOwn(INTERRUPT_SIGNALS, named)
    ? (named as InterruptSignal)
    : 'SIGINT';
}

/** The exit status of a run interrupted for `reason`: 128 + the signal's number. */
export function interruptedStatus(reason: unknown): number {
  return 128 + INTERRUPT_SIGNALS[interruptSignalOf(reason)];
}
