/**
 * Compiles a glob into an anchored regular expression over `/`-separated paths: `*` and `?` stay inside one
 * segment, `**` crosses segments (`**\/` also matches zero folders), `[abc]`, `[!a-z]` and `{a,b}` work as in
 * shells, and `\` escapes the next character.
 * @example
 * globToRegExp('src/**\/*.{ts,js}').test('src/a/b.ts') // true
 */
export function globToRegExp(glob: string): RegExp {
  let source = '';
  let braceDepth = 0;
  for (let i = 0; i < glob.length; i += 1) {
    const char = glob[i] as string;
    if (char === '\\' && i + 1 < glob.length) {
      i += 1;
      source += escapeRegExp(glob[i] as string);
    } else if (char === '*') {
      if (glob[i + 1] === '*') {
        const slash = glob[i + 2] === '/';
        source += slash ? '(?:.*/)?' : '.*';
        i += slash ? 2 : 1;
      } else {
        source += '[^/]*';
      }
    } else if (char === '?') {
      source += '[^/]';
    } else if (char === '[') {
      const close = glob.indexOf(']', i + 2);
      if (close === -1) {
        source += '\\[';
      } else {
        let body = glob.slice(i + 1, close);
        const negated = body.startsWith('!') || body.startsWith('^');
        if (negated) body = body.slice(1);
        source += `[${negated ? '^/' : ''}${body.replace(/[\\\]^]/g, '\\$&')}]`;
        i = close;
      }
    } else if (char === '{') {
      braceDepth += 1;
      source += '(?:';
    } else if (char === '}' && braceDepth > 0) {
      braceDepth -= 1;
      source += ')';
    } else if (char === ',' && braceDepth > 0) {
      source += '|';
    } else {
      source += escapeRegExp(char);
    }
  }
  // An unclosed `{` is closed at the end so that the expression always compiles.
  source += ')'.repeat(braceDepth);
  return new RegExp(`^${source}$`, 'u');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
