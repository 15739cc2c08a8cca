/**
 * Finds the examples in the project's Markdown (README.md and docs/*.md) so that a test can run each one.
 *
 * What counts as an example, and how it is checked:
 * - a ```` ```console ```` block is a transcript: lines starting with `$ ` are commands (a line ending in `\`
 *   continues on the next one), and the lines up to the next command are what that command prints (stdout and
 *   stderr together, as a terminal shows them);
 * - a ```` ```ts ````, ```` ```js ```` or ```` ```mjs ```` block is a program that must run; when a
 *   ```` ```text ```` block follows it (only blank lines between), that is what the program prints;
 * - a ```` ```sh ```` or ```` ```bash ```` block is a list of commands that must all succeed;
 * - a block whose first line is a comment naming a file of the repository (`// examples/greet-cli.mjs`) must be
 *   that file, character for character, and is run as that file;
 * - an HTML comment `<!-- docs-test: skip — REASON -->` on the line before a block leaves it out, with its
 *   reason listed in the test output. Other fenced blocks (json, text on its own, …) are shown, not run.
 */

/** One command of a transcript and what it prints. */
export interface TranscriptStep {
  /** The command as typed, continuation lines joined with a newline. */
  command: string;
  /** The lines it prints. */
  expected: string[];
}

/** An example found in a Markdown file. */
export type MarkdownExample =
  | { kind: 'transcript'; file: string; line: number; steps: TranscriptStep[] }
  | {
      kind: 'program';
      file: string;
      line: number;
      language: 'ts' | 'js';
      source: string;
      /** The repository file the block says it shows, when it names one. */
      shows?: string;
      /** What it must print, when an output block follows it. */
      expected?: string[];
    }
  | { kind: 'script'; file: string; line: number; source: string }
  | { kind: 'skipped'; file: string; line: number; reason: string };

interface FencedBlock {
  info: string;
  body: string[];
  /** 1-based line of the opening fence. */
  line: number;
  /** The directive in the comment just above the fence, if any. */
  directive?: string;
  /** Whether only blank lines separate this block from the one before it. */
  adjacentToPrevious: boolean;
}

const DIRECTIVE = /^<!--\s*docs-test:\s*(.*?)\s*-->$/;

function fencedBlocks(text: string): FencedBlock[] {
  const lines = text.split('\n');
  const blocks: FencedBlock[] = [];
  let lastEnd = -2;
  for (let i = 0; i < lines.length; i++) {
    const open = /^(`{3,}|~{3,})(.*)$/.exec(lines[i] ?? '');
    if (!open) continue;
    const fence = open[1] ?? '```';
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !(lines[j] ?? '').startsWith(fence)) {
      body.push(lines[j] ?? '');
      j++;
    }
    const above = (lines[i - 1] ?? '').trim();
    const directive = DIRECTIVE.exec(above)?.[1];
    let adjacent = lastEnd >= 0;
    for (let k = lastEnd + 1; k < i && adjacent; k++) if ((lines[k] ?? '').trim() !== '') adjacent = false;
    blocks.push({
      info: (open[2] ?? '').trim(),
      body,
      line: i + 1,
      ...(directive === undefined ? {} : { directive }),
      adjacentToPrevious: adjacent,
    });
    lastEnd = j;
    i = j;
  }
  return blocks;
}

/** Splits a transcript into its commands and their output. */
export function parseTranscript(body: readonly string[]): TranscriptStep[] {
  const steps: TranscriptStep[] = [];
  for (let i = 0; i < body.length; i++) {
    const line = body[i] ?? '';
    if (line.startsWith('$ ')) {
      const parts = [line.slice(2)];
      while ((parts.at(-1) ?? '').endsWith('\\') && i + 1 < body.length) parts.push(body[++i] ?? '');
      steps.push({ command: parts.join('\n'), expected: [] });
    } else if (steps.length === 0) {
      throw new Error(`a transcript must start with a "$ " command line, found: ${line}`);
    } else {
      steps.at(-1)?.expected.push(line);
    }
  }
  return steps;
}

