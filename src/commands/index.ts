/** The reference commands: real operations with typed domain evidence, each with its output schema. */
import type { CommandDefinition } from '../producer/types.js';
import { calculateFileHash } from './calculate-file-hash.js';
import { checkDns } from './check-dns.js';
import { findFiles } from './find-files.js';
import { getCurrentDateTime } from './get-current-date-time.js';
import { getDiskSpace } from './get-disk-space.js';
import { listProcesses } from './list-processes.js';
import { readFile } from './read-file.js';

export { calculateFileHash, HASH_ALGORITHMS } from './calculate-file-hash.js';
export type { DnsRecord, DnsRecordType } from './check-dns.js';
export { checkDns, DNS_FAILURE_CODES, DNS_RECORD_TYPES, parseDnsServer } from './check-dns.js';
export type { FileMatch } from './find-files.js';
export { findFiles } from './find-files.js';
export { FS_FAILURE_CODES } from './fs-failure.js';
export type { DateTimeFormat } from './get-current-date-time.js';
export { DATE_TIME_FORMATS, getCurrentDateTime } from './get-current-date-time.js';
export { getDiskSpace } from './get-disk-space.js';
export { globToRegExp } from './glob-to-regexp.js';
export type { ProcessInfo, ProcessSource } from './list-processes.js';
export { createListProcesses, listProcesses, PROCESS_STATES } from './list-processes.js';
export { readFile } from './read-file.js';

/** Every reference command, in the order `verdict tool --list` shows them. */
export const REFERENCE_COMMANDS: readonly CommandDefinition[] = [
  getCurrentDateTime,
  findFiles,
  readFile,
  calculateFileHash,
  getDiskSpace,
  listProcesses,
  checkDns,
];
