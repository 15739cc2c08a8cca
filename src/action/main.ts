import { runAction } from './run-action.js';

// The Action's entry (bundled to action/dist/index.mjs): the one place that sets the process exit status.
process.exitCode = runAction({ env: process.env, stdout: process.stdout, stderr: process.stderr });
