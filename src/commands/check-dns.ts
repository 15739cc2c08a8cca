import { Resolver } from 'node:dns/promises';
import { isIP, isIPv4 } from 'node:net';
import { fail, ok } from '../contract/index.js';
import { defineCommand } from '../producer/define-command.js';
import type { OptionSpecs } from '../producer/types.js';
import { errnoOf } from './fs-failure.js';

/** The record types `checkDns` queries. */
export const DNS_RECORD_TYPES = ['A', 'AAAA', 'MX', 'TXT', 'CNAME', 'NS'] as const;

/** One of {@link DNS_RECORD_TYPES}. */
export type DnsRecordType = (typeof DNS_RECORD_TYPES)[number];

/**
 * `node:dns` error codes (c-ares status names) and the failure code each becomes. Codes absent here are
 * reported as `dns_query_failed` with the original code in `dns_error`.
 */
export const DNS_FAILURE_CODES = {
  ENOTFOUND: 'dns_name_not_found',
  ENODATA: 'dns_no_records',
  ETIMEOUT: 'dns_timeout',
  ECANCELLED: 'dns_timeout',
  ECONNREFUSED: 'dns_server_unreachable',
  ESERVFAIL: 'dns_server_failure',
  EREFUSED: 'dns_server_failure',
  EFORMERR: 'dns_server_failure',
  EBADRESP: 'dns_server_failure',
  ENOTIMP: 'dns_server_failure',
} as const;

const options = {
  name: { type: 'string', description: 'Domain name to resolve.', required: true, valueName: 'NAME' },
  type: { type: 'string', description: 'Record type.', choices: DNS_RECORD_TYPES, default: 'A' },
  server: {
    type: 'string',
    description: 'DNS server as an IP address with an optional port (1.1.1.1, 127.0.0.1:5353, [::1]:53).',
    valueName: 'IP[:PORT]',
  },
  timeout: {
    type: 'number',
    description: 'Seconds to wait for an answer.',
    default: 5,
    min: 0.001,
    max: 600,
    valueName: 'SECONDS',
  },
} as const satisfies OptionSpecs;

/** One answer record; `value` is the address, target, exchange or joined text depending on the type. */
export interface DnsRecord {
  /** The record type. */
  type: DnsRecordType;
  /** Address (A/AAAA), target name (CNAME/NS), exchange (MX) or the concatenated text (TXT). */
  value: string;
  /** Time to live in seconds (A/AAAA only: the other resolver calls do not report it). */
  ttl?: number;
  /** MX preference. */
  priority?: number;
  /** TXT character-strings as sent, before concatenation. */
  chunks?: string[];
}

/** Parses `--server` into the form `Resolver#setServers` takes, or returns undefined when it is not an IP. */
export function parseDnsServer(server: string): string | undefined {
  const bracketed = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(server);
  if (bracketed) {
    const [, host = '', port] = bracketed;
    if (isIP(host) !== 6 || (port !== undefined && Number(port) > 65_535)) return undefined;
    return port === undefined ? host : `[${host}]:${port}`;
  }
  if (isIP(server) !== 0) return server;
  const withPort = /^([^:]+):(\d{1,5})$/.exec(server);
  if (withPort && isIPv4(withPort[1] ?? '') && Number(withPort[2]) <= 65_535) return server;
  return undefined;
}

async function query(resolver: Resolver, name: string, type: DnsRecordType): Promise<DnsRecord[]> {
  switch (type) {
    case 'A':
    case 'AAAA': {
      const answers =
        type === 'A'
          ? await resolver.resolve4(name, { ttl: true })
          : await resolver.resolve6(name, { ttl: true });
      return answers.map(({ address, ttl }) => ({ type, value: address, ttl }));
    }
    case 'MX':
      return (await resolver.resolveMx(name)).map(({ exchange, priority }) => ({
        type,
        value: exchange,
        priority,
      }));
    case 'TXT':
      return (await resolver.resolveTxt(name)).map((chunks) => ({ type, value: chunks.join(''), chunks }));
    case 'CNAME':
      return (await resolver.resolveCname(name)).map((value) => ({ type, value }));
    case 'NS':
      return (await resolver.resolveNs(name)).map((value) => ({ type, value }));
  }
}

