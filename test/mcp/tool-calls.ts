import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Arguments that make a tool succeed and arguments that make it fail, or why the failure cannot be reached. */
export interface ToolCase {
  /** Arguments of a call that succeeds. */
  success: Record<string, unknown>;
  /** Arguments of a call that fails with a contract failure, or the reason none exists through the server. */
  failure: { args: Record<string, unknown>; errorCode: string } | { skip: string };
}

/** A folder with one small text file, for the file tools. */
export function makeWorkspace(): string {
  const root = mkdtempSync(join(tmpdir(), 'verdict-mcp-'));
  mkdirSync(join(root, 'docs'));
  writeFileSync(join(root, 'docs', 'note.txt'), 'verdict\n');
  return root;
}

const MCP_SUCCESS = {
  content: [{ type: 'text', text: '{"success":true,"message":"Done."}' }],
  structuredContent: { success: true, message: 'Done.' },
  resultType: 'complete',
};

/** One success and one failure per served tool; `dns` is the `host:port` of a test DNS responder. */
export function toolCases(root: string, dns: string): Record<string, ToolCase> {
  const note = join(root, 'docs', 'note.txt');
  const missing = join(root, 'missing');
  return {
    getCurrentDateTime: {
      success: { timezone: 'UTC', 'output-format': 'rfc3339' },
      failure: { args: { timezone: 'Nowhere/Else' }, errorCode: 'unknown_timezone' },
    },
    findFiles: {
      success: { root, pattern: '*.txt' },
      failure: { args: { root: missing, pattern: '*' }, errorCode: 'path_not_found' },
    },
    readFile: {
      success: { path: note },
      failure: { args: { path: missing }, errorCode: 'path_not_found' },
    },
    calculateFileHash: {
      success: { path: note, algorithm: 'sha256' },
      failure: { args: { path: join(root, 'docs') }, errorCode: 'is_a_directory' },
    },
    getDiskSpace: {
      success: { path: root },
      failure: { args: { path: missing }, errorCode: 'path_not_found' },
    },
    listProcesses: {
      success: { limit: 3 },
      failure: {
        skip: 'On Linux no argument makes listProcesses fail; its failures (unsupported_platform, proc_unavailable) are reached through createListProcesses in its own tests.',
      },
    },
    checkDns: {
      success: { name: 'verdict.test', type: 'A', server: dns },
      failure: { args: { name: 'missing.test', type: 'A', server: dns }, errorCode: 'dns_name_not_found' },
    },
    validate_result: {
      success: { document: { success: true, message: 'Done.' } },
      failure: {
        args: { text: '{"success":true,"message":"Done.","error":null}' },
        errorCode: 'contract_violation',
      },
    },
    validate_mcp_result: {
      success: { document: MCP_SUCCESS, revision: '2026-07-28' },
      failure: {
        args: { document: { ...MCP_SUCCESS, resultType: undefined }, revision: '2026-07-28' },
        errorCode: 'mcp_profile_violation',
      },
    },
  };
}
