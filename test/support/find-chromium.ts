import { existsSync } from 'node:fs';

/** Where a system Chromium usually lives, looked at in this order after `VERDICT_CHROMIUM`. */
const SYSTEM_CHROMIUMS = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
];

/**
 * The Chromium the browser tests drive: `VERDICT_CHROMIUM`, else a system Chromium, else the headless build that
 * the `@sparticuz/chromium` dev dependency ships inside its npm package (unpacked on first use), so that
 * `npm install && npm test` needs no system package manager.
 */
export async function findChromium(
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<string> {
  const chosen = env.VERDICT_CHROMIUM;
  if (chosen !== undefined && chosen !== '') return chosen;
  const system = SYSTEM_CHROMIUMS.find((path) => existsSync(path));
  if (system !== undefined) return system;
  const packaged = (await import('@sparticuz/chromium')).default;
  return packaged.executablePath();
}
