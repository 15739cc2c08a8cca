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
const evidenceStatus = () => page.getByRole('region', { name: 'Evidence digests' }).getByRole('status');

// Each test waits for the page (never on a clock); a busy machine gets room.
describe('the Receipt view', { timeout: 120_000 }, () => {
  test('shows a passing MCP receipt and confirms every evidence digest', async () => {
    await openReceipt();
    await page.getByLabel('Open a receipt').setInputFiles(fileOf('receipt.json', evidence('receipt.json')));
    await verdictCard().waitFor();
    expect(await verdictCard().innerText()).toMatch(/^PASS\n/);
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
    await expectReadableOnPhone(page, 'receipt-fail-360px');
  });

  test('detects an evidence file that is not the one the receipt describes', async () => {
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
    await eventually(() => evidenceStatus().first().innerText()).toBe(
      '1 evidence file differs from the receipt.',
    );
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
    await page.evaluate(() => document.getElementById('evidence-title')?.scrollIntoView({ block: 'start' }));
    await saveScreenshot(page, 'receipt-tampered', { fullPage: false });
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
