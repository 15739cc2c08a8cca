import type { ResultContract } from '../../contract/types.js';
import { EVIDENCE_PROFILES, RECEIPT_ERROR_CODES } from '../../evidence/codes.js';
import { produceReceipt } from '../../evidence/produce-receipt.js';
import { defineCommand } from '../../producer/define-command.js';

/** `verdict evidence`: checks a real success and a real failure as a pair and prints (and writes) the receipt. */
export const evidenceCommand = defineCommand({
  name: 'evidence',
  description:
    'Check a real success and a real failure as a pair under a profile and produce a deterministic Conformance Receipt v1 with SHA-256 digests of the exact files. With --report, the receipt is written atomically, never over an input; with --json it is printed byte for byte as written.',
  options: {
    profile: {
      type: 'string',
      description: 'The profile: the core contract or one MCP revision.',
      choices: EVIDENCE_PROFILES,
      default: 'core',
    },
    success: {
      type: 'string',
      description: 'File that must say success.',
      required: true,
      valueName: 'FILE',
    },
    failure: {
      type: 'string',
      description: 'File that must say failure.',
      required: true,
      valueName: 'FILE',
    },
    'tool-definition': {
      type: 'string',
      description: 'MCP tool definition (required by the MCP profiles, ignored by core).',
      valueName: 'FILE',
    },
    report: { type: 'string', description: 'Where to write the receipt.', valueName: 'FILE' },
  },
  errorCodes: { ...RECEIPT_ERROR_CODES, invalid_arguments: 'The command line is wrong.' },
  run({ options }, ctx) {
    return produceReceipt({
      profile: options.profile,
      success: options.success,
      failure: options.failure,
      toolDefinition: options['tool-definition'],
      report: options.report,
      cwd: ctx.io.cwd,
    }) as unknown as ResultContract;
  },
  // SPEC §4: the --json output is the receipt itself, byte for byte the --report file (no meta, no timing).
  product: (result, { json }) => {
    if (!json || !Object.hasOwn(result, 'receipt_schema')) return undefined;
    const { meta: _meta, ...receipt } = result;
    return receipt;
  },
});
