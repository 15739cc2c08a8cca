#!/usr/bin/env node
import {
  INTERRUPT_SIGNALS,
  Interruption,
  type InterruptSignal,
  interruptedStatus,
} from '../producer/interrupt.js';
import { nodeIo } from '../producer/node-io.js';
import { run } from './run.js';

// The one place that touches process state: signals and the exit status.
// SIGINT (Ctrl-C), SIGTERM (`timeout`, `docker stop`, CI cancellation) and SIGHUP (a closed terminal) all
// interrupt the run: the command stops its work, the result document is printed and verdict exits with
// 128 + the signal's number. A second signal ends verdict at once (docs/run.md).
const controller = new AbortController();
const onSignal = (signal: InterruptSignal) => {
  if (controller.signal.aborted) process.exit(interruptedStatus(signal));
  controller.abort(new Interruption(signal));
};
const signals = Object.keys(INTERRUPT_SIGNALS) as InterruptSignal[];
for (const signal of signals) process.on(signal, onSignal);

// A result document that was not delivered is a failure: when stdout cannot be written (a reader that closed
// the pipe gives EPIPE), verdict says so in one line on stderr, never a stack trace, and exits 1 unless the
// run already ended with another non-zero status.
let undelivered = false;
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (undelivered) return;
  undelivered = true;
  if (process.exitCode === undefined || process.exitCode === 0) process.exitCode = 1;
  const why = error.code === 'EPIPE' ? 'standard output was closed before it was read' : error.message;
  process.stderr.write(`verdict: the result was not delivered: ${why}.\n`);
});
// Nothing is left to tell about a failing stderr; it must not crash verdict either.
process.stderr.on('error', () => undefined);

run(process.argv.slice(2), nodeIo(controller.signal)).then(
  (status) => {
    for (const signal of signals) process.off(signal, onSignal);
    process.exitCode = undelivered && status === 0 ? 1 : status;
    // An interrupted run may leave work behind (a timer, a generic run it did not wait for); the result is
    // already written.
    if (controller.signal.aborted) process.exit(process.exitCode);
  },
  (thrown: unknown) => {
    process.stderr.write(`verdict: internal error: ${String(thrown)}\n`);
    process.exitCode = 1;
  },
);