const MESSAGES = {
  dns_name_not_found: (name: string) => `The name ${name} does not exist (NXDOMAIN).`,
  dns_no_records: (name: string, type: string) => `The name ${name} exists but has no ${type} records.`,
  dns_timeout: (name: string) => `No DNS answer for ${name} arrived before the timeout.`,
  dns_server_unreachable: (name: string) => `The DNS server refused the connection while resolving ${name}.`,
  dns_server_failure: (name: string) => `The DNS server could not answer for ${name}.`,
  dns_query_failed: (name: string) => `The DNS query for ${name} failed.`,
} as const;

/** Resolves a name for one record type, optionally against a given server, with a timeout. */
export const checkDns = defineCommand({
  name: 'checkDns',
  description:
    'Resolves a DNS name (A, AAAA, MX, TXT, CNAME or NS) with the system resolvers or a given server, and ' +
    'returns the records or says exactly why there are none.',
  options,
  errorCodes: {
    invalid_arguments:
      'An option is wrong, such as a --server that is not an IP address with an optional port (exit 2).',
    dns_name_not_found: 'The name does not exist (NXDOMAIN).',
    dns_no_records: 'The name exists but has no records of the type (NODATA).',
    dns_timeout: 'No answer before --timeout.',
    dns_server_unreachable: 'The server refused the query (nothing listens on its port).',
    dns_server_failure: 'The server answered SERVFAIL, REFUSED or a malformed response.',
    dns_query_failed: 'Any other resolver error; `dns_error` holds its code.',
  },
  outputSchema: {
    type: 'object',
    required: ['name', 'type', 'records', 'count'],
    properties: {
      name: { type: 'string' },
      type: { type: 'string', enum: [...DNS_RECORD_TYPES] },
      server: {
        type: 'string',
        description: 'The server asked; absent when the system resolvers were used.',
      },
      records: {
        type: 'array',
        items: {
          type: 'object',
          required: ['type', 'value'],
          properties: {
            type: { type: 'string', enum: [...DNS_RECORD_TYPES] },
            value: { type: 'string' },
            ttl: { type: 'integer', minimum: 0 },
            priority: { type: 'integer', minimum: 0 },
            chunks: { type: 'array', items: { type: 'string' } },
          },
        },
      },
      count: { type: 'integer', minimum: 0 },
    },
  },
  async run({ options: opts }, ctx) {
    const { name } = opts;
    const type = opts.type;
    const timeoutMs = Math.max(1, Math.round(opts.timeout * 1000));
    const server = opts.server === undefined ? undefined : parseDnsServer(opts.server);
    if (opts.server !== undefined && server === undefined) {
      return fail(`--server must be an IP address with an optional port, got "${opts.server}".`, {
        // A malformed --server is a usage error (exit 2), like any other bad option value.
        error_code: 'invalid_arguments',
        server: opts.server,
      });
    }
    // One try with the given timeout; c-ares may wait longer than `timeout` on its own (measured: 500 ms
    // took 1000 ms), so a timer cancels the query at the deadline and ECANCELLED reads as dns_timeout.
    const resolver = new Resolver({ timeout: timeoutMs, tries: 1 });
    if (server !== undefined) resolver.setServers([server]);
    const cancel = () => resolver.cancel();
    const timer = setTimeout(cancel, timeoutMs);
    ctx.signal.addEventListener('abort', cancel, { once: true });
    try {
      const records = await query(resolver, name, type);
      return ok(`${name} has ${records.length} ${type} record${records.length === 1 ? '' : 's'}.`, {
        name,
        type,
        server,
        records,
        count: records.length,
      });
    } catch (error) {
      ctx.signal.throwIfAborted();
      const dnsError = errnoOf(error);
      if (dnsError === undefined) throw error;
      const code = Object.hasOwn(DNS_FAILURE_CODES, dnsError)
        ? DNS_FAILURE_CODES[dnsError as keyof typeof DNS_FAILURE_CODES]
        : 'dns_query_failed';
      return fail(MESSAGES[code](name, type), {
        error_code: code,
        error: error instanceof Error ? error.message : dnsError,
        name,
        type,
        server,
        dns_error: dnsError,
        timeout_ms: code === 'dns_timeout' ? timeoutMs : undefined,
      });
    } finally {
      clearTimeout(timer);
      ctx.signal.removeEventListener('abort', cancel);
    }
  },
});
