import { describe, expect, test } from 'vitest';
import { allowedHostnames, checkHostAndOrigin, isLoopbackHost } from './check-host.js';

describe('checkHostAndOrigin', () => {
  const loopback = allowedHostnames('127.0.0.1');

  test('lets this machine in, whatever the port, and a request without Origin', () => {
    for (const host of ['localhost', 'localhost:8787', '127.0.0.1:1', '[::1]:8787', 'LOCALHOST'])
      expect(checkHostAndOrigin(host, undefined, loopback), host).toBeUndefined();
    expect(checkHostAndOrigin('127.0.0.1:8787', 'http://localhost:5173', loopback)).toBeUndefined();
  });

  test('refuses a missing or foreign Host, a foreign, opaque or non-web Origin', () => {
    expect(checkHostAndOrigin(undefined, undefined, loopback)).toBe('Missing Host header');
    expect(checkHostAndOrigin('rebound.example:8787', undefined, loopback)).toBe(
      'Invalid Host: rebound.example',
    );
    expect(checkHostAndOrigin('localhost@evil.example', undefined, loopback)).toMatch(/^Invalid Host header/);
    expect(checkHostAndOrigin('localhost', 'https://evil.example', loopback)).toBe(
      'Invalid Origin: evil.example',
    );
    expect(checkHostAndOrigin('localhost', 'null', loopback)).toBe('Invalid Origin header: null');
    expect(checkHostAndOrigin('localhost', 'file:///etc', loopback)).toMatch(/^Invalid Origin header/);
  });

  test('quotes at most 100 characters of what it refuses', () => {
    const refused = checkHostAndOrigin(`${'a'.repeat(5000)}.example`, undefined, loopback) ?? '';
    expect(refused.length).toBeLessThan(130);
  });

  test('a bound name and the extra names are allowed too; a wildcard bind adds none', () => {
    expect(allowedHostnames('0.0.0.0', ['MCP.example', '::1'])).toEqual([
      'localhost',
      '127.0.0.1',
      '[::1]',
      'mcp.example',
    ]);
    expect(allowedHostnames('::2')).toContain('[::2]');
  });
});

describe('isLoopbackHost', () => {
  test('is true for localhost, 127.0.0.0/8 and ::1 only', () => {
    expect(['localhost', '127.0.0.1', '127.9.9.9', '::1', '[::1]'].every(isLoopbackHost)).toBe(true);
    expect(['0.0.0.0', '127.0.0.256', '10.0.0.1', '::', 'example.com'].some(isLoopbackHost)).toBe(false);
  });
});
