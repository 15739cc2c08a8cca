import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { invokeCommand } from '../../test/helpers/invoke-command.js';
import { getCurrentDateTime } from './get-current-date-time.js';

// 2026-08-08T02:45:00.123Z is 2026-08-07 21:45:00.123 in America/Chicago (CDT, UTC-5).
const INSTANT = Date.UTC(2026, 7, 8, 2, 45, 0, 123);

describe('getCurrentDateTime', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(INSTANT);
  });
  afterEach(() => vi.useRealTimers());

  test('returns ISO 8601 with the zone offset by default', async () => {
    const result = await invokeCommand(getCurrentDateTime, { timezone: 'America/Chicago' });
    expect(result).toMatchObject({
      success: true,
      output: '2026-08-07T21:45:00-05:00',
      output_format: 'iso',
      timezone: 'America/Chicago',
      utc_offset: '-05:00',
      epoch_ms: INSTANT,
    });
  });

  test('writes RFC 3339 with milliseconds and Z for UTC', async () => {
    const result = await invokeCommand(getCurrentDateTime, { 'output-format': 'rfc3339', timezone: 'UTC' });
    expect(result.output).toBe('2026-08-08T02:45:00.123Z');
  });

  test('writes RFC 2822 with the weekday of the zone, not of UTC', async () => {
    const result = await invokeCommand(getCurrentDateTime, {
      'output-format': 'rfc2822',
      timezone: 'America/Chicago',
    });
    expect(result.output).toBe('Fri, 07 Aug 2026 21:45:00 -0500');
  });

  test('handles zones with a 45-minute offset', async () => {
    const result = await invokeCommand(getCurrentDateTime, { timezone: 'Asia/Kathmandu' });
    expect(result.output).toBe('2026-08-08T08:30:00+05:45');
    expect(result.utc_offset).toBe('+05:45');
  });

  test('writes whole Unix seconds', async () => {
    const result = await invokeCommand(getCurrentDateTime, { 'output-format': 'unix' });
    expect(result.output).toBe(String(Math.floor(INSTANT / 1000)));
  });

  test('uses the local zone when none is given', async () => {
    const result = await invokeCommand(getCurrentDateTime, {});
    expect(result.timezone).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
  });

  test('reports unknown_timezone for a zone the runtime does not know', async () => {
    const result = await invokeCommand(getCurrentDateTime, { timezone: 'Mars/Olympus_Mons' });
    expect(result).toMatchObject({
      success: false,
      error_code: 'unknown_timezone',
      timezone: 'Mars/Olympus_Mons',
    });
    expect(result).not.toHaveProperty('output');
  });
});
