import { existsSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { findChromium } from '../support/find-chromium.js';
import { launchBrowser } from './browser.js';

describe('findChromium', () => {
  test('takes VERDICT_CHROMIUM first', async () => {
    expect(await findChromium({ VERDICT_CHROMIUM: '/opt/some/chromium' })).toBe('/opt/some/chromium');
  });

  test('finds a Chromium that exists without any system package manager', async () => {
    const path = await findChromium({});
    expect(existsSync(path)).toBe(true);
  });
});

describe('launchBrowser', () => {
  test('fails with what to do when the named Chromium is missing, so no browser test is skipped', async () => {
    await expect(launchBrowser('/nonexistent/chromium')).rejects.toThrow(
      /need Chromium at \/nonexistent\/chromium\. Unset VERDICT_CHROMIUM to use the one that the @sparticuz\/chromium/,
    );
  });
});
