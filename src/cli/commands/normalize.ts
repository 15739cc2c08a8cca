import { fail, ok } from '../../contract/builders.js';
import { defineCommand } from '../../producer/define-command.js';
import {
  BINARY_STREAM_FORMATS,
  isProviderId,
  normalizeLimitExceeded,
  normalizeResponse,
  normalizeStream,
  readHeaderLines,
  STREAM_FORMATS,
  STREAM_LIMITS,
  traceIdFrom,
  UNIFIED_ERROR_CODES,
  UNIFIED_FORMATS,
  type UnifiedOutput,
} from '../../unified/index.js';
import { readProviderInput } from '../read-provider-input.js';

function usageError(message: string, error: string) {
  return fail(message, { error, error_code: 'invalid_arguments' });
}

/** The codes of a failure envelope, as the envelope's `error.code` writes them (upper case), for the help. */
const ENVELOPE_FAILURES = Object.fromEntries(
  Object.entries(UNIFIED_ERROR_CODES).map(([code, { description }]) => [
    code,
    `${description} (a failure envelope, exit 1)`,
  ]),
);

/** `verdict normalize`: turns one provider response (or captured stream) into the unified AI output envelope. */
export const normalizeCommand = defineCommand({
  name: 'normalize',
  description: `Turn a provider response body (FILE, or standard input for - or when no FILE is given) into the unified AI output envelope and print the envelope itself. Exit 0 for a success envelope, 1 for a failure envelope, 2 for a usage error. With or without --json, stdout holds the envelope itself, not a contract result: its error.code is one of the upper-case codes below. A usage error is reported as for every command (with --json: a contract result document with error_code invalid_arguments).`,
  options: {
    format: {
      type: 'string',
      required: true,
      choices: UNIFIED_FORMATS,
      valueName: 'FORMAT',
      description: 'The wire format of the body.',
    },
    status: {
      type: 'integer',
      min: 100,
      max: 599,
      valueName: 'N',
      description: "The provider's HTTP status (default 200).",
    },
    header: {
      type: 'string',
      multiple: true,
      valueName: "'Name: value'",
      description:
        "A header of the provider's response (its request id goes to metadata.provider_request_id).",
    },
    'request-header': {
      type: 'string',
      multiple: true,
      valueName: "'Name: value'",
      description:
        'A header of the incoming request the trace id is taken from (traceparent, x-request-id, x-trace-id).',
    },
    'trace-id': {
      type: 'string',
      valueName: 'ID',
      description: 'The trace id, instead of taking it from --request-header.',
    },
    provider: {
      type: 'string',
      valueName: 'ID',
      description:
        "The provider id the envelope names instead of the format's (for example groq, deepseek, azure, vllm with --format openai-compatible.chat).",
    },
    stream: {
      type: 'boolean',
      description:
        'The input is a captured stream: raw SSE (event:/data: lines), one JSON event per line, a JSON array of events, or (bedrock.converse, bedrock.invoke) the raw AWS event-stream body; Ollama NDJSON is read as JSON lines.',
    },
    'max-body-bytes': {
      type: 'integer',
      default: STREAM_LIMITS.maxBodyBytes,
      min: 1,
      valueName: 'N',
      description: `Largest body read, in bytes; a larger one is an INVALID_PROVIDER_RESPONSE failure naming the bound.`,
    },
    'max-stream-bytes': {
      type: 'integer',
      default: STREAM_LIMITS.maxStreamBytes,
      min: 1,
      valueName: 'N',
      description: `With --stream: largest stream read, in bytes.`,
    },
    'max-event-bytes': {
      type: 'integer',
      default: STREAM_LIMITS.maxEventBytes,
      min: 1,
      valueName: 'N',
      description: `With --stream: largest line or event, in bytes.`,
    },
    'max-events': {
      type: 'integer',
      default: STREAM_LIMITS.maxEvents,
      min: 1,
      valueName: 'N',
      description: `With --stream: most events.`,
    },
  },
  positionals: [{ name: 'FILE', description: 'The provider body, or - for standard input.' }],
  errorCodes: {
    invalid_arguments: 'The command line is wrong.',
    invalid_json_input: 'FILE could not be read (details.read_error says why); exit 1, as in every command.',
    ...ENVELOPE_FAILURES,
  },
  async run({ options, positionals }, ctx) {
    const file = positionals[0] ?? '-';
    const format = options.format;
    if (options.stream && !STREAM_FORMATS.includes(format)) {
      return usageError(
        `${format} has no streaming form.`,
        `--stream works with ${STREAM_FORMATS.join(', ')}.`,
      );
    }
    const provider = options.provider;
    if (provider !== undefined && !isProviderId(provider)) {
      return usageError(
        `Invalid --provider ${JSON.stringify(provider)}.`,
        '--provider must be a lowercase id: letters, digits, ".", "_" and "-", starting with a letter or digit.',
      );
    }
    const headers = readHeaderLines(options.header);
    if (!headers.ok) return usageError(`Invalid --header: ${headers.message}`, headers.message);
    const requestHeaders = readHeaderLines(options['request-header']);
    if (!requestHeaders.ok)
      return usageError(`Invalid --request-header: ${requestHeaders.message}`, requestHeaders.message);
    const traceId = options['trace-id'] ?? traceIdFrom(requestHeaders.headers);
    if (traceId.trim() === '') return usageError('--trace-id is empty.', 'Give a non-empty --trace-id.');
    if (file === '-' && ctx.io.stdin.isTTY) {
      return usageError(
        'No input: give a FILE, or pipe a provider body into standard input.',
        'Standard input is a terminal and no FILE was given.',
      );
    }
    const limits = {
      maxBodyBytes: options['max-body-bytes'],
      maxStreamBytes: options['max-stream-bytes'],
      maxEventBytes: options['max-event-bytes'],
      maxEvents: options['max-events'],
    };
    const stream = options.stream === true;
    const input = await readProviderInput(file, ctx.io, {
      stream,
      // Bedrock's streams are AWS event-stream bytes, which are read as bytes, not lines.
      binary: BINARY_STREAM_FORMATS.includes(format),
      limits,
    });
    const common = { format, status: options.status ?? 200, headers: headers.headers, traceId, provider };
    let envelope: UnifiedOutput;
    if (input.ok) {
      envelope = stream
        ? normalizeStream({ ...common, events: input.bytes })
        : normalizeResponse({ ...common, body: input.bytes });
    } else if (input.exceeded) {
      // An answer past a bound is the provider's failure, reported as an envelope like any other.
      envelope = normalizeLimitExceeded({ ...common, exceeded: input.exceeded });
    } else {
      // An input that cannot be read is the same failure in every command (docs/cli.md, "Exit status"): exit 1.
      return fail(`${file === '-' ? 'Standard input' : file} could not be read.`, {
        error: `${input.error.reason}: ${input.error.message}`,
        error_code: 'invalid_json_input',
        details: { file, read_error: input.error },
      });
    }
    if (envelope.success) return ok(`Normalized a ${format} success.`, { envelope });
    return fail(`Normalized a ${format} failure: ${envelope.error.message}`, {
      error: `${envelope.error.code}: ${envelope.error.message}`,
      error_code: envelope.error.code.toLowerCase(),
      envelope,
    });
  },
  // The envelope is what this command produces (see docs/unified.md, "CLI"): it is printed instead of the contract result.
  product: (result) => (result as { envelope?: unknown }).envelope,
});
