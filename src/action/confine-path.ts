import { realpathSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { isStrictlyInside } from '../evidence/is-strictly-inside.js';

/** A path input that stays inside the workspace, or why it was refused. */
export type ConfinedPath = { ok: true; path: string } | { ok: false; message: string };

/**
 * The real path of `path`: its deepest ancestor that resolves, through symlinks, plus the rest as written.
 * A dangling or looping symlink is thus judged by where it sits, which is right for the report path: the
 * receipt replaces such a link instead of following it, and an input behind one cannot be read at all.
 */
function realPathOf(path: string): string {
  const rest: string[] = [];
  let current = path;
  for (;;) {
    try {
      return join(realpathSync(current), ...rest.reverse());
    } catch {
      const parent = dirname(current);
      if (parent === current) return path;
      rest.push(basename(current));
      current = parent;
    }
  }
}

/**
 * Refuses a path input unless it stays inside the (real) workspace after resolving `..` and symlinks
 * (see docs/conformance.md); the workspace root itself is not a file.
 */
export function confinePath(workspace: string, name: string, value: string): ConfinedPath {
  const refuse = (why: string): ConfinedPath => ({
    ok: false,
    message: `Input ${name} (${JSON.stringify(value)}) ${why}`,
  });
  const lexical = resolve(workspace, value);
  if (lexical === workspace) return refuse('is the workspace root, not a file.');
  if (!isStrictlyInside(workspace, lexical)) return refuse('leaves GITHUB_WORKSPACE.');
  const real = realPathOf(lexical);
  if (real === workspace) return refuse('resolves to the workspace root, not a file.');
  if (!isStrictlyInside(workspace, real)) return refuse('leaves GITHUB_WORKSPACE through a symbolic link.');
  return { ok: true, path: value };
}
