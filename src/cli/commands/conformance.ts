import type { ResultContract } from '../../contract/types.js';
import {
  runConformanceSuite,
  SUITE_ERROR_CODES,
  type SuiteCaseOutcome,
} from '../../evidence/run-conformance-suite.js';
import { defineCommand } from '../../producer/define-command.js';
import {
  renderChecklist,
  renderErrorLine,
  renderHeadline,
  renderMember,
  renderViolations,
  renderWarnings,
} from '../../producer/render.js';
import type { RenderContext } from '../../producer/types.js';

const verdictOf = (conformant: boolean) => (conformant ? 'conformant' : 'not conformant');

/** What a person needs to know about one case: as expected, or what was expected instead. */
function caseNote(outcome: SuiteCaseOutcome): string {
  const codes = outcome.violation_codes.length > 0 ? ` (${outcome.violation_codes.join(', ')})` : '';
  if (outcome.passed) return `${verdictOf(outcome.actual_conformant)} as expected${codes}`;
  if (outcome.expected_conformant !== outcome.actual_conformant) {
    return `expected ${verdictOf(outcome.expected_conformant)}, got ${verdictOf(outcome.actual_conformant)}${codes}`;
  }
  return `expected codes ${(outcome.expected_violation_codes ?? []).join(', ')}, got ${outcome.violation_codes.join(', ')}`;
}

/** `verdict conformance` for people: one line per case (its violations under a failed one), then the summary. */
function renderSuite(result: ResultContract, context: RenderContext): string {
  const { style } = context;
  const cases = (result.details?.cases ?? []) as SuiteCaseOutcome[];
  // Several cases may check one file (with different tool definitions): their ids tell them apart.
  const shared = new Set(cases.map((c) => c.file).filter((file, i, all) => all.indexOf(file) !== i));
  const lines = renderChecklist(
    cases.map((outcome) => ({
      passed: outcome.passed,
      label: shared.has(outcome.file) ? `${outcome.file} (${outcome.id})` : outcome.file,
      note: caseNote(outcome),
      lines: outcome.passed ? [] : renderViolations(outcome.violations, style, ''),
    })),
    style,
  );
  lines.push(renderHeadline(result, style), ...renderErrorLine(result, style));
  for (const [key, value] of Object.entries(result.details ?? {})) {
    if (key !== 'cases' && key !== 'contract') lines.push(...renderMember(key, value, context));
  }
  lines.push(...renderWarnings(result.warnings, style));
  return `${lines.join('\n')}\n`;
}

/** `verdict conformance`: runs a conformance suite manifest and reports pass or fail per case. */
export const conformanceCommand = defineCommand({
  name: 'conformance',
  description:
    "Run every case of a conformance suite manifest (schema_version 1; the reference implementation's format is accepted) and report whether each got its expected verdict. Case paths must stay inside the manifest's folder.",
  options: {
    manifest: { type: 'string', description: 'The suite manifest.', required: true, valueName: 'FILE' },
  },
  errorCodes: { ...SUITE_ERROR_CODES, invalid_arguments: 'The command line is wrong.' },
  render: renderSuite,
  run({ options }, ctx) {
    return runConformanceSuite(options.manifest, { cwd: ctx.io.cwd });
  },
});
