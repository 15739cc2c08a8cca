import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { transformSync } from 'esbuild';
import { afterAll, describe, expect, test } from 'vitest';
import { ROOT } from '../support/ensure-build.js';
import {
  findExamples,
  type MarkdownExample,
  matchesOutput,
  type TranscriptStep,
} from './markdown-examples.js';

/**
 * Runs every example of README.md and docs/*.md (see markdown-examples.ts for what counts) so that none can
 * drift from what verdict really prints. `DOCS_UPDATE=1 npx vitest run test/docs` rewrites the transcripts that
 * differ with what the commands printed (then restore any `…` elisions worth keeping by hand).
 */

const WORK = join(tmpdir(), `verdict-docs-examples-${process.pid}`);
const BIN = join(WORK, 'bin');
const CLI = join(ROOT, 'dist', 'cli', 'main.js');
const UPDATE = process.env.DOCS_UPDATE === '1';
/** Folders of the repository a reader has after cloning, copied into each example's working folder. */
const SHARED_FOLDERS = ['examples', 'evidence', 'schemas'];
/** Read-only fixtures that some reference pages point at, linked rather than copied. */
const LINKED_FOLDERS = ['test/fixtures'];

function markdownFiles(): string[] {
  const docs = join(ROOT, 'docs');
  let pages: string[] = [];
  try {
    pages = readdirSync(docs, { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.md'))
      .map((name) => join(docs, name));
  } catch {
    pages = [];
  }
  return [join(ROOT, 'README.md'), ...pages.sort()];
}

/** `npx verdict …` runs the built CLI of this checkout, as it does in a clone after `npm install`. */
function writeShims(): void {
  mkdirSync(BIN, { recursive: true });
  const npx = join(BIN, 'npx');
  writeFileSync(
    npx,
    `#!/bin/sh\nif [ "$1" = verdict ]; then shift; exec "${process.execPath}" "${CLI}" "$@"; fi\necho "docs example ran npx $1, which the examples may not use" >&2\nexit 127\n`,
  );
  chmodSync(npx, 0o755);
}

let folderCount = 0;
function freshFolder(): string {
  const folder = join(WORK, `example-${++folderCount}`);
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  for (const name of SHARED_FOLDERS) cpSync(join(ROOT, name), join(folder, name), { recursive: true });
  for (const name of LINKED_FOLDERS) {
    mkdirSync(dirname(join(folder, name)), { recursive: true });
    symlinkSync(join(ROOT, name), join(folder, name));
  }
  // Imports resolve as in a project that installed verdict: `verdict` is this checkout, the rest its packages.
  const modules = join(folder, 'node_modules');
  mkdirSync(modules);
  for (const name of readdirSync(join(ROOT, 'node_modules'))) {
    if (!name.startsWith('.')) symlinkSync(join(ROOT, 'node_modules', name), join(modules, name));
  }
  symlinkSync(ROOT, join(modules, 'verdict'));
  return folder;
}

const env = {
  ...process.env,
  PATH: `${BIN}:${process.env.PATH ?? ''}`,
  NO_COLOR: '1',
  COLUMNS: '100',
  FORCE_COLOR: undefined,
  VERDICT_DOCS_EXAMPLE: '1',
};

function runShell(command: string, cwd: string): { status: number | null; output: string } {
  const run = spawnSync('bash', ['-c', `exec 2>&1\n${command}`], {
    cwd,
    env,
    encoding: 'utf8',
    timeout: 60_000,
    input: '',
  });
  return { status: run.status, output: run.stdout ?? '' };
}

const updates = new Map<string, Array<{ line: number; body: string[] }>>();

function transcriptBody(steps: readonly TranscriptStep[], outputs: readonly string[]): string[] {
  return steps.flatMap((step, i) => [
    ...step.command.split('\n').map((line, k) => (k === 0 ? `$ ${line}` : line)),
    ...(outputs[i] ?? '')
      .replace(/\n$/, '')
      .split('\n')
      .filter((line, _k, all) => !(all.length === 1 && line === '')),
  ]);
}

const STEP_END = '\u001everdict-docs-step\u001e';

/** Runs a transcript's commands in one shell (so `cd`, variables and `$?` carry over) and splits the output. */
function runTranscript(steps: readonly TranscriptStep[], cwd: string): string[] {
  const script = steps
    .map((step) => `${step.command}\n__status=$?; printf '\\n${STEP_END}\\n'; (exit $__status)`)
    .join('\n');
  const { output } = runShell(script, cwd);
  const parts = output.split(`\n${STEP_END}\n`);
  return steps.map((_, i) => parts[i] ?? '');
}

function checkTranscript(example: Extract<MarkdownExample, { kind: 'transcript' }>): void {
  const outputs = runTranscript(example.steps, freshFolder());
  const mismatches: string[] = [];
  example.steps.forEach((step, i) => {
    const output = outputs[i] ?? '';
    const actual = output === '' ? [] : output.replace(/\n$/, '').split('\n');
    if (!matchesOutput(step.expected, actual)) {
      mismatches.push(`$ ${step.command}\n--- expected\n${step.expected.join('\n')}\n--- printed\n${output}`);
    }
  });
  if (mismatches.length > 0 && UPDATE) {
    const list = updates.get(example.file) ?? [];
    list.push({ line: example.line, body: transcriptBody(example.steps, outputs) });
    updates.set(example.file, list);
    return;
  }
  expect(mismatches, mismatches.join('\n\n')).toEqual([]);
}

function checkProgram(example: Extract<MarkdownExample, { kind: 'program' }>): void {
  if (example.shows !== undefined) {
    // The block names the file on its first line; the rest is the file's code after its header comment.
    const shown = example.source.split('\n').slice(1).join('\n').trimEnd();
    const file = readFileSync(join(ROOT, example.shows), 'utf8').trimEnd();
    expect(file.endsWith(shown), `${example.shows} differs from the example that shows it`).toBe(true);
    return;
  }
  const cwd = freshFolder();
  const code =
    example.language === 'ts'
      ? transformSync(example.source, { loader: 'ts', format: 'esm', target: 'node20' }).code
      : example.source;
  writeFileSync(join(cwd, 'example.mjs'), code);
  const run = spawnSync(process.execPath, ['example.mjs'], { cwd, env, encoding: 'utf8', timeout: 60_000 });
  expect(run.status, `the example exited ${run.status}:\n${run.stdout}\n${run.stderr}`).toBe(0);
  if (example.expected !== undefined) {
    const printed = run.stdout.replace(/\n$/, '').split('\n');
    expect(
      matchesOutput(example.expected, printed),
      `--- expected\n${example.expected.join('\n')}\n--- printed\n${run.stdout}`,
    ).toBe(true);
  }
}

function checkScript(example: Extract<MarkdownExample, { kind: 'script' }>): void {
  const { status, output } = runShell(`set -e\n${example.source}`, freshFolder());
  expect(status, output).toBe(0);
}

writeShims();
const files = markdownFiles();
const skipped: string[] = [];

describe.each(files.map((file) => [relative(ROOT, file), file] as const))('examples in %s', (name, file) => {
  const examples = findExamples(name, readFileSync(file, 'utf8'));
  const runnable = examples.filter((example) => example.kind !== 'skipped');
  for (const example of examples)
    if (example.kind === 'skipped') skipped.push(`${name}:${example.line} ${example.reason}`);
  if (runnable.length === 0) {
    test('has no runnable example', () => expect(runnable).toEqual([]));
    return;
  }
  for (const example of runnable) {
    test(`${example.kind} at line ${example.line}`, () => {
      if (example.kind === 'transcript') checkTranscript(example);
      else if (example.kind === 'program') checkProgram(example);
      else if (example.kind === 'script') checkScript(example);
    });
  }
});

afterAll(() => {
  rmSync(WORK, { recursive: true, force: true });
  if (skipped.length > 0)
    console.info(`docs examples not run, with their reasons:\n  ${skipped.join('\n  ')}`);
  for (const [name, list] of updates) {
    const path = join(ROOT, name);
    const lines = readFileSync(path, 'utf8').split('\n');
    for (const { line, body } of [...list].sort((a, b) => b.line - a.line)) {
      let end = line;
      while (end < lines.length && !(lines[end] ?? '').startsWith('```')) end++;
      lines.splice(line, end - line, ...body);
    }
    writeFileSync(path, lines.join('\n'));
  }
}, 120_000);
