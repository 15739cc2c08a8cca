import type { Receipt } from '../evidence/create-receipt.js';

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

function list(items: readonly string[]): string {
  return items.length === 0 ? '—' : items.map((item) => cell(item)).join('<br>');
}

/** Renders the job summary of a receipt (Markdown): verdict, profile, both cases, schema mode and digests. */
export function renderSummary(
  receipt: Receipt,
  outputSchemaMode: string,
  contractSchemaSha256: string,
): string {
  const { details } = receipt;
  const lines = [
    `## ${receipt.success ? 'PASS' : 'FAIL'}: QZX Result Contract v1 conformance`,
    '',
    cell(receipt.message),
    '',
    `- Profile: \`${details.profile}\``,
    `- outputSchema mode: \`${outputSchemaMode}\``,
    ...(details.tool_definition === null
      ? []
      : [
          `- Tool definition: \`${cell(details.tool_definition.file)}\` (sha256 \`${details.tool_definition.sha256 ?? 'none'}\`)`,
        ]),
    ...(contractSchemaSha256 === '' ? [] : [`- Contract schema sha256: \`${contractSchemaSha256}\``]),
    ...(receipt.error_code === undefined ? [] : [`- Error code: \`${receipt.error_code}\``]),
    '',
    '| Case | File | Expected | Actual | Conformant | Violations | Warnings | sha256 |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ...details.cases.map(
      (c) =>
        `| ${c.name} | \`${cell(c.file)}\` | ${c.expected_success} | ${c.actual_success ?? 'unknown'} | ${c.conformant ? 'yes' : 'no'} | ${list(c.violations)} | ${list(c.warnings)} | \`${c.sha256 ?? 'unreadable'}\` |`,
    ),
    '',
  ];
  if (details.violations.length > 0) lines.push(`Pair violations: ${list(details.violations)}`, '');
  if (receipt.warnings.length > 0) lines.push(`Warnings: ${list(receipt.warnings)}`, '');
  return `${lines.join('\n')}\n`;
}
