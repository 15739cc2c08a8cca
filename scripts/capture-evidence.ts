/**
 * `npm run evidence`: captures one real success and one real failure of an MCP server for each evidence folder,
 * as the raw JSON-RPC responses a real SDK client received, with the tool definition the server listed, and
 * writes a Conformance Receipt v1 for each pair with `verdict evidence`. The servers are `verdict mcp serve`
 * (the 2.x SDK, one folder per MCP profile) and `examples/mcp-sdk-v1-server.mjs` (an `@modelcontextprotocol/sdk`
 * 1.x server using `verdict/mcp/sdk-v1`).
 *
 * The calls use tools whose results carry no time or duration, so a capture is reproducible.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioClientTransportV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { EvidenceProfile } from '../src/evidence/codes.js';
import { responsesTo, tapTransport, type WireMessage } from '../test/helpers/wire-tap.js';

/** The client of a capture: the v1 SDK asking for 2025-06-18, or the v2 SDK in legacy mode or pinned. */
type ClientKind = 'v1-2025-06-18' | 'v2-legacy' | 'v2-2026-07-28';

/** One tool and the arguments of its success call and of its failure call. */
interface EvidenceCalls {
  tool: string;
  success: Record<string, unknown>;
  failure: Record<string, unknown>;
}

/** The tool `verdict mcp serve` is called with, and its two calls. */
export const EVIDENCE_CALLS = {
  tool: 'validate_result',
  success: { document: { success: true, message: 'The backup finished.', details: { files: 3 } } },
  failure: { document: { success: true, message: 'The backup finished.', error_code: 'disk_full' } },
} as const;

/** The call the v1 example server is called with, and its two calls. */
const V1_EXAMPLE_CALLS: EvidenceCalls = {
  tool: 'divide',
  success: { a: 6, b: 3 },
  failure: { a: 6, b: 0 },
};

/** What each evidence folder holds: the profile it is checked under, who answered and who asked. */
export const EVIDENCE_CAPTURES = {
  'mcp-2025-06-18': {
    profile: 'mcp-2025-06-18',
    server: 'verdict mcp serve',
    client: 'v1-2025-06-18',
    calls: EVIDENCE_CALLS,
  },
  'mcp-2025-11-25': {
    profile: 'mcp-2025-11-25',
    server: 'verdict mcp serve',
    client: 'v2-legacy',
    calls: EVIDENCE_CALLS,
  },
  'mcp-2026-07-28': {
    profile: 'mcp-2026-07-28',
    server: 'verdict mcp serve',
    client: 'v2-2026-07-28',
    calls: EVIDENCE_CALLS,
  },
  'sdk-v1-server-mcp-2025-11-25': {
    profile: 'mcp-2025-11-25',
    server: 'examples/mcp-sdk-v1-server.mjs',
    client: 'v2-legacy',
    calls: V1_EXAMPLE_CALLS,
  },
} as const satisfies Record<
  string,
  { profile: EvidenceProfile; server: string; client: ClientKind; calls: EvidenceCalls }
>;

/** One folder of {@link EVIDENCE_CAPTURES}. */
export type EvidenceFolder = keyof typeof EVIDENCE_CAPTURES;

interface Session {
  client: { connect(t: unknown): Promise<void>; close(): Promise<void> } & Record<string, unknown>;
  transport: unknown;
}

function openSession(
  folder: EvidenceFolder,
  cli: string,
): { session: Session; tap: ReturnType<typeof tapTransport> } {
  const capture = EVIDENCE_CAPTURES[folder];
  const example = join(dirname(cli), '..', '..', capture.server);
  const server = {
    command: process.execPath,
    args: capture.server === 'verdict mcp serve' ? [cli, 'mcp', 'serve'] : [example],
    stderr: 'pipe' as const,
  };
  const info = { name: 'verdict-evidence', version: '1.0.0' };
  if (capture.client === 'v1-2025-06-18') {
    const tap = tapTransport(new StdioClientTransportV1(server), { initializeVersion: '2025-06-18' });
    return { session: { client: new ClientV1(info) as never, transport: tap.transport }, tap };
  }
  const tap = tapTransport(new StdioClientTransport(server));
  const mode = capture.client === 'v2-2026-07-28' ? { pin: '2026-07-28' } : ('legacy' as const);
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
 * Captures the evidence of one capture into `folder` (`success.json`, `failure.json`, `tool-definition.json`)
 * and writes `receipt.json` with `verdict evidence`; returns the exit status of `verdict evidence`.
 */
export async function captureFolder(name: EvidenceFolder, folder: string, cli: string): Promise<number> {
  const { profile, calls } = EVIDENCE_CAPTURES[name];
  const { session, tap } = openSession(name, cli);
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
    await client.callTool({ name: calls.tool, arguments: calls.success });
    await client.callTool({ name: calls.tool, arguments: calls.failure });
  } finally {
    await client.close();
  }
  const listed = responsesTo(tap, 'tools/list')[0]?.response.result as { tools: WireMessage[] };
  const [success, failure] = responsesTo(tap, 'tools/call').map(({ response }) => response);
  mkdirSync(folder, { recursive: true });
  write(
    join(folder, 'tool-definition.json'),
    listed.tools.find((t) => t.name === calls.tool),
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

/** Captures every folder into `<root>/<folder>/`; resolves with the folders whose receipt did not pass. */
export async function captureEvidence(root: string, cli: string): Promise<string[]> {
  const failed: string[] = [];
  for (const name of Object.keys(EVIDENCE_CAPTURES) as EvidenceFolder[]) {
    const status = await captureFolder(name, join(root, name), cli);
    if (status !== 0) failed.push(name);
  }
  return failed;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const failed = await captureEvidence(resolve('evidence'), resolve('dist/cli/main.js'));
  for (const name of Object.keys(EVIDENCE_CAPTURES)) {
    process.stderr.write(`evidence/${name}: ${failed.includes(name) ? 'NOT conformant' : 'conformant'}\n`);
  }
  process.exitCode = failed.length === 0 ? 0 : 1;
}
