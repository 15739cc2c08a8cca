import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize, sep } from 'node:path';
import { serve } from '@hono/node-server';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { ROOT } from '../support/ensure-build.js';
import { findChromium } from '../support/find-chromium.js';

/** The console's static build (`npm run build:console`). */
export const CONSOLE_DIR = join(ROOT, 'dist', 'console');

/** Where the tests leave their screenshots for people to look at. */
export const SCREENSHOTS = join(ROOT, '.tmp', 'console-screenshots');

/** A desktop window and the narrow phone width the console must stay readable at. */
export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 390, height: 844 };

/** A running Chromium with a fresh profile, and how to stop it and remove the profile. */
export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

/**
 * Starts Chromium ({@link findChromium}) headless through playwright-core, with a throwaway profile and nothing
 * that reaches the network on its own. A Chromium that is not there fails the test, never a skip.
 */
export async function launchBrowser(executablePath?: string): Promise<Browser> {
  const executable = executablePath ?? (await findChromium());
  if (!existsSync(executable)) {
    throw new Error(
      `The console's browser tests need Chromium at ${executable}. Unset VERDICT_CHROMIUM to use the one ` +
        'that the @sparticuz/chromium dev dependency ships (npm install), or point it at a Chromium binary.',
    );
  }
  if (!existsSync(join(CONSOLE_DIR, 'index.html'))) {
    throw new Error(`The console is not built: ${CONSOLE_DIR}/index.html is missing. Run npm run build.`);
  }
  const profile = mkdtempSync(join(tmpdir(), 'verdict-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: executable,
    headless: true,
    viewport: DESKTOP,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      // The packaged build has no zygote helper; a system Chromium runs the same without one.
      '--no-zygote',
    ],
  });
  // Tests never reach the network: whatever is not on this machine (a provider's media URL) is refused.
  await context.route(
    (url) => url.hostname !== '127.0.0.1' && url.hostname !== 'localhost',
    (route) => route.abort('blockedbyclient'),
  );
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
};

