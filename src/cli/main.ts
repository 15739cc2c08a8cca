#!/usr/bin/env node
import { nodeIo } from '../producer/node-io.js';
import { run } from './run.js';

// The one place that touches process state: signals and the exit status.
const controller = new AbortController();
const onSigint = () => {
  if (controller.signal.aborted) process.exit(130); // a second Ctrl-C ends at once
  controller.abort(new Error('SIGINT'));
};
process.on('SIGINT', onSigint);
// SIGTERM (what service managers and container runtimes send) asks for the same graceful end as Ctrl-C.
const onSigterm = () => {
  if (controller.signal.aborted) process.exit(143);
  controller.abort(new Error('SIGTERM'));
};
process.on('SIGTERM', onSigterm);

// A reader that stops early (`verdict … | head`) closes the pipe: what it did not read is not lost on anyone,
// so EPIPE ends nothing and prints nothing. Any other write failure is said in one line, never a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') return;
    process.exitCode = 1;
    if (stream !== process.stderr) process.stderr.write(`verdict: cannot write output: ${error.message}\n`);
  });
}

run(process.argv.slice(2), nodeIo(controller.signal)).then(
  (status) => {
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigterm);
    process.exitCode = status;
    // An interrupted run may leave work behind (a child, a timer); the result is already written.
    if (controller.signal.aborted) process.exit(status);
  },
  (thrown: unknown) => {
    process.stderr.write(`verdict: internal error: ${String(thrown)}\n`);
    process.exitCode = 1;
  },
);
