import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, test, vi } from 'vitest';
import { validateResult } from '../contract/validate-result.js';
import { EVIDENCE_PROFILES, type EvidenceProfile } from './codes.js';
import {
  createReceipt,
  type EvidenceFile,
  failReceipt,
  type ReceiptInput,
  serializeReceipt,
} from './create-receipt.js';
import { RECEIPT_SCHEMA } from './receipt-schema.js';

const fixtures = join(import.meta.dirname, '../../test/fixtures/conformance');
const file = (name: string): EvidenceFile => ({
  file: name,
  bytes: new Uint8Array(readFileSync(join(fixtures, name))),
});
const bytesOf = (value: unknown): Uint8Array => new TextEncoder().encode(JSON.stringify(value));

const ajv = new Ajv2020({ allErrors: true, allowUnionTypes: true });
const validateReceiptSchema = ajv.compile(RECEIPT_SCHEMA);

function pair(profile: EvidenceProfile): ReceiptInput {
  if (profile === 'core') {
    return {
      profile,
      success: file('core/valid/success-full.json'),
      failure: file('core/valid/failure-error-code.json'),
    };
  }
  return {
    profile,
    success: file('mcp/valid/success-2026-07-28.json'),
    failure: file('mcp/valid/failure-2026-07-28.json'),
    toolDefinition: file('mcp/tools/allof-tool.json'),
  };
}

/**
 * The same input made again from scratch: fresh byte arrays and members in another order. A receipt that
 * depended on object identity or member order would differ.
 */
function copyOf(input: ReceiptInput): ReceiptInput {
  const again = (entry: EvidenceFile): EvidenceFile =>
    'bytes' in entry ? { bytes: Uint8Array.from(entry.bytes), file: entry.file } : { ...entry };
  return {
    ...(input.toolDefinition === undefined ? {} : { toolDefinition: again(input.toolDefinition) }),
    failure: again(input.failure),
    success: again(input.success),
    profile: input.profile,
  };
}

/** Runs `make` with the clock on another day: a receipt that recorded the time would differ. */
function onAnotherDay<T>(make: () => T): T {
  vi.useFakeTimers({ now: new Date('2001-02-03T04:05:06Z'), toFake: ['Date'] });
  try {
    return make();
  } finally {
    vi.useRealTimers();
  }
}

/** Asserts what every receipt must be, whatever its verdict: schema-valid, contract-valid, deterministic. */
function expectWellFormed(input: ReceiptInput) {
  const receipt = createReceipt(input);
  const text = serializeReceipt(receipt);
  const parsed = JSON.parse(text);
  expect(validateReceiptSchema(parsed), JSON.stringify(validateReceiptSchema.errors)).toBe(true);
  expect(validateResult(parsed).violations).toEqual([]);
  expect(onAnotherDay(() => serializeReceipt(createReceipt(copyOf(input))))).toBe(text);
  expect(text.endsWith('}\n')).toBe(true);
  expect(text).toContain('\n  "success"');
  return receipt;
}