const SHOWS_FILE = /^\/\/\s+((?:examples|scripts|src|bench)\/[\w./-]+\.(?:mjs|js|ts))\s*$/;

/** Every example of one Markdown file, in order. */
export function findExamples(file: string, text: string): MarkdownExample[] {
  const examples: MarkdownExample[] = [];
  const blocks = fencedBlocks(text);
  for (let b = 0; b < blocks.length; b++) {
    const block = blocks[b] as FencedBlock;
    const language = block.info.split(/\s+/)[0] ?? '';
    const runnable = ['console', 'ts', 'typescript', 'js', 'mjs', 'javascript', 'sh', 'bash'].includes(
      language,
    );
    if (!runnable) continue;
    const skip = block.directive && /^skip\b\s*[—:-]?\s*(.*)$/.exec(block.directive);
    if (skip) {
      if (!skip[1]) throw new Error(`${file}:${block.line}: a skipped example must say why`);
      examples.push({ kind: 'skipped', file, line: block.line, reason: skip[1] });
      continue;
    }
    if (language === 'console') {
      examples.push({ kind: 'transcript', file, line: block.line, steps: parseTranscript(block.body) });
    } else if (language === 'sh' || language === 'bash') {
      examples.push({ kind: 'script', file, line: block.line, source: block.body.join('\n') });
    } else {
      const next = blocks[b + 1];
      const output = next && next.info === 'text' && next.adjacentToPrevious ? next.body : undefined;
      if (output) b++;
      const shows = SHOWS_FILE.exec(block.body[0] ?? '')?.[1];
      examples.push({
        kind: 'program',
        file,
        line: block.line,
        language: language === 'ts' || language === 'typescript' ? 'ts' : 'js',
        source: block.body.join('\n'),
        ...(shows === undefined ? {} : { shows }),
        ...(output === undefined ? {} : { expected: output }),
      });
    }
  }
  return examples;
}

/** Masks what legitimately differs between two runs: durations, dates, generated ids and version numbers. */
export function maskVarying(line: string): string {
  return line
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?/g, '<time>')
    .replace(/("?\w*_ms"?\s*[:=]\s*)-?\d+(?:\.\d+)?(?:e[+-]?\d+)?/g, '$1<n>')
    .replace(/\b\d+(?:\.\d+)? ?(ms|s)\b/g, '<n> $1')
    .replace(/\b[0-9a-f]{32}\b/g, '<id>')
    .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g, '<id>')
    .replace(/\s+$/, '');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Whether printed lines match the expected ones after masking. In the expected text `…` stands for any run of
 * characters within a line, and a line holding only `…` stands for any number of lines (none included).
 */
export function matchesOutput(expected: readonly string[], actual: readonly string[]): boolean {
  const want = trimBlankEnds(expected).map(maskVarying);
  const got = trimBlankEnds(actual).map(maskVarying);
  const memo = new Map<string, boolean>();
  const lineMatches = (pattern: string, text: string): boolean =>
    pattern.includes('…')
      ? new RegExp(`^${pattern.split('…').map(escapeRegExp).join('.*?')}$`, 's').test(text)
      : pattern === text;
  const match = (w: number, g: number): boolean => {
    const key = `${w}:${g}`;
    const known = memo.get(key);
    if (known !== undefined) return known;
    let result: boolean;
    if (w === want.length) result = g === got.length;
    else if ((want[w] ?? '').trim() === '…') result = match(w + 1, g) || (g < got.length && match(w, g + 1));
    else result = g < got.length && lineMatches(want[w] ?? '', got[g] ?? '') && match(w + 1, g + 1);
    memo.set(key, result);
    return result;
  };
  return match(0, 0);
}

function trimBlankEnds(lines: readonly string[]): string[] {
  let start = 0;
  let end = lines.length;
  while (start < end && (lines[start] ?? '').trim() === '') start++;
  while (end > start && (lines[end - 1] ?? '').trim() === '') end--;
  return lines.slice(start, end);
}
