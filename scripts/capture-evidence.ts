/**
 * `npm run evidence`: captures one real success and one real failure of `verdict mcp serve` for each MCP
 * profile, as the raw JSON-RPC responses a real SDK client received, with the tool definition the server
 * listed, and writes a Conformance Receipt v1 for each pair with `verdict evidence`.
 *
 * The calls use `validate_result`, whose results carry no time or duration, so a capture is reproducible.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioClientTransportV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { responsesTo, tapTransport, type WireMessage } from '../test/helpers/wire-tap.js';

/** The MCP evidence profiles and the client that speaks each. */
export const EVIDENCE_CLIENTS = {
  'mcp-2025-06-18': 'the v1 SDK client (@modelcontextprotocol/sdk) asking for 2025-06-18',
  'mcp-2025-11-25': 'the v2 SDK client (@modelcontextprotocol/client) in legacy mode',
  'mcp-2026-07-28': 'the v2 SDK client pinned to 2026-07-28',
} as const;

/** One of {@link EVIDENCE_CLIENTS}. */
export type EvidenceProfileName = keyof typeof EVIDENCE_CLIENTS;

/** The tool the evidence calls and its two calls. */
export const EVIDENCE_CALLS = {
  tool: 'validate_result',
  success: { document: { success: true, message: 'The backup finished.', details: { files: 3 } } },
  failure: { document: { success: true, message: 'The backup finished.', error_code: 'disk_full' } },
} as const;

interface Session {
  client: { connect(t: unknown): Promise<void>; close(): Promise<void> } & Record<string, unknown>;
  transport: unknown;
}

function openSession(
  profile: EvidenceProfileName,
  cli: string,
): { session: Session; tap: ReturnType<typeof tapTransport> } {
  const server = { command: process.execPath, args: [cli, 'mcp', 'serve'], stderr: 'pipe' as const };
  const info = { name: 'verdict-evidence', version: '1.0.0' };
  if (profile === 'mcp-2025-06-18') {
    const tap = tapTransport(new StdioClientTransportV1(server), { initializeVersion: '2025-06-18' });
    return { session: { client: new ClientV1(info) as never, transport: tap.transport }, tap };
  }
  const tap = tapTransport(new StdioClientTransport(server));
  const mode = profile === 'mcp-2026-07-28' ? { pin: '2026-07-28' } : ('legacy' as const);
  return {
    session: {
      client: new Client(info, { versionNegotiation: { mode } }) as never,
      transport: tap.transport,
    },
    tap,
  };
}

function write(path: string, value: unknown): void {
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
}

/**
 * Captures the evidence of one profile into `folder` (`success.json`, `failure.json`, `tool-definition.json`)
 * and writes `receipt.json` with `verdict evidence`; returns the exit status of `verdict evidence`.
 */
export async function captureProfile(
  profile: EvidenceProfileName,
  folder: string,
  cli: string,
): Promise<number> {
  const { session, tap } = openSession(profile, cli);
  const client = session.client as unknown as {
    connect(t: unknown): Promise<void>;
    listTools(): Promise<unknown>;
    callTool(p: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
    close(): Promise<void>;
  };
  try {
    // Inside the try: a failed connect still closes the client, which stops the server child.
    await client.connect(session.transport);
    await client.listTools();
    await client.callTool({ name: EVIDENCE_CALLS.tool, arguments: EVIDENCE_CALLS.success });
    await client.callTool({ name: EVIDENCE_CALLS.tool, arguments: EVIDENCE_CALLS.failure });
  } finally {
    await client.close();
  }
  const listed = responsesTo(tap, 'tools/list')[0]?.response.result as { tools: WireMessage[] };
  const [success, failure] = responsesTo(tap, 'tools/call').map(({ response }) => response);
  mkdirSync(folder, { recursive: true });
  write(
    join(folder, 'tool-definition.json'),
    listed.tools.find((t) => t.name === EVIDENCE_CALLS.tool),
  );
  write(join(folder, 'success.json'), success);
  write(join(folder, 'failure.json'), failure);
  const receipt = spawnSync(
    process.execPath,
    [
      cli,
      'evidence',
      '--profile',
      profile,
      '--success',
      'success.json',
      '--failure',
      'failure.json',
      '--tool-definition',
      'tool-definition.json',
      '--report',
      'receipt.json',
      '--json',
    ],
    { cwd: folder, encoding: 'utf8' },
  );
  return receipt.status ?? 1;
}

/** Captures every profile into `<root>/<profile>/`; resolves with the profiles whose receipt did not pass. */
export async function captureEvidence(root: string, cli: string): Promise<string[]> {
  const failed: string[] = [];
  for (const profile of Object.keys(EVIDENCE_CLIENTS) as EvidenceProfileName[]) {
    const status = await captureProfile(profile, join(root, profile), cli);
    if (status !== 0) failed.push(profile);
  }
  return failed;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const failed = await captureEvidence(resolve('evidence'), resolve('dist/cli/main.js'));
  for (const profile of Object.keys(EVIDENCE_CLIENTS)) {
    process.stderr.write(
      `evidence/${profile}: ${failed.includes(profile) ? 'NOT conformant' : 'conformant'}\n`,
    );
  }
  process.exitCode = failed.length === 0 ? 0 : 1;
}
