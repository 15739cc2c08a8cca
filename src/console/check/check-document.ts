import { escapePointerToken, validateResult } from '../../contract/validate-result.js';
import { locatePointer, type PointerSpan } from '../../json/locate-pointer.js';
import { readJson } from '../../json/read-json.js';
import type { ReadError } from '../../json/types.js';
import type { McpRevision } from '../../mcp/codes.js';
import { validateMcpResult } from '../../mcp/validate-mcp-result.js';
import { validateUnifiedText } from '../../unified/validate-unified-text.js';

/** The contracts the Check view checks a document against. */
export const CHECK_CONTRACTS = {
  result: 'QZX Result Contract v1',
  unified: 'Unified AI output envelope',
  mcp: 'MCP tool result',
} as const;

/** One key of {@link CHECK_CONTRACTS}. */
export type CheckContract = keyof typeof CHECK_CONTRACTS;

/** What to check a document against. */
export interface CheckSettings {
  /** The contract. */
  contract: CheckContract;
  /** The MCP revision whose rules apply (MCP tool results only). */
  revision: McpRevision;
  /** The text of the tool definition whose `outputSchema` is classified (MCP only); blank: not checked. */
  toolDefinition: string;
}

/** A violation or warning, with the place in the text its JSON Pointer names. */
export interface Finding {
  /** Stable snake_case code. */
  code: string;
  /** JSON Pointer of what it is about. */
  path: string;
  /** One sentence for people. */
  message: string;
  /** Where `path` lands in the text. */
  span: PointerSpan;
}

/** The outcome of checking one document. */
export type DocumentCheck =
  | {
      read: 'ok';
      valid: boolean;
      violations: Finding[];
      warnings: Finding[];
      facts?: Record<string, unknown>;
    }
  | { read: 'failed'; error: ReadError; span: PointerSpan | null }
  | { read: 'tool-definition-failed'; error: ReadError };

/**
 * Checks one document, given as text or as the bytes of a file, against a contract with verdict's own
 * validators, and places every finding in the text. Never throws.
 */
export function checkDocument(
  input: string | Uint8Array,
  text: string,
  settings: CheckSettings,
): DocumentCheck {
  const place = (finding: { code: string; path: string; message: string }): Finding => ({
    ...finding,
    span: locatePointer(text, finding.path),
  });
  if (settings.contract === 'unified') {
    const report = validateUnifiedText(input);
    if (report.readError !== undefined) return readFailure(text, report.readError);
    return { read: 'ok', valid: report.valid, violations: report.violations.map(place), warnings: [] };
  }
  const read = readJson(input);
  if (!read.ok) return readFailure(text, read.error);
  // The contract and MCP validators report a repeated name at the object that holds it; mark the repeat itself.
  const repeats = [...read.duplicates];
  const placeRepeat = (finding: { code: string; path: string; message: string }): Finding => {
    const at = finding.code === 'duplicate_member' ? repeats.findIndex((d) => d.path === finding.path) : -1;
    if (at < 0) return place(finding);
    const [repeat] = repeats.splice(at, 1);
    return { ...finding, span: locatePointer(text, `${finding.path}/${escapePointerToken(repeat!.key)}`) };
  };
  if (settings.contract === 'result') {
    const report = validateResult(read.value, { duplicates: read.duplicates, readWarnings: read.warnings });
    return {
      read: 'ok',
      valid: report.valid,
      violations: report.violations.map(placeRepeat),
      warnings: report.warnings.map(place),
    };
  }
  let tool: { toolDefinition: unknown; toolDefinitionDuplicates: typeof read.duplicates } | undefined;
  if (settings.toolDefinition.trim() !== '') {
    const definition = readJson(settings.toolDefinition);
    if (!definition.ok) return { read: 'tool-definition-failed', error: definition.error };
    tool = { toolDefinition: definition.value, toolDefinitionDuplicates: definition.duplicates };
  }
  const report = validateMcpResult(read.value, {
    revision: settings.revision,
    duplicates: read.duplicates,
    readWarnings: read.warnings,
    ...tool,
  });
  return {
    read: 'ok',
    valid: report.valid,
    violations: report.violations.map(placeRepeat),
    warnings: report.warnings.map(place),
    facts: { ...report.facts },
  };
}

function readFailure(text: string, error: ReadError): DocumentCheck {
  const offset = error.line === undefined ? null : offsetOf(text, error.line, error.column ?? 1);
  const span: PointerSpan | null =
    offset === null || error.line === undefined
      ? null
      : { start: offset, end: offset + 1, line: error.line, column: error.column ?? 1, exact: true };
  return { read: 'failed', error, span };
}

/** The index in `text` of a 1-based line and column (column in code points), as verdict's reader counts them. */
export function offsetOf(text: string, line: number, column: number): number {
  let at = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (let l = 1; l < line; l++) {
    const lf = text.slice(at).search(/\r\n|\r|\n/);
    if (lf < 0) return text.length;
    at += lf + (text.startsWith('\r\n', at + lf) ? 2 : 1);
  }
  for (let c = 1; c < column && at < text.length; c++) {
    const code = text.charCodeAt(at);
    at += code >= 0xd800 && code <= 0xdbff ? 2 : 1;
  }
  return at;
}

/** One line of a JSONL input that did not pass. */
export interface LineFailure {
  /** 1-based line number. */
  line: number;
  /** The line's text. */
  text: string;
  /** The outcome for that line. */
  check: DocumentCheck;
}

/** The outcome of checking newline-delimited JSON, one document per line; blank lines are skipped. */
export interface LinesCheck {
  /** Documents checked (non-blank lines). */
  documents: number;
  /** Documents that conform. */
  conformant: number;
  /** Lines that could not be read as JSON. */
  unreadable: number;
  /** Every line that is unreadable or does not conform, in order. */
  failures: LineFailure[];
}

/**
 * Checks every non-blank line as its own document, like `verdict validate --jsonl`: the lines of the file's
 * bytes when there are bytes (so bytes that are not UTF-8 are found), else of the text.
 */
export function checkLines(text: string, settings: CheckSettings, bytes?: Uint8Array): LinesCheck {
  const outcome: LinesCheck = { documents: 0, conformant: 0, unreadable: 0, failures: [] };
  const decoder = new TextDecoder();
  const lines: (string | Uint8Array)[] = bytes === undefined ? text.split('\n') : splitLines(bytes);
  for (const [index, raw] of lines.entries()) {
    const whole = typeof raw === 'string' ? raw : decoder.decode(raw);
    const cr = whole.endsWith('\r');
    const line = cr ? whole.slice(0, -1) : whole;
    if (line.trim() === '') continue;
    outcome.documents++;
    const input = typeof raw === 'string' ? line : cr ? raw.subarray(0, raw.length - 1) : raw;
    const check = checkDocument(input, line, settings);
    if (check.read === 'ok' && check.valid) outcome.conformant++;
    else {
      if (check.read !== 'ok') outcome.unreadable++;
      outcome.failures.push({ line: index + 1, text: line, check });
    }
  }
  return outcome;
}

/** The lines of some bytes, split at line feeds. */
function splitLines(bytes: Uint8Array): Uint8Array[] {
  const lines: Uint8Array[] = [];
  let start = 0;
  for (let end = bytes.indexOf(0x0a); end !== -1; end = bytes.indexOf(0x0a, start)) {
    lines.push(bytes.subarray(start, end));
    start = end + 1;
  }
  lines.push(bytes.subarray(start));
  return lines;
}
