import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, test } from 'vitest';
import { RECEIPT_SCHEMA_URL } from './codes.js';
import { RECEIPT_SCHEMA } from './receipt-schema.js';

const file = join(import.meta.dirname, '../../schemas/result-contract-conformance-receipt-v1.schema.json');

describe('RECEIPT_SCHEMA', () => {
  test('is the published schema file', () => {
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(RECEIPT_SCHEMA);
  });

  test('is a strict draft 2020-12 schema with the receipt $id', () => {
    expect(RECEIPT_SCHEMA.$id).toBe(RECEIPT_SCHEMA_URL);
    expect(() => new Ajv2020({ allowUnionTypes: true }).compile(RECEIPT_SCHEMA)).not.toThrow();
  });

  test('closes every object: an unknown member anywhere is refused', () => {
    const validate = new Ajv2020({ allowUnionTypes: true }).compile(RECEIPT_SCHEMA);
    const facts = {
      mcp_specification: '2025-06-18',
      mcp_tools_spec: 'https://modelcontextprotocol.io/specification/2025-06-18/server/tools',
      contract: 'https://qzx.yumbale.com/schemas/result-contract-v1.schema.json',
      output_schema_checked: false,
      output_schema_mode: null,
      backcompat_text_matches: true,
    };
    const kase = (name: string, expected: boolean) => ({
      name,
      file: `${name}.json`,
      sha256: null,
      expected_success: expected,
      actual_success: null,
      conformant: false,
      violations: [],
      warnings: [],
      profile_facts: facts,
    });
    const receipt = {
      receipt_schema: RECEIPT_SCHEMA_URL,
      success: false,
      message: 'Not conformant.',
      error_code: 'conformance_failed',
      warnings: [],
      details: {
        report_schema_version: 1,
        contract_version: 'v1',
        contract_schema: 'https://qzx.yumbale.com/schemas/result-contract-v1.schema.json',
        profile: 'mcp-2025-06-18',
        mcp_specification: '2025-06-18',
        tool_definition: null,
        violations: [],
        cases: [kase('success', true), kase('failure', false)],
      },
    };
    expect(validate(receipt)).toBe(true);
    // biome-ignore lint/suspicious/noExplicitAny: each variant edits a deep copy of the receipt.
    const variants: ((r: any) => void)[] = [
      (r) => {
        r.extra = 1;
      },
      (r) => {
        r.details.timestamp = 'now';
      },
      (r) => {
        r.details.cases[0].extra = true;
      },
      (r) => {
        r.details.cases[1].profile_facts.extra = true;
      },
      (r) => {
        r.details.tool_definition = { file: 't.json', sha256: null, size: 3 };
      },
      (r) => {
        delete r.error_code;
      },
      (r) => {
        r.details.cases.reverse();
      },
      (r) => {
        r.details.cases[0].sha256 = 'ABC';
      },
    ];
    for (const change of variants) {
      const copy = structuredClone(receipt);
      change(copy);
      expect(validate(copy), change.toString()).toBe(false);
    }
  });
});
