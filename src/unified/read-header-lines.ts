/** The outcome of {@link readHeaderLines}: name/value pairs, or the first line that is not `Name: value`. */
export type HeaderLines =
  | { ok: true; headers: [string, string][] }
  | { ok: false; line: string; message: string };

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Read `Name: value` lines (as given to `verdict normalize --header`) into name/value pairs; never throws.
 * @example readHeaderLines(['x-request-id: req_1']) // { ok: true, headers: [['x-request-id', 'req_1']] }
 */
export function readHeaderLines(lines: readonly string[]): HeaderLines {
  const headers: [string, string][] = [];
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = colon === -1 ? '' : line.slice(0, colon).trim();
    if (!TOKEN.test(name)) {
      return {
        ok: false,
        line,
        message: `Not a header line of the form 'Name: value': ${JSON.stringify(line)}.`,
      };
    }
    headers.push([name.toLowerCase(), line.slice(colon + 1).trim()]);
  }
  return { ok: true, headers };
}
