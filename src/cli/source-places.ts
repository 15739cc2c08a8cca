import { locatePointer } from '../json/locate-pointer.js';
import type { ReadError } from '../json/types.js';
import type { CommandContext, RenderContext } from '../producer/types.js';

/** A finding as the validators report it: a code, a JSON Pointer and a sentence. */
export interface PlacedFinding {
  /** Stable snake_case code. */
  code: string;
  /** JSON Pointer into the input (`""` for the whole document). */
  path: string;
  /** One sentence for people. */
  message: string;
}

/** Most places recorded per input: beyond this a finding is shown with its pointer only. */
const MAX_PLACES = 1000;

/**
 * Records where each finding's pointer lies in the text of `file`, for the rendering for people; in
 * `--json` mode nothing is done (the document keeps its pointers and nothing else).
 */
export function placeFindings(
  ctx: CommandContext,
  file: string,
  bytes: Uint8Array,
  findings: readonly PlacedFinding[],
): void {
  if (ctx.json || ctx.place === undefined || findings.length === 0) return;
  const text = new TextDecoder().decode(bytes);
  const pointers = [...new Set(findings.map((finding) => finding.path))].slice(0, MAX_PLACES);
  for (const pointer of pointers) {
    const { line, column } = locatePointer(text, pointer);
    ctx.place(file, pointer, { line, column });
  }
}

/** How an input is named in compiler-style lines: its path, or `<stdin>` for standard input. */
export function sourceLabel(file: string): string {
  return file === '-' ? '<stdin>' : file;
}

/**
 * One finding as a compiler-style line, `FILE:LINE:COL code message`; when its place was not recorded,
 * `FILE code at POINTER: message`.
 */
export function renderFinding(
  file: string,
  finding: PlacedFinding,
  context: RenderContext,
  kind: 'error' | 'warning' = 'error',
): string {
  const { style } = context;
  const place = context.placeOf(file, finding.path);
  const where =
    place === undefined ? sourceLabel(file) : `${sourceLabel(file)}:${place.line}:${place.column}`;
  const code = kind === 'error' ? style.bad(finding.code) : style.warn(finding.code);
  const pointer =
    place === undefined ? ` ${style.dim(`at ${finding.path === '' ? '(root)' : finding.path}`)}:` : '';
  return `${where} ${code}${pointer} ${finding.message}`;
}

/**
 * Why an input could not be read, as a compiler-style line: `FILE:LINE:COL reason message` where the strict
 * reader stopped, `FILE reason message` when no place is known. For one line of a JSON-lines stream,
 * `streamLine` is its number in the stream.
 */
export function renderReadError(
  file: string,
  error: ReadError,
  context: RenderContext,
  streamLine?: number,
): string {
  const line = streamLine ?? error.line;
  const onLine = error.column !== undefined && (streamLine === undefined || error.line === 1);
  const where = line === undefined ? '' : `:${line}${onLine ? `:${error.column}` : ''}`;
  return `${sourceLabel(file)}${where} ${context.style.bad(error.reason)} ${error.message}`;
}