describe('createReceipt', () => {
  describe.each(EVIDENCE_PROFILES)('under the %s profile', (profile) => {
    test('creates a successful receipt for a conforming pair', () => {
      const receipt = expectWellFormed(pair(profile));
      expect(receipt.success).toBe(true);
      expect(receipt).not.toHaveProperty('error_code');
      expect(receipt.details.profile).toBe(profile);
      expect(receipt.details.mcp_specification).toBe(profile === 'core' ? null : profile.slice(4));
      expect(
        receipt.details.cases.map((c) => [c.name, c.expected_success, c.actual_success, c.conformant]),
      ).toEqual([
        ['success', true, true, true],
        ['failure', false, false, true],
      ]);
      if (profile === 'core') expect(receipt.details.cases[0].profile_facts).toEqual({});
      else
        expect(receipt.details.cases[0].profile_facts).toMatchObject({
          output_schema_mode: 'canonical_allof',
        });
    });

    test('creates a failed receipt with conformance_failed when the roles are swapped', () => {
      const input = pair(profile);
      const receipt = expectWellFormed({ ...input, success: input.failure, failure: input.success });
      expect(receipt.success).toBe(false);
      expect(receipt.error_code).toBe('conformance_failed');
      for (const entry of receipt.details.cases) {
        expect(entry.conformant).toBe(false);
        expect(entry.violations.at(-1)).toMatch(
          /^role_mismatch at \/(result\/structuredContent\/)?success: /,
        );
      }
    });

    test('keeps a receipt schema-valid after a late failure such as a write failure', () => {
      const late = failReceipt(createReceipt(pair(profile)), 'receipt_write_failed', 'The disk is full.');
      expect(validateReceiptSchema(JSON.parse(serializeReceipt(late)))).toBe(true);
      expect(Object.keys(late)).toEqual([
        'receipt_schema',
        'success',
        'message',
        'error_code',
        'warnings',
        'details',
      ]);
      expect(late.details.violations).toEqual(['receipt_write_failed at (root): The disk is full.']);
    });
  });

  test('digests the exact bytes: a different byte gives a different sha256', () => {
    const input = pair('core');
    const first = createReceipt(input).details.cases[0].sha256;
    const spaced = new Uint8Array([...(input.success as { bytes: Uint8Array }).bytes, 0x20]);
    const second = createReceipt({ ...input, success: { file: input.success.file, bytes: spaced } }).details
      .cases[0].sha256;
    // An independent SHA-256 (node:crypto) of the exact bytes, not verdict's own digest compared with itself.
    const original = (input.success as { bytes: Uint8Array }).bytes;
    expect(first).toBe(createHash('sha256').update(original).digest('hex'));
    expect(second).toBe(createHash('sha256').update(spaced).digest('hex'));
    expect(second).not.toBe(first);
  });

  test('records an unreadable file with a null digest and invalid_json_input', () => {
    const receipt = expectWellFormed({
      ...pair('core'),
      failure: {
        file: 'gone.json',
        error: { reason: 'not_found', message: 'No file exists at "gone.json".' },
      },
    });
    const failure = receipt.details.cases[1];
    expect(failure.sha256).toBeNull();
    expect(failure.actual_success).toBeNull();
    expect(failure.violations[0]).toMatch(
      /^invalid_json_input at \(root\): The file could not be read: not_found: /,
    );
  });

  test('records text that is not JSON with its digest and invalid_json_input', () => {
    const receipt = expectWellFormed({
      ...pair('core'),
      success: { file: 's.json', bytes: new TextEncoder().encode('{"success": true,') },
    });
    expect(receipt.details.cases[0].sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(receipt.details.cases[0].violations[0]).toMatch(/^invalid_json_input/);
  });

  test('requires a tool definition under an MCP profile', () => {
    const { toolDefinition: _tool, ...input } = pair('mcp-2025-11-25');
    const receipt = expectWellFormed(input);
    expect(receipt.success).toBe(false);
    expect(receipt.details.tool_definition).toBeNull();
    expect(receipt.details.violations[0]).toMatch(/^tool_definition_missing at \(root\): /);
    expect(receipt.details.cases.every((c) => c.conformant)).toBe(true);
  });

  test('reports an unreadable tool definition', () => {
    const receipt = expectWellFormed({
      ...pair('mcp-2026-07-28'),
      toolDefinition: { file: 'tool.json', bytes: new TextEncoder().encode('not json') },
    });
    expect(receipt.details.tool_definition?.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(receipt.details.violations[0]).toMatch(/^tool_definition_unreadable/);
  });

  test('ignores a tool definition under core with a warning and no digest', () => {
    const receipt = expectWellFormed({ ...pair('core'), toolDefinition: file('mcp/tools/allof-tool.json') });
    expect(receipt.success).toBe(true);
    expect(receipt.details.tool_definition).toEqual({ file: 'mcp/tools/allof-tool.json', sha256: null });
    expect(receipt.warnings[0]).toMatch(/^tool_definition_ignored/);
  });

  test('refuses a 2025-style result without resultType under 2026-07-28 but accepts it under 2025-11-25', () => {
    const structured = { success: true, message: 'Listed.', count: 1 };
    const result = {
      jsonrpc: '2.0',
      id: 1,
      result: {
        content: [{ type: 'text', text: JSON.stringify(structured) }],
        structuredContent: structured,
      },
    };
    const input = { ...pair('mcp-2025-11-25'), success: { file: 's.json', bytes: bytesOf(result) } };
    expect(createReceipt(input).success).toBe(true);
    const strict = createReceipt({ ...input, profile: 'mcp-2026-07-28' });
    expect(strict.success).toBe(false);
    expect(strict.details.cases[0].violations[0]).toMatch(/^result_type_missing at \/result\/resultType/);
  });

  test('reports a document that is not an object under every profile without throwing', () => {
    for (const profile of EVIDENCE_PROFILES) {
      for (const text of ['null', '"done"', '[]']) {
        const receipt = expectWellFormed({
          ...pair(profile),
          failure: { file: 'f.json', bytes: new TextEncoder().encode(text) },
        });
        expect(receipt.details.cases[1]).toMatchObject({ actual_success: null, conformant: false });
      }
    }
  });

  test('never accepts a protocol error as the failure evidence', () => {
    const protocolError = { jsonrpc: '2.0', id: 2, error: { code: -32602, message: 'Unknown tool' } };
    const receipt = expectWellFormed({
      ...pair('mcp-2026-07-28'),
      failure: { file: 'f.json', bytes: bytesOf(protocolError) },
    });
    expect(receipt.details.cases[1]).toMatchObject({ actual_success: null, conformant: false });
    expect(receipt.details.cases[1].profile_facts).not.toHaveProperty('mcp_is_error_effective');
  });

  test('gives a schema-valid, contract-valid receipt for any bytes under any profile', () => {
    const evidence = fc.oneof(
      fc.json().map((text) => new TextEncoder().encode(text)),
      fc.uint8Array({ maxLength: 40 }),
    );
    fc.assert(
      fc.property(fc.constantFrom(...EVIDENCE_PROFILES), evidence, evidence, evidence, (profile, s, f, t) => {
        const receipt = createReceipt({
          profile,
          success: { file: 's.json', bytes: s },
          failure: { file: 'f.json', bytes: f },
          toolDefinition: { file: 't.json', bytes: t },
        });
        const parsed = JSON.parse(serializeReceipt(receipt));
        expect(validateReceiptSchema(parsed), JSON.stringify(validateReceiptSchema.errors)).toBe(true);
        expect(validateResult(parsed).violations).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });
});
