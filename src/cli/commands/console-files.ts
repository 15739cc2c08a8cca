import { realpath, stat } from 'node:fs/promises';
import { join, sep } from 'node:path';

/**
 * Which request paths `verdict gateway --console DIR` may serve (docs/gateway.md, "Console"): regular files
 * inside DIR only. A path with a segment starting with a dot (`.env`, `.git/config`, `..`) is refused unless
 * `dotfiles` is set, and a file whose real path (symlinks resolved) lies outside DIR is refused unless `symlinks`
 * is set. A directory stands for its `index.html`, as the static file server reads it.
 */
export function consoleFiles(
  root: string,
  allow: { dotfiles?: boolean; symlinks?: boolean } = {},
): (pathname: string) => Promise<boolean> {
  const realRoot = realpath(root).catch(() => root);
  return async (pathname) => {
    let decoded: string;
    try {
      decoded = decodeURIComponent(pathname);
    } catch {
      return false;
    }
    if (decoded.includes('\0') || decoded.includes('\\')) return false;
    const segments = decoded.split('/').filter((segment) => segment !== '');
    if (segments.some((segment) => segment === '..')) return false;
    if (allow.dotfiles !== true && segments.some((segment) => segment.startsWith('.'))) return false;
    let file = join(root, ...segments);
    const found = await stat(file).catch(() => undefined);
    if (found?.isDirectory()) file = join(file, 'index.html');
    const real = await realpath(file).catch(() => undefined);
    if (real === undefined) return false;
    const inside = (await realRoot) + sep;
    if (allow.symlinks !== true && !real.startsWith(inside)) return false;
    return (await stat(real).catch(() => undefined))?.isFile() === true;
  };
}
