import { fail, ok } from '../../contract/builders.js';
import { CONTRACT_SCHEMA_URL, type ValidationWarning, type Violation } from '../../contract/codes.js';
import { describeReadError, formatFinding } from '../../contract/findings.js';
import type { ResultContract } from '../../contract/types.js';
import { validateResultText } from '../../contract/validate-result-text.js';
import type { ReadError } from '../../json/types.js';
import { defineCommand } from '../../producer/define-command.js';
import { inputLabel, readInput } from '../../producer/read-input.js';
import { renderHeadline, renderResult } from '../../producer/render.js';
import type { CommandContext, RenderContext } from '../../producer/types.js';
import type { UnifiedViolation } from '../../unified/index.js';
import { placeFindings, renderFinding, renderReadError } from '../source-places.js';
import { DEFAULT_MAX_LINE_BYTES, renderLineReport, validateLines } from '../validate-lines.js';

/** The verdict on one input of `verdict validate`. */
export interface InputVerdict {
  /** The path as given (`-` for standard input). */
  file: string;
  /** True when the input was read and conforms. */
  conformant: boolean;
  /** Every violation found. */
  violations: (Violation | UnifiedViolation)[];
  /** Remarks that do not break the contract. */
  warnings: ValidationWarning[];
  /** Why the input could not be read, when it could not. */
  read_error?: ReadError;
}

/** What checking one input's bytes against a contract found. */
type TextCheck =
  | {
      valid: boolean;
      violations: (Violation | UnifiedViolation)[];
      warnings: ValidationWarning[];
      readError?: undefined;
    }
  | { valid: false; violations: []; warnings: ValidationWarning[]; readError: ReadError };

/** A contract `verdict validate --contract` checks against. */
interface ContractCheck {
  /** The contract's name in messages. */
  title: string;
  /** The `$id` of its JSON Schema, reported in `details.contract`. */
  url: string;
  /** Reads and checks one input. */
  check(bytes: Uint8Array, maxBytes?: number): TextCheck | Promise<TextCheck>;
}

/** The `$id` of the unified output schema, kept here so that a cold start loads no unified module. */
const UNIFIED_OUTPUT_SCHEMA_URL = 'https://verdict.dev/schemas/unified-output-v1.schema.json';

/** The contracts `verdict validate --contract` checks against, by name. */
const CONTRACTS: { result: ContractCheck; unified: ContractCheck } = {
  result: {
    title: 'QZX Result Contract v1',
    url: CONTRACT_SCHEMA_URL,
    check: (bytes, maxBytes) => validateResultText(bytes, maxBytes === undefined ? {} : { maxBytes }),
  },
  unified: {
    title: 'the unified AI output contract',
    url: UNIFIED_OUTPUT_SCHEMA_URL,
    // Loaded on demand: `verdict validate` of a result document (the cold-start path) never parses it.
    async check(bytes, maxBytes) {
      const { validateUnifiedText } = await import('../../unified/validate-unified-text.js');
      const report = validateUnifiedText(bytes, maxBytes === undefined ? {} : { maxBytes });
      return report.readError === undefined
        ? { valid: report.valid, violations: report.violations, warnings: [] }
        : { valid: false, violations: [], warnings: [], readError: report.readError };
    },
  },
};

/** A contract name `verdict validate --contract` accepts. */
export type ContractName = keyof typeof CONTRACTS;

/** Reads and validates one input. */
export async function validateInput(
  file: string,
  ctx: CommandContext,
  maxBytes: number | undefined,
  contract: ContractName = 'result',
): Promise<InputVerdict> {
  const input = await readInput(file, ctx.io, maxBytes === undefined ? {} : { maxBytes });
  if (!input.ok) return { file, conformant: false, violations: [], warnings: [], read_error: input.error };
  const report = await CONTRACTS[contract].check(input.bytes, maxBytes);
  if (report.readError) {
    // A second value at the start of a line is most likely a JSON Lines file given without --jsonl.
    const { readError } = report;
    const read_error =
      readError.reason === 'trailing_data' && readError.column === 1
        ? { ...readError, message: `${readError.message} One document per line? Use --jsonl.` }
        : readError;
    return { file, conformant: false, violations: [], warnings: [], read_error };
  }
  placeFindings(ctx, file, input.bytes, [...report.violations, ...report.warnings]);
  return { file, conformant: report.valid, violations: report.violations, warnings: report.warnings };
}

/**
 * `verdict validate` for people: one compiler-style line per violation, warning or read error
 * (`FILE:LINE:COL code message`), then the summary once.
 */
function renderValidation(result: ResultContract, context: RenderContext): string {
  if (result.details?.mode === 'jsonl') return renderLineReport(result, context);
  const inputs = (result.details?.inputs ?? []) as InputVerdict[];
  const lines: string[] = [];
  for (const input of inputs) {
    if (input.read_error !== undefined) lines.push(renderReadError(input.file, input.read_error, context));
    for (const violation of input.violations) lines.push(renderFinding(input.file, violation, context));
    for (const warning of input.warnings) lines.push(renderFinding(input.file, warning, context, 'warning'));
  }
  // Without inputs (a usage error found by the command) the default rendering says it.
  if (inputs.length === 0) return renderResult(result, context);
  lines.push(renderHeadline(result, context.style));
  return `${lines.join('\n')}\n`;
}

