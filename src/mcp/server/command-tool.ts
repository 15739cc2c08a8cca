import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { fail } from '../../contract/builders.js';
import { ensureResult } from '../../contract/ensure-result.js';
import type { ResultContract } from '../../contract/types.js';
import { describeThrown, withMeta } from '../../producer/run-command.js';
import type {
  CommandContext,
  CommandDefinition,
  CommandIo,
  OptionSpec,
  OptionSpecs,
  OutputStream,
} from '../../producer/types.js';
import { argumentsToOptions, optionsInputSchema } from '../options-input-schema.js';
import { type ContractTool, DEFAULT_MAX_RESULT_BYTES } from './register-contract-tool.js';

/** Options of {@link commandTool}. */
export interface CommandToolOptions {
  /** Where the command's progress, logs and any stray stdout go; default: `process.stderr`. */
  log?: OutputStream;
  /** Working directory relative paths resolve against; default: `process.cwd()`. */
  cwd?: string;
  /** Environment the command sees; default: `process.env`. */
  env?: Record<string, string | undefined>;
  /**
   * The result limit of the server the tool is served on (see `registerContractTool`). A command's
   * `max-bytes` option, which bounds what it reads, is capped to it, so a read whose content could never be
   * answered is refused before anything is read.
   */
  maxResultBytes?: number;
}

/** A command's options with its `max-bytes` option (maximum and default) capped to `limit`. */
function capReadLimit(options: OptionSpecs, limit: number | undefined): OptionSpecs {
  const spec = options['max-bytes'];
  if (limit === undefined || spec === undefined || spec.type !== 'integer') return options;
  const max = Math.min(spec.max ?? limit, limit);
  const capped: OptionSpec = { ...spec, max };
  if (typeof spec.default === 'number') capped.default = Math.min(spec.default, max);
  return { ...options, 'max-bytes': capped };
}

/**
 * Makes an MCP tool of a command definition: the input schema comes from its options
 * ({@link optionsInputSchema}), the output schema from its `outputSchema`, and each call runs it as the CLI
 * would with `--json` (same `meta`, same guard) — except that nothing reaches stdout, which may be the MCP
 * stdio channel.
 */
export function commandTool(definition: CommandDefinition, options: CommandToolOptions = {}): ContractTool {
  const log = options.log ?? process.stderr;
  const specs = capReadLimit(definition.options, options.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES);
  const tool: ContractTool = {
    name: definition.name,
    description: definition.description,
    inputSchema: optionsInputSchema(specs),
    async run(args, { signal }) {
      const io: CommandIo = {
        // A command that prints is misbehaving; on stdio its output would corrupt the protocol stream.
        stdout: log,
        stderr: log,
        stdin: Readable.from([]),
        env: options.env ?? process.env,
        cwd: options.cwd ?? process.cwd(),
        now: () => performance.now(),
        signal,
      };
      const ctx: CommandContext = {
        progress: (message) => log.write(`${definition.name}: ${message}\n`),
        log: (message) => log.write(`${definition.name}: ${message}\n`),
        signal,
        io,
        json: true,
      };
      const started = io.now();
      let outcome: unknown;
      try {
        outcome = await definition.run(
          { options: argumentsToOptions(specs, args) as never, positionals: [] },
          ctx,
        );
      } catch (thrown) {
        outcome = fail(`${definition.name} failed unexpectedly.`, {
          error: describeThrown(thrown),
          error_code: 'unexpected_error',
        });
      }
      const result = ensureResult(outcome) as ResultContract;
      return ensureResult(withMeta(result, definition.name, io.now() - started)) as ResultContract;
    },
  };
  if (definition.outputSchema !== undefined) tool.outputSchema = definition.outputSchema;
  return tool;
}
