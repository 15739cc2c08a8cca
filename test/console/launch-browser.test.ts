import { describe, expect, test } from 'vitest';
import { launchBrowser } from './browser.js';

describe('launchBrowser', () => {
  test('fails with the command that installs Chromium when it is missing, so no browser test is skipped', async () => {
    await expect(launchBrowser('/nonexistent/chromium')).rejects.toThrow(
      /need Chromium at \/nonexistent\/chromium\. Install Debian's package \(sudo apt-get install -y chromium/,
    );
  });
});
