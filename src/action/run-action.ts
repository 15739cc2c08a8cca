import { appendFileSync, mkdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { EVIDENCE_PROFILES, isEvidenceProfile, RECEIPT_SCHEMA_URL } from '../evidence/codes.js';
import type { Receipt } from '../evidence/create-receipt.js';
import { serializeReceipt } from '../evidence/create-receipt.js';
import { nodeSha256Hex } from '../evidence/node-sha256-hex.js';
import { outputSchemaModeOf } from '../evidence/output-schema-mode-of.js';
import { produceReceipt } from '../evidence/produce-receipt.js';
import { confinePath } from './confine-path.js';
import { renderSummary } from './render-summary.js';

/** Exit statuses of the Action: conformant, not conformant, refused input (SPEC §4). */
export const ACTION_EXIT = { conformant: 0, notConformant: 1, refused: 2 } as const;

/** The default report path of the Action. */
export const DEFAULT_REPORT = 'qzx-result-contract-conformance.json';

/** What the Action touches: its environment (as the runner sets it) and two log streams. */
export interface ActionIo {
  /** `INPUT_*`, `GITHUB_WORKSPACE`, `GITHUB_OUTPUT`, `GITHUB_STEP_SUMMARY`. */
  env: Record<string, string | undefined>;
  /** The step log. */
  stdout: { write(chunk: string): unknown };
  /** Where refusals and failures are announced. */
  stderr: { write(chunk: string): unknown };
  /** The published contract schema's bytes, whose digest becomes an output; default: read beside the bundle. */
  contractSchema?: Uint8Array | null;
}

class Refusal extends Error {}

// The runner exposes input `tool-definition` as INPUT_TOOL-DEFINITION; accept the underscore form too.
function input(env: ActionIo['env'], name: string): string {
  const upper = name.toUpperCase();
  const value = env[`INPUT_${upper}`] ?? env[`INPUT_${upper.replace(/-/g, '_')}`] ?? '';
  if (/[\r\n]/.test(value)) throw new Refusal(`Input ${name} contains a line break; give a single line.`);
  return value.trim();
}

function readContractSchema(): Uint8Array | null {
  try {
    // The bundle sits at action/dist/, the sources at src/action/: both are two levels below the repository.
    return new Uint8Array(
      readFileSync(new URL('../../schemas/result-contract-v1.schema.json', import.meta.url)),
    );
  } catch {
    return null;
  }
}

function workspaceOf(env: ActionIo['env']): string {
  const raw = env.GITHUB_WORKSPACE;
  if (raw === undefined || raw.trim() === '') throw new Refusal('GITHUB_WORKSPACE is not set.');
  try {
    const real = realpathSync(raw);
    if (!statSync(real).isDirectory()) throw new Error('not a directory');
    return real;
  } catch {
    throw new Refusal(`GITHUB_WORKSPACE (${JSON.stringify(raw)}) is not a directory.`);
  }
}

/**
 * Runs the GitHub Action in-process: reads its inputs from `INPUT_*`, confines every path to the workspace,
 * writes the receipt, the step outputs and the job summary, and returns the exit status (0 conformant,
 * 1 not conformant, 2 refused). Never calls `process.exit`.
 * @example
 * const status = runAction({ env: process.env, stdout: process.stdout, stderr: process.stderr });
 */
export function runAction(io: ActionIo): number {
  const { env } = io;
  let receipt: Receipt;
  let profile: (typeof EVIDENCE_PROFILES)[number];
  let report: string;
  try {
    const raw = {
      profile: input(env, 'profile') || 'core',
      success: input(env, 'success'),
      failure: input(env, 'failure'),
      toolDefinition: input(env, 'tool-definition'),
      report: input(env, 'report') || DEFAULT_REPORT,
    };
    if (!isEvidenceProfile(raw.profile)) {
      throw new Refusal(
        `Input profile must be one of ${EVIDENCE_PROFILES.join(', ')}; got ${JSON.stringify(raw.profile)}.`,
      );
    }
    profile = raw.profile;
    if (raw.success === '') throw new Refusal('Input success is required: the file that must say success.');
    if (raw.failure === '') throw new Refusal('Input failure is required: the file that must say failure.');
    const workspace = workspaceOf(env);
    const paths: [string, string][] = [
      ['success', raw.success],
      ['failure', raw.failure],
      ...(raw.toolDefinition === '' ? [] : ([['tool-definition', raw.toolDefinition]] as [string, string][])),
      ['report', raw.report],
    ];
    for (const [name, value] of paths) {
      const confined = confinePath(workspace, name, value);
      if (!confined.ok) throw new Refusal(confined.message);
    }
    report = raw.report;
    // A report folder that does not exist yet is created (inside the workspace, checked above).
    try {
      mkdirSync(dirname(resolve(workspace, report)), { recursive: true });
    } catch {
      // The write below fails and says so in the receipt (receipt_write_failed).
    }
    receipt = produceReceipt({
      profile,
      success: raw.success,
      failure: raw.failure,
      toolDefinition: raw.toolDefinition === '' ? undefined : raw.toolDefinition,
      report,
      cwd: workspace,
    });
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    io.stderr.write(`::error title=Input refused::${error.message}\n`);
    return ACTION_EXIT.refused;
  }

  const schemaBytes = io.contractSchema === undefined ? readContractSchema() : io.contractSchema;
  const contractSchemaSha256 = schemaBytes === null ? '' : nodeSha256Hex(schemaBytes);
  const mode = outputSchemaModeOf(receipt);
  const outputs: Record<string, string> = {
    report,
    conformant: String(receipt.success),
    profile,
    receipt_schema: RECEIPT_SCHEMA_URL,
    contract_schema_sha256: contractSchemaSha256,
    output_schema_mode: mode,
  };
  // Every value is one line (inputs with line breaks were refused), so the plain name=value form is safe.
  if (env.GITHUB_OUTPUT) {
    appendFileSync(
      env.GITHUB_OUTPUT,
      Object.entries(outputs)
        .map(([k, v]) => `${k}=${v}\n`)
        .join(''),
    );
  }
  if (env.GITHUB_STEP_SUMMARY)
    appendFileSync(env.GITHUB_STEP_SUMMARY, renderSummary(receipt, mode, contractSchemaSha256));
  io.stdout.write(serializeReceipt(receipt));
  if (receipt.success) return ACTION_EXIT.conformant;
  io.stderr.write(`::error title=Not conformant::${receipt.message}\n`);
  return ACTION_EXIT.notConformant;
}
