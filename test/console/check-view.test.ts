import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
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

const documentBox = () => page.getByRole('textbox', { name: 'Document', exact: true });

/** Opens the Check view in a freshly loaded page. */
async function openCheck(): Promise<void> {
  await page.goto('about:blank');
  await page.goto(`${site.url}#check`);
  await page.getByRole('heading', { name: 'Check a document' }).waitFor();
}

// Each test waits for the page (never on a clock); a busy machine gets room.
describe('the Check view', { timeout: 120_000 }, () => {
  test('highlights each of the three violations of a document at its line and column', async () => {
    await openCheck();
    const notConforming = readFileSync(join(ROOT, 'examples', 'not-conforming.json'));
    await page.getByLabel('Open a file').setInputFiles(fileOf('not-conforming.json', notConforming));
    const headline = page.getByRole('status').getByRole('heading');
    await eventually(() => headline.allInnerTexts()).toEqual([
      'FAIL: 3 violations of the QZX Result Contract v1; first message_invalid at /message',
    ]);
    const findings = page.getByRole('list', { name: 'Findings' }).getByRole('listitem');
    await eventually(() => findings.count()).toBe(3);
    const listed = await findings.allInnerTexts();
    expect(listed.join('\n')).toMatch(/at \/message line 3, column 3/);
    expect(listed.join('\n')).toMatch(/at \/error_code line 4, column 3/);
    expect(listed.join('\n')).toMatch(/at \/details line 5, column 3/);
    // Each finding's place is marked in the text, and its link moves focus there.
    const marks = page.locator('pre.source mark:has([id^="mark-"])');
    await eventually(() => marks.count()).toBe(3);
    const marked = await marks.allInnerTexts();
    expect(marked.map((m) => m.replace(/^\d+/, ''))).toEqual(
      expect.arrayContaining(['"message": "  "', '"error_code": "ignored"', '"details": null']),
    );
    await page.getByRole('link', { name: 'line 4, column 3' }).click();
    const focused = await page.evaluate(() => [
      document.activeElement?.textContent,
      document.activeElement?.parentElement?.textContent,
    ]);
    expect(focused).toEqual(['2', '2"error_code": "ignored"']);
    await expectAccessible(page);
    await saveScreenshot(page, 'check-violations');
    await saveEverySize(page, 'check-violations');
  });

  test('shows where an unreadable document breaks, and reads pasted text', async () => {
    await openCheck();
    await documentBox().fill('{\n  "success": true,\n  "message": "ok",,\n}');
    await page.getByRole('button', { name: 'Check' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.getByRole('heading').innerText()).toBe(
      'FAIL: Not readable JSON (syntax) at line 3, column 19',
    );
    expect(await alert.innerText()).toMatch(/Line 3, column 19/);
    expect(await page.locator('pre.source mark').innerText()).toMatch(/,$/);
  });

  test('checks a unified envelope and an MCP tool result with its revision', async () => {
    await openCheck();
    await page.getByRole('radio', { name: 'Unified AI output envelope' }).check();
    await documentBox().fill('{"success": true, "content": "Hi", "provider": "openai"}');
    await page.getByRole('button', { name: 'Check' }).click();
    await page.getByRole('list', { name: 'Findings' }).waitFor();
    expect(await page.getByRole('list', { name: 'Findings' }).innerText()).toContain('/usage');

    await page.getByRole('radio', { name: 'MCP tool result' }).check();
    await page.getByLabel('MCP revision').selectOption('2025-06-18');
    await documentBox().fill(
      '{"content": [], "structuredContent": {"success": false, "message": "No.", "error_code": "nope"}}',
    );
    await page.getByRole('button', { name: 'Check' }).click();
    await eventually(() => page.getByRole('list', { name: 'Findings' }).innerText()).toContain(
      'is_error_mismatch',
    );
    expect(await page.getByText('"mcp_specification": "2025-06-18"').count()).toBe(1);
  });

  test('lists and marks the first 200 findings of a document that has more', async () => {
    await openCheck();
    const members = Array.from({ length: 250 }, (_, k) => `"k${k}": 1, "k${k}": 2`).join(',\n');
    await documentBox().fill(`{"success": true, "message": "ok",\n${members}}`);
    await page.getByRole('button', { name: 'Check' }).click();
    await page
      .getByRole('heading', { name: /^FAIL: 250 violations of the QZX Result Contract v1; first / })
      .waitFor();
    expect(await page.getByRole('list', { name: 'Findings' }).getByRole('listitem').count()).toBe(200);
    expect(await page.locator('pre.source [id^="mark-"]').count()).toBe(200);
    // Each repeated name is marked where it repeats: the second "k0".
    expect(await page.locator('#mark-1').evaluate((badge) => badge.parentElement?.textContent)).toBe(
      '1"k0": 2',
    );
    expect(await page.getByText('The first 200 findings are listed and marked.').count()).toBe(1);
  });

  test('turns a JSONL file into a table of its failing lines', async () => {
    await openCheck();
    const lines = [
      '{"success":true,"message":"Disk space read."}',
      '{"success":false,"message":"Missing error fields.","error_code":"Bad Code"}',
      '',
      '{"success":true,"message":"ok"',
      '{"success":false,"message":"No such zone.","error_code":"unknown_timezone"}',
    ].join('\n');
    await page
      .getByLabel('Open a file')
      .setInputFiles(fileOf('results.jsonl', lines, 'application/x-ndjson'));
    // The file is read asynchronously: wait for the switch to follow it instead of reading it at once.
    await expect.poll(() => page.getByLabel('One document per line (JSONL)').isChecked()).toBe(true);
    const table = page.getByRole('table', { name: 'Failing lines' });
    await table.waitFor();
    expect(await page.getByRole('status').first().innerText()).toContain(
      'FAIL: 2 of 4 lines conform to the QZX Result Contract v1; 2 fail (1 unreadable)',
    );
    const rows = await table.locator('tbody tr').allInnerTexts();
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatch(/^2\s+error_code_invalid/);
    expect(rows[1]).toMatch(/^4\s+syntax/);
    await expectAccessible(page);
    await expectReadableOnPhone(page, 'check-jsonl-390px');
  });

  test('is reachable and usable from the keyboard', async () => {
    await page.goto('about:blank');
    await page.goto(`${site.url}#try`);
    await page.getByRole('link', { name: 'Check' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Check a document' }).waitFor();
    await documentBox().focus();
    await page.keyboard.type('{"success": true, "message": "Done."}');
    await page.keyboard.press('Tab'); // the file input
    await page.keyboard.press('Tab'); // the JSONL checkbox
    await page.keyboard.press('Tab'); // the Check button
    await page.keyboard.press('Enter');
    await eventually(() =>
      page.getByRole('heading', { name: 'PASS: conforms to the QZX Result Contract v1' }).count(),
    ).toBe(1);
  });
});
