import { fail } from '../../contract/builders.js';
import type { ResultContract } from '../../contract/types.js';
import { EVIDENCE_PROFILES, RECEIPT_ERROR_CODES } from '../../evidence/codes.js';
import type { ReceiptCase } from '../../evidence/create-receipt.js';
import { produceReceipt } from '../../evidence/produce-receipt.js';
import { defineCommand } from '../../producer/define-command.js';
import { readStream } from '../../producer/read-input.js';
import {
  renderChecklist,
  renderHeadline,
  renderMember,
  renderViolations,
  renderWarnings,
} from '../../producer/render.js';
import type { RenderContext } from '../../producer/types.js';

function usageError(message: string, error: string) {
  return fail(message, { error, error_code: 'invalid_arguments' });
}

/** Receipt members that identify its format rather than say something about the evidence. */
const FORMAT_MEMBERS = [
  'report_schema_version',
  'contract_version',
  'contract_schema',
  'cases',
  'violations',
];

/**
 * `verdict evidence` for people: each case (success, failure) with its file and digest and, when it fails,
 * its violations; the receipt's own violations; then the verdict once, with the profile facts.
 */
function renderReceipt(result: ResultContract, context: RenderContext): string {
  const { style } = context;
  const details = result.details ?? {};
  const cases = (details.cases ?? []) as ReceiptCase[];
  const lines = renderChecklist(
    cases.map((item) => ({
      passed: item.conformant,
      label: `${item.name}: ${item.file}`,
      note: item.sha256 === null ? 'unreadable' : `sha256 ${item.sha256.slice(0, 12)}…`,
      lines: [...renderViolations(item.violations, style, ''), ...renderWarnings(item.warnings, style, '')],
    })),
    style,
  );
  lines.push(...renderViolations(Array.isArray(details.violations) ? details.violations : [], style, ''));
  lines.push(renderHeadline(result, style));
  for (const [key, value] of Object.entries(details)) {
    if (!FORMAT_MEMBERS.includes(key) && value !== null) lines.push(...renderMember(key, value, context));
  }
  lines.push(...renderWarnings(result.warnings, style));
  return `${lines.join('\n')}\n`;
}

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
      description: 'File that must say success (- for standard input).',
      required: true,
      valueName: 'FILE',
    },
    failure: {
      type: 'string',
      description: 'File that must say failure (- for standard input).',
      required: true,
      valueName: 'FILE',
    },
    'tool-definition': {
      type: 'string',
      description:
        'MCP tool definition (required by the MCP profiles, ignored by core; - for standard input).',
      valueName: 'FILE',
    },
    report: { type: 'string', description: 'Where to write the receipt.', valueName: 'FILE' },
  },
  errorCodes: {
    ...RECEIPT_ERROR_CODES,
    invalid_json_input: 'Standard input (-) could not be read.',
    invalid_arguments: 'The command line is wrong (two inputs named -, standard input a terminal).',
  },
  render: renderReceipt,
  async run({ options }, ctx) {
    // An MCP profile without --tool-definition is not a usage error: the receipt records it as the global
    // violation tool_definition_missing and fails (docs/conformance.md).
    const toolDefinition = options['tool-definition'];
    // `-` is standard input, as in every command that reads a file; it can stand for one input only.
    const named = [
      ['--success', options.success],
      ['--failure', options.failure],
      ['--tool-definition', toolDefinition],
    ].filter(([, file]) => file === '-');
    if (named.length > 1) {
      const flags = named.map(([flag]) => flag).join(' and ');
      return usageError(`${flags} both name standard input (-).`, 'Only one input can be read from -.');
    }
    let stdin: Uint8Array | undefined;
    if (named.length === 1) {
      if (ctx.io.stdin.isTTY) {
        return usageError(
          `${named[0]?.[0]} - reads standard input, which is a terminal.`,
          'Pipe the file into standard input, or name it.',
        );
      }
      const input = await readStream(ctx.io.stdin);
      if (!input.ok) {
        return fail('Standard input could not be read.', {
          error: `${input.error.reason}: ${input.error.message}`,
          error_code: 'invalid_json_input',
          details: { file: '-', read_error: input.error },
        });
      }
      stdin = input.bytes;
    }
    return produceReceipt({
      profile: options.profile,
      success: options.success,
      failure: options.failure,
      toolDefinition,
      report: options.report,
      cwd: ctx.io.cwd,
      stdin,
    }) as unknown as ResultContract;
  },
  // docs/conformance.md: the --json output is the receipt itself, byte for byte the --report file (no meta, no timing).
  product: (result, { json }) => {
    if (!json || !Object.hasOwn(result, 'receipt_schema')) return undefined;
    const { meta: _meta, ...receipt } = result;
    return receipt;
  },
});
