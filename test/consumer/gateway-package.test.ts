import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { GATEWAY_PACKAGES } from '../../src/cli/gateway-packages.js';
import { installPackedConsumer, type PackedConsumer } from './packed-package.js';

// The two installs docs/install.md promises, from the packed tarballs in empty projects: verdict-gateway runs
// the demo gateway with no further install, and verdict alone stays about 3 MB.

/** The bytes of every file under a folder (symbolic links not followed). */
function bytesUnder(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += bytesUnder(path);
    else if (entry.isFile()) total += statSync(path).size;
  }
  return total;
}

const consumers: PackedConsumer[] = [];
let gateway: ChildProcess | undefined;

// The gateway stops first (it holds the store open), then the projects go; removing hundreds of megabytes of
// node_modules takes a while on a busy machine.
afterAll(async () => {
  const running = gateway;
  if (running !== undefined && running.exitCode === null && running.signalCode === null) {
    const closed = new Promise((resolve) => running.once('close', resolve));
    running.kill('SIGTERM');
    await closed;
  }
  for (const consumer of consumers) consumer.remove();
}, 300_000);

describe('the verdict-gateway package installed from its tarball', () => {
  test('npx verdict-gateway --demo serves /healthz, the demo with a PGlite team key, and the console, with nothing else installed', async () => {
    const consumer = installPackedConsumer(['verdict', 'verdict-gateway']);
    consumers.push(consumer);
    const bin = join(consumer.dir, 'node_modules', '.bin', 'verdict-gateway');
    // HOME is the project: nothing outside it is read or written.
    const env = { PATH: process.env.PATH ?? '', HOME: consumer.dir, NO_COLOR: '1' };
    const store = join(consumer.dir, 'store');
    // Teams on PGlite come with the package too: a key is created in a store folder, then used.
    const created = spawnSync(bin, ['keys', 'create', '--name', 'team-a', '--store', store, '--json'], {
      cwd: consumer.dir,
      env,
      encoding: 'utf8',
    });
    expect(created.status, created.stderr).toBe(0);
    const key = (JSON.parse(created.stdout) as { key: string }).key;
    const child = spawn(bin, ['--demo', '--store', store, '--port', '0', '--host', '127.0.0.1'], {
      cwd: consumer.dir,
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    gateway = child;
    let stderr = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stderr?.on('data', (chunk: Buffer) => {
        stderr += chunk.toString('utf8');
        const found = /serving on (http:\/\/[^ ]+?)[ ;]/.exec(stderr)?.[1];
        if (found !== undefined) resolve(found);
      });
      child.on('close', (status) => reject(new Error(`verdict-gateway ended with ${status}: ${stderr}`)));
    });
    const health = await (await fetch(`${url}/healthz`)).json();
    expect(health).toMatchObject({ success: true, provider: 'system' });
    const image = await (
      await fetch(`${url}/v1/images`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        body: JSON.stringify({ model: 'demo:image', prompt: 'a lighthouse', size: '64x64' }),
      })
    ).json();
    expect(image).toMatchObject({ success: true, provider: 'demo', images: [{ media_type: 'image/png' }] });
    const page = await fetch(`${url}/`);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    // The library's own `verdict` command comes with it, and the docs its messages point at.
    const version = spawnSync(join(consumer.dir, 'node_modules', '.bin', 'verdict'), ['--version'], {
      encoding: 'utf8',
    });
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    expect(statSync(join(consumer.dir, 'node_modules', 'verdict', 'docs', 'install.md')).isFile()).toBe(true);
  }, 600_000);

  test('verdict alone installs about 3 MB, with its one dependency and none of the gateway packages', () => {
    const consumer = installPackedConsumer(['verdict']);
    consumers.push(consumer);
    const modules = join(consumer.dir, 'node_modules');
    const installed = readdirSync(modules).filter((name) => !name.startsWith('.'));
    expect(installed.sort()).toEqual(['@noble', 'verdict']);
    expect(bytesUnder(modules)).toBeLessThan(3.5 * 1024 * 1024);
    // Its gateway names every package it lacks in one answer, with the one command that installs them all.
    const gateway = spawnSync(join(modules, '.bin', 'verdict'), ['gateway', '--demo', '--json'], {
      cwd: consumer.dir,
      encoding: 'utf8',
    });
    expect(gateway.status).toBe(1);
    const result = JSON.parse(gateway.stdout) as {
      message: string;
      error: string;
      details: { packages: string[]; install_command: string };
    };
    expect(result.message).toMatch(new RegExp(`^verdict gateway needs ${GATEWAY_PACKAGES.length} packages`));
    expect([...result.details.packages].sort()).toEqual([...GATEWAY_PACKAGES].sort());
    expect(result.error).toContain(result.details.install_command);
    expect(result.error).toContain('verdict-gateway');
    console.info(result.message, result.error);
  }, 120_000);
});