/** `verdict validate`: checks result documents against QZX Result Contract v1. */
export const validateCommand = defineCommand({
  name: 'validate',
  description:
    'Check JSON documents against QZX Result Contract v1. Reads each FILE (or standard input for - or when no FILE is given) strictly: UTF-8 only, exactly one JSON value, no duplicate member names. Reports every violation.',
  options: {
    contract: {
      type: 'string',
      choices: ['result', 'unified'],
      default: 'result',
      valueName: 'NAME',
      description:
        'The contract to check: result (QZX Result Contract v1) or unified (the unified AI output envelope).',
    },
    jsonl: {
      type: 'boolean',
      description:
        'Treat the input as newline-delimited JSON: one document per line, validated in constant memory.',
    },
    'max-bytes': {
      type: 'integer',
      description: `Largest input (in --jsonl mode: largest line) accepted, in bytes; no limit by default, ${DEFAULT_MAX_LINE_BYTES} per line with --jsonl.`,
      min: 1,
      valueName: 'N',
    },
  },
  positionals: [
    { name: 'FILE', description: 'A file to validate, or - for standard input.', variadic: true },
  ],
  errorCodes: {
    contract_violation: 'An input was read but does not conform to the contract.',
    invalid_json_input:
      'An input could not be read as one strict JSON document (details.read_error says why).',
    invalid_arguments: 'The command line is wrong.',
  },
  render: renderValidation,
  async run({ options, positionals }, ctx) {
    const files = positionals.length > 0 ? positionals : ['-'];
    if (files.length === 1 && files[0] === '-' && ctx.io.stdin.isTTY) {
      return fail('No input: give a FILE, or pipe a document into standard input.', {
        error: 'Standard input is a terminal and no FILE was given.',
        error_code: 'invalid_arguments',
      });
    }
    if (files.filter((file) => file === '-').length > 1) {
      return fail('Standard input can be read only once: give - at most once.', {
        error: '- was given more than once.',
        error_code: 'invalid_arguments',
      });
    }
    const contract = CONTRACTS[options.contract];
    if (options.jsonl && options.contract !== 'result') {
      return fail('--jsonl checks QZX Result Contract v1 only.', {
        error: `--jsonl cannot be combined with --contract ${options.contract}.`,
        error_code: 'invalid_arguments',
      });
    }
    if (options.jsonl) {
      if (files.length > 1) {
        return fail('--jsonl takes one input: a FILE or - for standard input.', {
          error: `${files.length} inputs were given with --jsonl.`,
          error_code: 'invalid_arguments',
        });
      }
      return validateLines(files[0] as string, ctx, options['max-bytes']);
    }

    const inputs: InputVerdict[] = [];
    for (const file of files)
      inputs.push(await validateInput(file, ctx, options['max-bytes'], options.contract));
    const warnings = inputs.flatMap((input) =>
      input.warnings.map((w) => `${inputLabel(input.file)}: ${w.code}: ${w.message}`),
    );
    const details: Record<string, unknown> = { contract: contract.url, inputs };
    const unreadable = inputs.filter((input) => input.read_error !== undefined);
    const failing = inputs.filter((input) => !input.conformant);
    const extra = warnings.length > 0 ? { warnings } : {};
    if (failing.length === 0) {
      const message =
        inputs.length === 1
          ? `${inputLabel(files[0] as string)} conforms to ${contract.title}.`
          : `All ${inputs.length} inputs conform to ${contract.title}.`;
      return ok(message, { details, ...extra });
    }
    const first = unreadable[0];
    if (first?.read_error) details.read_error = first.read_error;
    const counts = `${failing.length} of ${inputs.length} inputs do not conform`;
    if (first?.read_error) {
      return fail(
        inputs.length === 1
          ? `${inputLabel(first.file)} could not be read as one strict JSON document.`
          : `${counts}: ${unreadable.length} could not be read as strict JSON.`,
        {
          error: `${inputLabel(first.file)}: ${describeReadError(first.read_error)}`,
          error_code: 'invalid_json_input',
          details,
          ...extra,
        },
      );
    }
    const violations = failing.reduce((sum, input) => sum + input.violations.length, 0);
    const firstViolation = failing[0]?.violations[0];
    return fail(
      inputs.length === 1
        ? `${inputLabel(files[0] as string)} does not conform to ${contract.title} (${violations} violation${violations === 1 ? '' : 's'}).`
        : `${counts} to ${contract.title} (${violations} violations).`,
      {
        error: firstViolation ? formatFinding(firstViolation) : 'The input does not conform.',
        error_code: 'contract_violation',
        details,
        ...extra,
      },
    );
  },
});
