import { fail } from '../../contract/builders.js';
import type { ResultContract } from '../../contract/types.js';
import { readJson } from '../../json/read-json.js';
import type { ReadError } from '../../json/types.js';
import { DEFAULT_MCP_REVISION, MCP_REVISIONS } from '../../mcp/codes.js';
import { MCP_PROFILE_VIOLATION, toMcpReportResult } from '../../mcp/to-mcp-report-result.js';
import { type ValidateMcpOptions, validateMcpResult } from '../../mcp/validate-mcp-result.js';
import { defineCommand } from '../../producer/define-command.js';
import { inputLabel, readInput } from '../../producer/read-input.js';
import { renderHeadline, renderMember, renderWarnings } from '../../producer/render.js';
import type { CommandIo, RenderContext } from '../../producer/types.js';
import { type PlacedFinding, placeFindings, renderFinding, renderReadError } from '../source-places.js';
import type { SubcommandGroup } from '../subcommands.js';

type Read =
  | { ok: true; value: unknown; bytes: Uint8Array; read: Extract<ReturnType<typeof readJson>, { ok: true }> }
  | { ok: false; error: ReadError };

async function readDocument(file: string, io: CommandIo): Promise<Read> {
  const input = await readInput(file, io);
  if (!input.ok) return input;
  const read = readJson(input.bytes);
  return read.ok ? { ok: true, value: read.value, bytes: input.bytes, read } : read;
}

/** True for a finding about the tool definition rather than the tool result. */
function aboutToolDefinition(finding: PlacedFinding): boolean {
  return (
    finding.path.startsWith('/outputSchema') ||
    finding.code.startsWith('tool_definition_') ||
    finding.code.startsWith('output_schema_')
  );
}

/** Details that are the command's own bookkeeping, not facts a person reads. */
const QUIET_DETAILS = ['file', 'tool_definition', 'contract', 'mcp_tools_spec', 'read_error'];

/**
 * `verdict mcp` for people: each violation as `FILE:LINE:COL code message` (in the tool result or the tool
 * definition), then the summary once, with the profile's facts and the warnings under it.
 */
function renderMcpReport(result: ResultContract, context: RenderContext): string {
  const details = result.details ?? {};
  const file = typeof details.file === 'string' ? details.file : '-';
  const toolFile = typeof details.tool_definition === 'string' ? details.tool_definition : file;
  const violations = (Array.isArray(details.violations) ? details.violations : []) as PlacedFinding[];
  const lines = violations.map((v) => renderFinding(aboutToolDefinition(v) ? toolFile : file, v, context));
  const readError = details.read_error as ReadError | undefined;
  if (readError !== undefined) lines.push(renderReadError(file, readError, context));
  lines.push(renderHeadline(result, context.style));
  for (const [key, value] of Object.entries(details)) {
    if (key !== 'violations' && !QUIET_DETAILS.includes(key))
      lines.push(...renderMember(key, value, context));
  }
  lines.push(...renderWarnings(result.warnings, context.style));
  return `${lines.join('\n')}\n`;
}

function unreadable(file: string, role: string, error: ReadError): ResultContract {
  const label = inputLabel(file);
  return fail(`The ${role} (${label}) could not be read as one strict JSON document.`, {
    error: `${error.reason}: ${error.message}`,
    error_code: 'invalid_json_input',
    details: { file, read_error: error },
  });
}

/** `verdict mcp`: checks one MCP tool result against the QZX Result Contract v1 profile of an MCP revision. */
export const mcpCommand = defineCommand({
  name: 'mcp',
  description:
    'Check one MCP tool result (a bare CallToolResult or a JSON-RPC response, from FILE or standard input) against the QZX Result Contract v1 profile of an MCP revision, and classify the tool outputSchema when a tool definition is given. To run the MCP server instead: verdict mcp serve (see verdict mcp serve --help).',
  options: {
    'spec-version': {
      type: 'string',
      description: 'MCP revision whose rules apply.',
      choices: MCP_REVISIONS,
      default: DEFAULT_MCP_REVISION,
      valueName: 'REVISION',
    },
    'tool-definition': {
      type: 'string',
      description: 'JSON file with the MCP tool definition whose outputSchema is classified.',
      valueName: 'FILE',
    },
  },
  positionals: [{ name: 'FILE', description: 'The tool result, or - for standard input (the default).' }],
  errorCodes: {
    [MCP_PROFILE_VIOLATION]: 'The tool result (or its tool definition) does not conform to the MCP profile.',
    invalid_json_input:
      'An input could not be read as one strict JSON document (details.read_error says why).',
    invalid_arguments: 'The command line is wrong.',
  },
  render: renderMcpReport,
  async run({ options, positionals }, ctx) {
    const file = positionals[0] ?? '-';
    if (file === '-' && ctx.io.stdin.isTTY) {
      return fail('No input: give a FILE, or pipe a tool result into standard input.', {
        error: 'Standard input is a terminal and no FILE was given.',
        error_code: 'invalid_arguments',
      });
    }
    const document = await readDocument(file, ctx.io);
    if (!document.ok) return unreadable(file, 'tool result', document.error);
    const validateOptions: ValidateMcpOptions = {
      revision: options['spec-version'],
      duplicates: document.read.duplicates,
      readWarnings: document.read.warnings,
    };
    const toolFile = options['tool-definition'];
    let tool: Read | undefined;
    if (toolFile !== undefined) {
      tool = await readDocument(toolFile, ctx.io);
      if (!tool.ok) return unreadable(toolFile, 'tool definition', tool.error);
      validateOptions.toolDefinition = tool.value;
      validateOptions.toolDefinitionDuplicates = tool.read.duplicates;
    }
    const report = validateMcpResult(document.value, validateOptions);
    const findings = [...report.violations, ...report.warnings];
    placeFindings(
      ctx,
      file,
      document.bytes,
      findings.filter((finding) => !aboutToolDefinition(finding)),
    );
    if (toolFile !== undefined && tool?.ok) {
      placeFindings(ctx, toolFile, tool.bytes, findings.filter(aboutToolDefinition));
    }
    const result = toMcpReportResult(report);
    return {
      ...result,
      details: { file, ...(toolFile === undefined ? {} : { tool_definition: toolFile }), ...result.details },
    };
  },
});

/** `verdict mcp`: checks a tool result, or with `serve` runs the MCP server (which has no result to print). */
export const mcpGroup: SubcommandGroup = {
  description: mcpCommand.description,
  noun: 'command',
  fallback: mcpCommand,
  subcommands: [
    {
      name: 'serve',
      summary: 'Serve the reference commands and the validators as MCP tools (stdio or Streamable HTTP).',
      load: async () => ({ handler: (await import('./mcp-serve.js')).runMcpServe }),
      needs: ['@modelcontextprotocol/server'],
    },
  ],
};
