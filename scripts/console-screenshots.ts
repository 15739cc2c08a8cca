/**
 * `npm run screenshots:console`: the images of docs/console.md. Starts a gateway with the offline demo provider, a
 * store and an admin key, serves the built console from it (`npm run build:console` first; run from the repository's root), drives each view in
 * headless Chromium as a person would, and saves it at 1280 and 390 px wide in the light scheme as
 * `docs/images/console-<view>-<width>.png`. Nothing leaves this machine: the demo answers every request.
 */
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { serve } from '@hono/node-server';
import { chromium, type Page } from 'playwright-core';
import { createGateway } from '../src/gateway/index.js';
import { migrateStore, openStore } from '../src/gateway/store/index.js';
import { findChromium } from '../test/support/find-chromium.js';

const ROOT = process.cwd();
const CONSOLE_DIR = join(ROOT, 'dist', 'console');
const IMAGES = join(ROOT, 'docs', 'images');
const ADMIN = 'console-screenshots-admin-key-0123456789';
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/** A file of the console's build for the gateway to serve (`/` is index.html), or undefined. */
function consoleAsset(request: Request): Response | undefined {
  const path = new URL(request.url).pathname;
  const file = normalize(join(CONSOLE_DIR, path === '/' ? 'index.html' : decodeURIComponent(path)));
  if (!file.startsWith(CONSOLE_DIR + sep) || !existsSync(file) || !statSync(file).isFile()) return undefined;
  return new Response(readFileSync(file), {
    headers: { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' },
  });
}

/** Saves the page at both widths; `prepare` runs again after each resize (a layout may move the answer). */
async function shoot(page: Page, name: string, prepare: () => Promise<void> = async () => {}) {
  for (const size of [DESKTOP, PHONE]) {
    await page.setViewportSize(size);
    await prepare();
    // A window as tall as the page: Try's answer column is sticky, and would be drawn where a scroll left it.
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    await page.setViewportSize({ width: size.width, height: Math.max(size.height, height) });
    await page.screenshot({ path: join(IMAGES, `console-${name}-${size.width}.png`), fullPage: true });
    console.log(`docs/images/console-${name}-${size.width}.png`);
  }
  await page.setViewportSize(DESKTOP);
}

/** A fresh load of one view. */
async function open(page: Page, url: string, view: string) {
  await page.goto('about:blank');
  await page.goto(`${url}#${view}`);
}

/** Gives the gateway's key under Connection (a gateway with a store asks for one), then folds it away. */
async function connect(page: Page) {
  await page.getByRole('button', { name: 'Enter the key' }).click();
  await page.getByLabel('Gateway key (this gateway needs one)').fill(ADMIN);
  await page.getByRole('button', { name: 'Reload routes' }).click();
  await page.getByText(/^Routes from GET \/v1\/models: /).waitFor();
  await page.locator('summary', { hasText: 'Connection' }).click();
}

async function main() {
  if (!existsSync(join(ROOT, 'dist', 'console', 'index.html')))
    throw new Error('The console is not built: run npm run build:console first.');
  mkdirSync(IMAGES, { recursive: true });
  const store = await openStore(':memory:');
  await migrateStore(store);
  const gateway = createGateway({
    providers: { demo: { type: 'demo' } },
    store,
    adminKey: ADMIN,
    console: consoleAsset,
  });
  // A few requests so that Usage has lines to draw.
  for (const model of [
    'demo:chat',
    'demo:chat-mini',
    'demo:chat',
    'demo:fail',
    'demo:chat-mini',
    'demo:chat',
  ])
    await gateway.request('/v1/text', {
      method: 'POST',
      body: JSON.stringify({ model, input: 'What is a unified envelope?' }),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN}` },
    });
  await gateway.flush();
  const server = await new Promise<ReturnType<typeof serve>>((listening) => {
    const started = serve({ fetch: gateway.fetch, hostname: '127.0.0.1', port: 0 }, () => listening(started));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const context = await chromium.launchPersistentContext('', {
    executablePath: await findChromium(),
    headless: true,
    viewport: DESKTOP,
    colorScheme: 'light',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-zygote'],
  });
  try {
    const page = await context.newPage();

    await open(page, url, 'try');
    await connect(page);
    await page.getByRole('combobox', { name: 'Route', exact: true }).selectOption('demo:chat');
    await page.getByLabel('System prompt').fill('Answer in one short sentence.');
    await page.getByLabel('Message', { exact: true }).fill('What is a unified envelope?');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByRole('region', { name: 'Answer', exact: true }).first().waitFor();
    await page.locator('summary', { hasText: 'Copy as code' }).click();
    await page.getByRole('region', { name: 'curl code' }).waitFor();
    await shoot(page, 'try');

    await open(page, url, 'compare');
    await connect(page);
    await page.getByRole('button', { name: 'Add a route' }).click();
    await page.getByLabel('Prompt').fill('Name three colours.');
    await page.getByRole('button', { name: 'Send to 3 routes' }).click();
    await page
      .getByRole('region', { name: /^Route 3: / })
      .getByRole('alert')
      .waitFor();
    await page
      .getByRole('region', { name: /^Route 1: / })
      .locator('dl.facts')
      .waitFor();
    await page
      .getByRole('region', { name: /^Route 2: / })
      .locator('dl.facts')
      .waitFor();
    await shoot(page, 'compare');

    await open(page, url, 'check');
    await page.getByLabel('Open a file').setInputFiles({
      name: 'not-conforming.json',
      mimeType: 'application/json',
      buffer: readFileSync(join(ROOT, 'examples', 'not-conforming.json')),
    });
    await page.getByRole('button', { name: 'Check', exact: true }).click();
    await page
      .getByText(/^FAIL: /)
      .first()
      .waitFor();
    await shoot(page, 'check');

    await open(page, url, 'receipt');
    const evidence = join(ROOT, 'evidence', 'mcp-2025-11-25');
    await page.getByLabel('Open a receipt').setInputFiles(join(evidence, 'receipt.json'));
    await page
      .getByLabel('Add evidence files')
      .setInputFiles(['success.json', 'failure.json', 'tool-definition.json'].map((f) => join(evidence, f)));
    await page.getByText('Checked again in this page: these files give exactly this receipt.').waitFor();
    await shoot(page, 'receipt');

    await open(page, url, 'usage');
    await page.getByLabel('Admin key').fill(ADMIN);
    await page.getByRole('button', { name: 'Show usage' }).click();
    await page.getByRole('img', { name: /^Requests \(requests\)/ }).waitFor();
    await page.getByRole('radio', { name: 'Model' }).check();
    await page.getByRole('list', { name: 'Requests: lines' }).getByText('chat-mini').waitFor();
    await shoot(page, 'usage');
  } finally {
    await context.close();
    await new Promise((closed) => server.close(closed));
    await store.close();
  }
}

await main();
