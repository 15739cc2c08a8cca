import type { Dirent } from 'node:fs';
import { lstat, readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fail, ok } from '../contract/index.js';
import { defineCommand } from '../producer/define-command.js';
import type { OptionSpecs } from '../producer/types.js';
import { errnoOf, toFsFailure } from './fs-failure.js';
import { globToRegExp } from './glob-to-regexp.js';

const options = {
  root: { type: 'string', description: 'Folder to search.', default: '.', valueName: 'DIR' },
  pattern: {
    type: 'string',
    description: 'Glob matched against the file name, or against the path below the root when it has a /.',
    default: '*',
    valueName: 'GLOB',
  },
  'max-depth': {
    type: 'integer',
    description: 'How many folder levels below the root to enter (0: the root only); no limit when omitted.',
    min: 0,
    valueName: 'N',
  },
  'max-results': {
    type: 'integer',
    description: 'Stop after this many matches and report truncated: true.',
    default: 1000,
    min: 1,
    valueName: 'N',
  },
  'include-hidden': {
    type: 'boolean',
    description: 'Also search names starting with a dot.',
    default: false,
  },
} as const satisfies OptionSpecs;

/** One matching file: its path below the root, its kind, size and modification time. */
export interface FileMatch {
  /** Path relative to the root, with `/` separators. */
  path: string;
  /** `file`, or `symlink` for a symbolic link (reported, never followed). */
  type: 'file' | 'symlink';
  /** Size in bytes (of the link itself for a symlink). */
  size_bytes: number;
  /** Modification time, ISO 8601 in UTC. */
  modified: string;
}

interface Folder {
  absolute: string;
  relative: string;
  depth: number;
}

/** Searches a folder tree for files whose name or path matches a glob, without following symbolic links. */
export const findFiles = defineCommand({
  name: 'findFiles',
  description:
    'Searches a folder tree for files matching a glob. Symbolic links are reported but never followed, so ' +
    'link loops cannot trap the search; unreadable folders are skipped with a warning.',
  options,
  errorCodes: {
    path_not_found: 'The root does not exist.',
    not_a_directory: 'The root is not a folder.',
    permission_denied: 'The root folder cannot be read.',
  },
  outputSchema: {
    type: 'object',
    required: ['root', 'pattern', 'matches', 'count', 'truncated', 'directories_scanned'],
    properties: {
      root: { type: 'string', description: 'Absolute path of the searched folder.' },
      pattern: { type: 'string' },
      matches: {
        type: 'array',
        items: {
          type: 'object',
          required: ['path', 'type', 'size_bytes', 'modified'],
          properties: {
            path: { type: 'string', description: 'Relative to the root, `/`-separated.' },
            type: { type: 'string', enum: ['file', 'symlink'] },
            size_bytes: { type: 'integer', minimum: 0 },
            modified: { type: 'string', format: 'date-time' },
          },
        },
      },
      count: { type: 'integer', minimum: 0 },
      truncated: { type: 'boolean', description: 'True when --max-results stopped the search early.' },
      directories_scanned: { type: 'integer', minimum: 0 },
      unreadable_directories: {
        type: 'array',
        items: { type: 'string' },
        description: 'Folders that could not be read (relative to the root); present when there were any.',
      },
    },
  },
  async run({ options: opts }, ctx) {
    const root = resolve(ctx.io.cwd, opts.root);
    let matcher: RegExp;
    try {
      matcher = globToRegExp(opts.pattern);
    } catch (error) {
      // A glob can still make an invalid expression (a range out of order, `[z-a]`): bad input, not a bug.
      return fail(`--pattern ${JSON.stringify(opts.pattern)} is not a valid glob.`, {
        error: error instanceof Error ? error.message : String(error),
        error_code: 'invalid_arguments',
        pattern: opts.pattern,
      });
    }
    try {
      if (!(await stat(root)).isDirectory()) {
        return fail(`${root} is not a folder.`, { error_code: 'not_a_directory', path: root });
      }
    } catch (error) {
      return toFsFailure(error, root);
    }
    const matchPath = opts.pattern.includes('/');
    const maxDepth = opts['max-depth'] ?? Number.POSITIVE_INFINITY;
    const matches: FileMatch[] = [];
    const unreadable: string[] = [];
    const warnings: string[] = [];
    // Symbolic links are never entered; the device+inode set also stops loops made by bind mounts.
    const visited = new Set<string>();
    const stack: Folder[] = [{ absolute: root, relative: '', depth: 0 }];
    let scanned = 0;
    let truncated = false;

    search: while (stack.length > 0) {
      ctx.signal.throwIfAborted();
      const folder = stack.pop() as Folder;
      let entries: Dirent[];
      try {
        const info = await stat(folder.absolute);
        const identity = `${info.dev}:${info.ino}`;
        if (visited.has(identity)) continue;
        visited.add(identity);
        entries = await readdir(folder.absolute, { withFileTypes: true });
      } catch (error) {
        if (folder.depth === 0) {
          return toFsFailure(error, root);
        }
        unreadable.push(folder.relative);
        warnings.push(`Skipped folder ${folder.relative}: ${errnoOf(error) ?? String(error)}.`);
        continue;
      }
      scanned += 1;
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      const subfolders: Folder[] = [];
      for (const entry of entries) {
        if (!opts['include-hidden'] && entry.name.startsWith('.')) continue;
        const relative = folder.relative === '' ? entry.name : `${folder.relative}/${entry.name}`;
        const absolute = join(folder.absolute, entry.name);
        if (entry.isDirectory()) {
          if (folder.depth < maxDepth) subfolders.push({ absolute, relative, depth: folder.depth + 1 });
          continue;
        }
        if (!entry.isFile() && !entry.isSymbolicLink()) continue;
        if (!matcher.test(matchPath ? relative : entry.name)) continue;
        if (matches.length >= opts['max-results']) {
          truncated = true;
          break search;
        }
        try {
          const info = await lstat(absolute);
          matches.push({
            path: relative,
            type: entry.isSymbolicLink() ? 'symlink' : 'file',
            size_bytes: info.size,
            modified: info.mtime.toISOString(),
          });
        } catch (error) {
          // The file vanished or became unreadable between listing and stat: say so, invent nothing.
          warnings.push(`Skipped file ${relative}: ${errnoOf(error) ?? String(error)}.`);
        }
      }
      // Reversed so that popping visits folders in name order (a depth-first walk in sorted order).
      stack.push(...subfolders.reverse());
    }

    const count = matches.length;
    const summary = `Found ${count} file${count === 1 ? '' : 's'} matching ${opts.pattern} under ${root}`;
    return ok(truncated ? `${summary}; stopped at --max-results ${opts['max-results']}.` : `${summary}.`, {
      root,
      pattern: opts.pattern,
      matches,
      count,
      truncated,
      directories_scanned: scanned,
      unreadable_directories: unreadable.length > 0 ? unreadable : undefined,
      warnings: warnings.length > 0 ? warnings : undefined,
    });
  },
});
