import { fail, ok } from '../contract/index.js';
import { defineCommand } from '../producer/define-command.js';
import type { OptionSpecs } from '../producer/types.js';

/** The formats `getCurrentDateTime` can write, with an example of each. */
export const DATE_TIME_FORMATS = {
  iso: 'ISO 8601 to the second with the UTC offset: 2026-08-07T21:45:00-05:00',
  rfc3339: 'RFC 3339 with milliseconds, `Z` when the offset is zero: 2026-08-07T21:45:00.123-05:00',
  rfc2822: 'RFC 2822 (e-mail) date: Fri, 07 Aug 2026 21:45:00 -0500',
  unix: 'Whole seconds since 1970-01-01T00:00:00Z: 1786157100',
} as const;

/** One of {@link DATE_TIME_FORMATS}. */
export type DateTimeFormat = keyof typeof DATE_TIME_FORMATS;

const FORMAT_NAMES: Record<DateTimeFormat, string> = {
  iso: 'ISO 8601',
  rfc3339: 'RFC 3339',
  rfc2822: 'RFC 2822',
  unix: 'Unix seconds',
};

const options = {
  'output-format': {
    type: 'string',
    description: 'How to write the date and time.',
    choices: Object.keys(DATE_TIME_FORMATS) as DateTimeFormat[],
    default: 'iso',
    valueName: 'FORMAT',
  },
  timezone: {
    type: 'string',
    description: 'IANA time zone name (Europe/Madrid); the local zone when omitted.',
    valueName: 'ZONE',
  },
} as const satisfies OptionSpecs;

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

/** The wall-clock fields of an instant in a time zone and that zone's offset from UTC at that instant. */
interface ZonedTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
  offsetMinutes: number;
}

function toZonedTime(epochMs: number, formatter: Intl.DateTimeFormat): ZonedTime {
  const parts: Record<string, number> = {};
  for (const part of formatter.formatToParts(epochMs)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  const fields = {
    year: parts.year ?? 0,
    month: parts.month ?? 1,
    day: parts.day ?? 1,
    hour: parts.hour ?? 0,
    minute: parts.minute ?? 0,
    second: parts.second ?? 0,
  };
  const wholeSecondMs = Math.floor(epochMs / 1000) * 1000;
  const wallAsUtc = Date.UTC(
    fields.year,
    fields.month - 1,
    fields.day,
    fields.hour,
    fields.minute,
    fields.second,
  );
  return {
    ...fields,
    millisecond: epochMs - wholeSecondMs,
    offsetMinutes: Math.round((wallAsUtc - wholeSecondMs) / 60_000),
  };
}

const pad = (value: number, width = 2): string => String(value).padStart(width, '0');

function formatOffset(minutes: number, separator: string): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${pad(Math.floor(abs / 60))}${separator}${pad(abs % 60)}`;
}

function formatDateTime(epochMs: number, time: ZonedTime, format: DateTimeFormat): string {
  const date = `${pad(time.year, 4)}-${pad(time.month)}-${pad(time.day)}`;
  const clock = `${pad(time.hour)}:${pad(time.minute)}:${pad(time.second)}`;
  switch (format) {
    case 'iso':
      return `${date}T${clock}${formatOffset(time.offsetMinutes, ':')}`;
    case 'rfc3339': {
      const offset = time.offsetMinutes === 0 ? 'Z' : formatOffset(time.offsetMinutes, ':');
      return `${date}T${clock}.${pad(time.millisecond, 3)}${offset}`;
    }
    case 'rfc2822': {
      // The weekday of the wall-clock date, computed from the date itself so no locale names are involved.
      const weekday = WEEKDAYS[new Date(Date.UTC(time.year, time.month - 1, time.day)).getUTCDay()];
      const month = MONTHS[time.month - 1];
      return `${weekday}, ${pad(time.day)} ${month} ${time.year} ${clock} ${formatOffset(time.offsetMinutes, '')}`;
    }
    case 'unix':
      return String(Math.floor(epochMs / 1000));
  }
}

/** Returns the current date and time in a chosen format and time zone. */
export const getCurrentDateTime = defineCommand({
  name: 'getCurrentDateTime',
  description:
    'Returns the current date and time in ISO 8601, RFC 3339, RFC 2822 or Unix format, in any IANA zone.',
  options,
  errorCodes: {
    unknown_timezone: 'The --timezone value is not a time zone this runtime knows.',
  },
  outputSchema: {
    type: 'object',
    required: ['output', 'output_format', 'timezone', 'utc_offset', 'epoch_ms'],
    properties: {
      output: { type: 'string', description: 'The date and time in the requested format.' },
      output_format: { type: 'string', enum: Object.keys(DATE_TIME_FORMATS) },
      timezone: { type: 'string', description: 'The IANA zone used, as the runtime names it.' },
      utc_offset: { type: 'string', pattern: '^[+-]\\d{2}:\\d{2}$', description: 'Offset from UTC then.' },
      epoch_ms: { type: 'integer', description: 'The instant, in milliseconds since the Unix epoch.' },
    },
  },
  run({ options: opts }) {
    const epochMs = Date.now();
    let formatter: Intl.DateTimeFormat;
    try {
      formatter = new Intl.DateTimeFormat('en-US', {
        ...(opts.timezone === undefined ? {} : { timeZone: opts.timezone }),
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      });
    } catch (error) {
      return fail(`Unknown time zone "${opts.timezone}"; use an IANA name such as Europe/Madrid.`, {
        error_code: 'unknown_timezone',
        error: error instanceof Error ? error.message : String(error),
        timezone: opts.timezone,
      });
    }
    const format = opts['output-format'];
    const timezone = formatter.resolvedOptions().timeZone;
    const time = toZonedTime(epochMs, formatter);
    return ok(`Current date and time in ${timezone} returned in ${FORMAT_NAMES[format]} format.`, {
      output: formatDateTime(epochMs, time, format),
      output_format: format,
      timezone,
      utc_offset: formatOffset(time.offsetMinutes, ':'),
      epoch_ms: epochMs,
    });
  },
});