/** Answers a request for a file of the console's build (`/` is index.html), or undefined when there is none. */
export function consoleAsset(request: Request): Response | undefined {
  const path = new URL(request.url).pathname;
  const file = normalize(join(CONSOLE_DIR, path === '/' ? 'index.html' : decodeURIComponent(path)));
  if (!file.startsWith(CONSOLE_DIR + sep) || !existsSync(file) || !statSync(file).isFile()) return undefined;
  return new Response(readFileSync(file), {
    headers: { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' },
  });
}

/** Serves a fetch handler on 127.0.0.1 with a free port. */
export async function serveFetch(fetch: (request: Request) => Response | Promise<Response>): Promise<Site> {
  const server = await new Promise<ReturnType<typeof serve>>((listening, failed) => {
    const started = serve({ fetch, hostname: '127.0.0.1', port: 0 }, () => listening(started));
    started.once('error', failed);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Serves the console's static build, as any static file server would. */
export function serveConsole(): Promise<Site> {
  return serveFetch((request) => consoleAsset(request) ?? new Response('Not found', { status: 404 }));
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * Runs axe-core in the page, in the light and the dark scheme, and expects no serious or critical
 * accessibility violation.
 */
export async function expectAccessible(page: Page): Promise<void> {
  // Evaluated rather than added as an inline <script>, which the gateway's Content-Security-Policy refuses.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    const violations = await page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run(): Promise<{ violations: AxeViolation[] }> } }).axe;
      return (await axe.run()).violations;
    });
    const serious = violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map(
        (v) =>
          `${colorScheme}: ${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
      );
    expect(serious).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** Saves a screenshot of the page under `.tmp/console-screenshots/<name>.png`. */
export async function saveScreenshot(
  page: Page,
  name: string,
  options: { fullPage?: boolean } = {},
): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: options.fullPage ?? true });
}

/** A file for `setInputFiles`, as a person would choose it. */
export function fileOf(name: string, content: string | Uint8Array, mimeType = 'application/json') {
  return { name, mimeType, buffer: Buffer.from(content) };
}

/** Expects the page to fit its window's width: nothing forces a reader to scroll sideways. */
export async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const widths = await page.evaluate(() => ({
    content: document.documentElement.scrollWidth,
    window: document.documentElement.clientWidth,
  }));
  expect(widths.content).toBeLessThanOrEqual(widths.window);
}

/** A server the console page is loaded from. */
export interface Site {
  /** The page's address, ending in `/`. */
  url: string;
  /** Stops the server. */
  close(): Promise<void>;
}

/**
 * Starts Chromium and a server for the console around the tests of a file (before all, after all), and gives
 * the page the tests drive and the address it is served from.
 */
export function useConsolePage(serve: () => Promise<Site> = serveConsole): {
  readonly page: Page;
  readonly url: string;
  /**
   * What the page's Content-Security-Policy refused so far (`directive: blocked URI`); it must be empty once the
   * file's tests are done.
   */
  readonly cspViolations: string[];
} {
  let browser: Browser | undefined;
  let site: Site | undefined;
  let page: Page | undefined;
  const cspViolations: string[] = [];
  beforeAll(async () => {
    [browser, site] = await Promise.all([launchBrowser(), serve()]);
    page = await browser.context.newPage();
    // Every refusal of the policy the console is served with, on every page load, reaches the test.
    await page.exposeBinding('reportCspViolation', (_source, violation: string) => {
      cspViolations.push(violation);
    });
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => {
        const report = (window as unknown as { reportCspViolation(violation: string): void })
          .reportCspViolation;
        report(`${event.effectiveDirective}: ${event.blockedURI}`);
      });
    });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await site?.close();
    expect(cspViolations).toEqual([]);
  });
  return {
    cspViolations,
    get page() {
      if (page === undefined) throw new Error('The browser did not start.');
      return page;
    },
    get url() {
      if (site === undefined) throw new Error('The console server did not start.');
      return site.url;
    },
  };
}

/**
 * At 390 px wide: saves the screenshot `<name>` and expects nothing to need sideways scrolling and no word
 * broken across lines; then back to the desktop size.
 */
export async function expectReadableOnPhone(page: Page, name: string): Promise<void> {
  await page.setViewportSize(PHONE);
  try {
    await saveScreenshot(page, name);
    await expectNoSidewaysScroll(page);
    await expectNoBrokenWords(page);
  } finally {
    await page.setViewportSize(DESKTOP);
  }
}

/**
 * Expects no word of the page's text to be split across two lines ("Resul|t"); a break after a hyphen is a
 * line break like any other. Documents, JSON, trace ids and
 * other machine text may wrap anywhere and are left out; so is a word wider than its whole box.
 */
export async function expectNoBrokenWords(page: Page): Promise<void> {
  const broken = await page.evaluate(() => {
    const found: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const range = document.createRange();
    for (let node = walker.nextNode(); node !== null && found.length < 10; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (parent === null || parent.closest('pre, .source, .trace, .str, code, textarea, option') !== null)
        continue;
      const box = parent.getBoundingClientRect().width;
      for (const match of (node.textContent ?? '').matchAll(/[^\s-]+/g)) {
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const rects = [...range.getClientRects()].filter((r) => r.width > 0);
        const tops = new Set(rects.map((r) => Math.round(r.top)));
        const width = rects.reduce((sum, r) => sum + r.width, 0);
        if (tops.size > 1 && width < box) found.push(match[0]);
      }
    }
    return found;
  });
  expect(broken).toEqual([]);
}

/**
 * Saves the screenshots `<name>-1280-light`, `-1280-dark`, `-390-light` and `-390-dark`, and at each size
 * expects the page to fit its width with no word broken; then back to the desktop size in the light scheme.
 */
export async function saveEverySize(
  page: Page,
  name: string,
  options: { fullPage?: boolean } = {},
): Promise<void> {
  try {
    for (const size of [DESKTOP, PHONE]) {
      await page.setViewportSize(size);
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme });
        await saveScreenshot(page, `${name}-${size.width}-${colorScheme}`, options);
      }
      await expectNoSidewaysScroll(page);
      await expectNoBrokenWords(page);
    }
  } finally {
    await page.setViewportSize(DESKTOP);
    await page.emulateMedia({ colorScheme: 'light' });
  }
}

/**
 * `expect.poll` with room for a busy machine: it retries until the value matches or 30 s have passed. It waits
 * for the page; it asserts nothing about how long that takes.
 */
export function eventually<T>(read: () => T | Promise<T>) {
  return expect.poll(read, { timeout: 30_000, interval: 50 });
}
