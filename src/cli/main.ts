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

run(process.argv.slice(2), nodeIo(controller.signal)).then(
  (status) => {
    process.off('SIGINT', onSigint);
    process.exitCode = status;
    // An interrupted run may leave work behind (a child, a timer); the result is already written.
    if (controller.signal.aborted) process.exit(status);
  },
  (thrown: unknown) => {
    process.stderr.write(`verdict: internal error: ${String(thrown)}\n`);
    process.exitCode = 1;
  },
);
