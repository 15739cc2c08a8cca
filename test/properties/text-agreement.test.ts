import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { validateResult, validateResultText } from '../../src/index.js';
import { documentText } from './arbitraries.js';

/** A generated document as a parsed value: the shape validateResult sees in memory. */
const documentValue = fc.oneof(
  { weight: 4, arbitrary: documentText.map((text): unknown => JSON.parse(text)) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

/** What a report says: the verdict, violations and warnings (the parsed `value` of -0 reads back as 0). */
function verdictOf(report: { valid: boolean; violations: unknown[]; warnings: unknown[] }) {
  return { valid: report.valid, violations: report.violations, warnings: report.warnings };
}

describe('validateResultText against validateResult', () => {
  test('reading JSON.stringify(x) gives the report of validating x', () => {
    fc.assert(
      fc.property(documentValue, (value) => {
        const text = JSON.stringify(value);
        expect(verdictOf(validateResultText(text))).toEqual(verdictOf(validateResult(value)));
        expect(verdictOf(validateResultText(new TextEncoder().encode(text)))).toEqual(
          verdictOf(validateResult(value)),
        );
      }),
      { numRuns: 2000 },
    );
  });

  test('reading a text with any spelling of numbers and strings gives the report of its parsed value', () => {
    fc.assert(
      fc.property(documentText, (text) => {
        expect(validateResultText(text)).toEqual(validateResult(JSON.parse(text)));
      }),
      { numRuns: 2000 },
    );
  });
});
