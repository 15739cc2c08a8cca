import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { captureFolder, EVIDENCE_CAPTURES, type EvidenceFolder } from '../../scripts/capture-evidence.js';
import { createReceipt, serializeReceipt } from '../../src/evidence/index.js';
import { readEvidenceFile } from '../../src/evidence/node.js';

const ROOT = join(import.meta.dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli', 'main.js');
const EVIDENCE = join(ROOT, 'evidence');
const FOLDERS = Object.keys(EVIDENCE_CAPTURES) as EvidenceFolder[];
const FILES = ['success.json', 'failure.json', 'tool-definition.json'];

/** The evidence without what changes with every release: the server version the SDK stamps in `_meta`. */
function normalized(path: string): unknown {
  const value = JSON.parse(readFileSync(path, 'utf8'));
  const info = value?.result?._meta?.['io.modelcontextprotocol/serverInfo'];
  if (info) info.version = '(version)';
  return value;
}

const fresh = mkdtempSync(join(tmpdir(), 'verdict-evidence-'));
afterAll(() => rmSync(fresh, { recursive: true, force: true }));

describe('the committed MCP evidence', () => {
  test.each(FOLDERS)('evidence/%s holds a conformant receipt of its files', (name) => {
    const folder = join(EVIDENCE, name);
    const receipt = createReceipt({
      profile: EVIDENCE_CAPTURES[name].profile,
      success: readEvidenceFile('success.json', folder),
      failure: readEvidenceFile('failure.json', folder),
      toolDefinition: readEvidenceFile('tool-definition.json', folder),
    });
    expect(receipt.success, JSON.stringify(receipt.details.violations)).toBe(true);
    expect(readFileSync(join(folder, 'receipt.json'), 'utf8')).toBe(serializeReceipt(receipt));
  });

  // One test per folder: each starts the real server and CLI several times, which a busy machine slows down.
  test.each(FOLDERS)(
    'evidence/%s is what the server answers today (npm run evidence regenerates it)',
    async (name) => {
      expect(await captureFolder(name, join(fresh, name), CLI)).toBe(0);
      for (const file of FILES) {
        expect(normalized(join(fresh, name, file)), `${name}/${file}`).toEqual(
          normalized(join(EVIDENCE, name, file)),
        );
      }
    },
    120_000,
  );
});
