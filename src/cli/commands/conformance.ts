import { runConformanceSuite, SUITE_ERROR_CODES } from '../../evidence/run-conformance-suite.js';
import { defineCommand } from '../../producer/define-command.js';

/** `verdict conformance`: runs a conformance suite manifest and reports pass or fail per case. */
export const conformanceCommand = defineCommand({
  name: 'conformance',
  description:
    "Run every case of a conformance suite manifest (schema_version 1; the reference implementation's format is accepted) and report whether each got its expected verdict. Case paths must stay inside the manifest's folder.",
  options: {
    manifest: { type: 'string', description: 'The suite manifest.', required: true, valueName: 'FILE' },
  },
  errorCodes: { ...SUITE_ERROR_CODES, invalid_arguments: 'The command line is wrong.' },
  run({ options }, ctx) {
    return runConformanceSuite(options.manifest, { cwd: ctx.io.cwd });
  },
});
