import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
import { createReceipt, serializeReceipt } from '../../src/evidence/create-receipt.js';
import { ROOT } from '../support/ensure-build.js';
import {
  eventually,
  expectAccessible,
  expectReadableOnPhone,
  fileOf,
  saveEverySize,
  saveScreenshot,
  useConsolePage,
} from './browser.js';

const site = useConsolePage();
let page: Page;
beforeAll(() => {
  page = site.page;
});

const MCP_EVIDENCE = join(ROOT, 'evidence', 'mcp-2025-11-25');
const evidence = (name: string) => readFileSync(join(MCP_EVIDENCE, name));

/** Opens the Receipt view in a freshly loaded page. */
async function openReceipt(): Promise<void> {
  await page.goto('about:blank');
  await page.goto(`${site.url}#receipt`);
  await page.getByRole('heading', { name: 'Read a receipt' }).waitFor();
}

const verdictCard = () => page.locator('.verdict');
const headline = () =>
  verdictCard()
    .locator('.big, .reason')
    .allInnerTexts()
    .then((t) => t.join('\n'));
// The section's own status lines, not the copy buttons' announcements.
const evidenceStatus = () => page.locator('#evidence-title ~ [role="status"]');

// Each test waits for the page (never on a clock); a busy machine gets room.
describe('the Receipt view', { timeout: 120_000 }, () => {
  test('shows a passing MCP receipt and confirms every evidence digest', async () => {
    await openReceipt();
    await page.getByLabel('Open a receipt').setInputFiles(fileOf('receipt.json', evidence('receipt.json')));
    await verdictCard().waitFor();
    expect(await verdictCard().innerText()).toMatch(/^PASS\n+.*As recorded: add the evidence files/);
    const facts = await page.locator('dl.facts').first().innerText();
    expect(facts).toMatch(/Profile\s+mcp-2025-11-25/);
    expect(facts).toMatch(/MCP revision\s+2025-11-25/);
    expect(facts).toMatch(/Output schema mode\s+canonical_ref|Output schema mode\s+\w+/);
    expect(await page.getByRole('heading', { name: 'Success case: conformant' }).count()).toBe(1);
    expect(await page.getByRole('heading', { name: 'Failure case: conformant' }).count()).toBe(1);

    await page
      .getByLabel('Add evidence files')
      .setInputFiles(
        ['success.json', 'failure.json', 'tool-definition.json'].map((n) => fileOf(n, evidence(n))),
      );
    await eventually(() => evidenceStatus().allInnerTexts()).toEqual([
      'Every evidence file added matches the receipt (3 of 3).',
      'Checked again in this page: these files give exactly this receipt.',
    ]);
    expect(await verdictCard().innerText()).toMatch(/^PASS\n+.*Verified in this page/);
    const rows = await page.locator('table tbody tr').allInnerTexts();
    expect(rows.map((r) => r.split('\t').pop())).toEqual(['matches', 'matches', 'matches']);
    await expectAccessible(page);
    await saveScreenshot(page, 'receipt-pass');
  });

  test('shows a failing receipt with the findings of each case', async () => {
    const notConforming = readFileSync(join(ROOT, 'examples', 'not-conforming.json'));
    const receipt = createReceipt({
      profile: 'core',
      success: { file: 'examples/success.json', bytes: readFileSync(join(ROOT, 'examples', 'success.json')) },
      failure: { file: 'examples/not-conforming.json', bytes: notConforming },
    });
    await openReceipt();
    await page.getByLabel('Open a receipt').setInputFiles(fileOf('receipt.json', serializeReceipt(receipt)));
    await verdictCard().waitFor();
    const card = await verdictCard().innerText();
    expect(card).toMatch(/^FAIL\n/);
    expect(card).toContain('error_code conformance_failed');
    expect(await page.getByRole('heading', { name: 'Failure case: not conformant' }).count()).toBe(1);
    const failureCase = await page.getByRole('region', { name: 'Failure case: not conformant' }).innerText();
    expect(failureCase).toContain('success_with_error at /error_code');
    expect(failureCase).toContain('role_mismatch at /success');
    expect(failureCase).toMatch(/Says\s+success: true/);
    await expectAccessible(page);
    await expectReadableOnPhone(page, 'receipt-fail-390px');
  });

  test('headlines ALTERED, naming the file, when an evidence file differs by one byte', async () => {
    await openReceipt();
    await page.getByLabel('Open a receipt').setInputFiles(fileOf('receipt.json', evidence('receipt.json')));
    await verdictCard().waitFor();
    const tampered = evidence('success.json').toString('utf8').replace('"success": true', '"success":  true');
    expect(tampered).not.toBe(evidence('success.json').toString('utf8'));
    await page
      .getByLabel('Add evidence files')
      .setInputFiles([
        fileOf('success.json', tampered),
        fileOf('failure.json', evidence('failure.json')),
        fileOf('tool-definition.json', evidence('tool-definition.json')),
      ]);
    await eventually(() => headline()).toBe(
      'ALTERED\nsuccess.json differs from the receipt: not the file it describes.',
    );
    expect(await verdictCard().getAttribute('class')).toContain('failure');
    expect(await evidenceStatus().first().innerText()).toBe('1 evidence file differs from the receipt.');
    const rows = await page.locator('table tbody tr').allInnerTexts();
    expect(rows.map((r) => r.split('\t').pop())).toEqual([
      'DIFFERS: not the file the receipt describes',
      'matches',
      'matches',
    ]);
    expect(await evidenceStatus().last().innerText()).toMatch(
      /^Checked again in this page: these files give a different receipt \(PASS, same verdict\)/,
    );
    await expectAccessible(page);
    await saveScreenshot(page, 'receipt-tampered', { fullPage: false });
    await saveEverySize(page, 'receipt-tampered');
  });

  test('headlines ALTERED when the receipt was edited to PASS over evidence that fails', async () => {
    const notConforming = readFileSync(join(ROOT, 'examples', 'not-conforming.json'));
    const success = readFileSync(join(ROOT, 'examples', 'success.json'));
    const failing = createReceipt({
      profile: 'core',
      success: { file: 'examples/success.json', bytes: success },
      failure: { file: 'examples/not-conforming.json', bytes: notConforming },
    });
    const { error_code: _dropped, ...rest } = failing as typeof failing & { error_code?: string };
    const edited = { ...rest, success: true, message: 'The pair conforms.' };
    await openReceipt();
    await page
      .getByLabel('Open a receipt')
      .setInputFiles([
        fileOf('receipt.json', `${JSON.stringify(edited, null, 2)}\n`),
        fileOf('success.json', success),
        fileOf('not-conforming.json', notConforming),
      ]);
    await eventually(() => headline()).toMatch(
      /^ALTERED\nThe evidence files match their digests but give a different receipt \(FAIL\)/,
    );
    await saveScreenshot(page, 'receipt-edited', { fullPage: false });
  });

  test('headlines INCOMPLETE, naming the file, when evidence the receipt names was not added', async () => {
    await openReceipt();
    await page
      .getByLabel('Open a receipt')
      .setInputFiles(['receipt.json', 'success.json', 'failure.json'].map((n) => fileOf(n, evidence(n))));
    await eventually(() => headline()).toBe(
      'INCOMPLETE\ntool-definition.json was not added, so the receipt is not verified.',
    );
    expect(await verdictCard().getAttribute('class')).toContain('failure');
    await saveScreenshot(page, 'receipt-incomplete', { fullPage: false });
  });

  test('headlines FAIL when the receipt itself fails its schema', async () => {
    const broken = JSON.parse(evidence('receipt.json').toString('utf8'));
    broken.message = '  ';
    await openReceipt();
    await page.getByLabel('Open a receipt').setInputFiles(fileOf('receipt.json', JSON.stringify(broken)));
    await eventually(() => headline()).toMatch(
      /^FAIL\nThe receipt itself is not sound: The receipt is not a conforming result: message_invalid at \/message/,
    );
    await expectAccessible(page);
    await saveScreenshot(page, 'receipt-schema-fail', { fullPage: false });
  });

  test('takes the receipt and its evidence opened together', async () => {
    await openReceipt();
    const names = ['success.json', 'receipt.json', 'failure.json', 'tool-definition.json'];
    await page.getByLabel('Open a receipt').setInputFiles(names.map((n) => fileOf(n, evidence(n))));
    await eventually(() => evidenceStatus().allInnerTexts()).toEqual([
      'Every evidence file added matches the receipt (3 of 3).',
      'Checked again in this page: these files give exactly this receipt.',
    ]);
    expect(await page.locator('dl.facts').first().innerText()).toMatch(/File\s+receipt.json/);
  });

  test('refuses a file that is not a receipt with a clear message', async () => {
    await openReceipt();
    await page.getByLabel('Open a receipt').setInputFiles(fileOf('success.json', evidence('success.json')));
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.innerText()).toContain('This is not a Conformance Receipt v1');
  });
});
