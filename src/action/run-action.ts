import { appendFileSync, mkdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import {
  EVIDENCE_PROFILES,
  type EvidenceProfile,
  isEvidenceProfile,
  RECEIPT_SCHEMA_URL,
} from '../evidence/codes.js';
import { serializeReceipt } from '../evidence/create-receipt.js';
import { nodeSha256Hex } from '../evidence/node-sha256-hex.js';
import { outputSchemaModeOf } from '../evidence/output-schema-mode-of.js';
import { produceReceipt } from '../evidence/produce-receipt.js';
import { confinePath } from './confine-path.js';
import { renderSummary } from './render-summary.js';

/** Exit statuses of the Action: conformant, not conformant, refused input (see docs/conformance.md). */
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

/** A value the Action can use, or why the input was refused. */
type Checked<T> = { ok: true; value: T } | { ok: false; message: string };

const refuse = (message: string): { ok: false; message: string } => ({ ok: false, message });

/** The Action's inputs, by their names in action.yml. */
const INPUT_NAMES = ['profile', 'success', 'failure', 'tool-definition', 'report'] as const;

/** The Action's inputs, trimmed; one with a line break is refused (it could forge a step output). */
function readInputs(env: ActionIo['env']): Checked<Record<(typeof INPUT_NAMES)[number], string>> {
  const values = {} as Record<(typeof INPUT_NAMES)[number], string>;
  for (const name of INPUT_NAMES) {
    // The runner exposes input `tool-definition` as INPUT_TOOL-DEFINITION; accept the underscore form too.
    const upper = name.toUpperCase();
    const value = env[`INPUT_${upper}`] ?? env[`INPUT_${upper.replace(/-/g, '_')}`] ?? '';
    if (/[\r\n]/.test(value)) return refuse(`Input ${name} contains a line break; give a single line.`);
    values[name] = value.trim();
  }
  return { ok: true, value: values };
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

function workspaceOf(env: ActionIo['env']): Checked<string> {
  const raw = env.GITHUB_WORKSPACE;
  if (raw === undefined || raw.trim() === '') return refuse('GITHUB_WORKSPACE is not set.');
  try {
    const real = realpathSync(raw);
    if (statSync(real).isDirectory()) return { ok: true, value: real };
  } catch {
    // Missing or unreadable: refused below, like a file.
  }
  return refuse(`GITHUB_WORKSPACE (${JSON.stringify(raw)}) is not a directory.`);
}

/** What the Action will do, once every input has been checked. */
interface ActionPlan {
  profile: EvidenceProfile;
  success: string;
  failure: string;
  toolDefinition: string | undefined;
  report: string;
  workspace: string;
}

/** Checks every input and confines every path to the workspace; the first problem refuses the run. */
function planAction(env: ActionIo['env']): Checked<ActionPlan> {
  const inputs = readInputs(env);
  if (!inputs.ok) return inputs;
  const raw = inputs.value;
  const profile = raw.profile || 'core';
  const report = raw.report || DEFAULT_REPORT;
  if (!isEvidenceProfile(profile)) {
    return refuse(
      `Input profile must be one of ${EVIDENCE_PROFILES.join(', ')}; got ${JSON.stringify(profile)}.`,
    );
  }
  if (raw.success === '') return refuse('Input success is required: the file that must say success.');
  if (raw.failure === '') return refuse('Input failure is required: the file that must say failure.');
  const workspace = workspaceOf(env);
  if (!workspace.ok) return workspace;
  const toolDefinition = raw['tool-definition'] === '' ? undefined : raw['tool-definition'];
  const paths: [string, string | undefined][] = [
    ['success', raw.success],
    ['failure', raw.failure],
    ['tool-definition', toolDefinition],
    ['report', report],
  ];
  for (const [name, value] of paths) {
    if (value === undefined) continue;
    const confined = confinePath(workspace.value, name, value);
    if (!confined.ok) return confined;
  }
  return {
    ok: true,
    value: {
      profile,
      success: raw.success,
      failure: raw.failure,
      toolDefinition,
      report,
      workspace: workspace.value,
    },
  };
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
  const plan = planAction(env);
  if (!plan.ok) {
    io.stderr.write(`::error title=Input refused::${plan.message}\n`);
    return ACTION_EXIT.refused;
  }
  const { profile, report, workspace } = plan.value;
  // A report folder that does not exist yet is created (inside the workspace, checked above).
  try {
    mkdirSync(dirname(resolve(workspace, report)), { recursive: true });
  } catch {
    // The write below fails and says so in the receipt (receipt_write_failed).
  }
  const receipt = produceReceipt({
    profile,
    success: plan.value.success,
    failure: plan.value.failure,
    toolDefinition: plan.value.toolDefinition,
    report,
    cwd: workspace,
  });

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
