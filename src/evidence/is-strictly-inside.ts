import { isAbsolute, relative, sep } from 'node:path';

/** True when `path` lies below the folder `root` (both resolved); the folder itself is not inside itself. */
export function isStrictlyInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}
