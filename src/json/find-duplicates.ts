import { escapePointerToken } from './json-pointer.js';
import { decodeString } from './scan-json.js';
import type { DuplicateMember } from './types.js';

/** Most members an object's names are searched for in place; a larger object keeps them in a Map. */
const SMALL_OBJECT = 16;

/**
 * The member names seen in each open object, for finding repeats in time linear in the input. A small object
 * keeps its names on one shared stack (from `starts[depth]` on) and is searched in place, which costs less
 * than a Map per object for the many small objects of real documents; an object that grows past
 * {@link SMALL_OBJECT} members moves its names into a Map, so a name is found in constant time however many
 * members there are. The stack keeps its own height instead of setting the arrays' lengths, which V8 does
 * through a slow runtime call.
 */
class MemberNames {
  private readonly names: string[] = [];
  private readonly reported: boolean[] = [];
  private readonly starts: number[] = [];
  private readonly maps: (Map<string, boolean> | undefined)[] = [];
  private top = 0;

  /** Starts the object at `depth`. */
  open(depth: number): void {
    this.starts[depth] = this.top;
    this.maps[depth] = undefined;
  }

  /** Forgets the names of the object at `depth`, which has closed. */
  close(depth: number): void {
    this.top = this.starts[depth] as number;
  }

  /** Records `key` in the object at `depth`; true the first time it repeats there, so each repeat is reported once. */
  add(depth: number, key: string): boolean {
    const map = this.maps[depth];
    if (map !== undefined) {
      const reported = map.get(key);
      if (reported === undefined) map.set(key, false);
      else if (!reported) map.set(key, true);
      return reported === false;
    }
    const { names, reported } = this;
    const from = this.starts[depth] as number;
    const to = this.top;
    let found = from;
    while (found < to && names[found] !== key) found++;
    if (found < to) {
      if (reported[found]) return false;
      reported[found] = true;
      return true;
    }
    if (to - from < SMALL_OBJECT) {
      names[to] = key;
      reported[to] = false;
      this.top = to + 1;
      return false;
    }
    const grown = new Map<string, boolean>();
    for (let k = from; k < to; k++) grown.set(names[k] as string, reported[k] as boolean);
    grown.set(key, false);
    this.maps[depth] = grown;
    this.top = from;
    return false;
  }
}

/**
 * The path to the value being scanned, one segment per open container, with the JSON Pointers of its prefixes
 * built on demand. A pointer is kept until a segment before its end changes, so it is rebuilt at most once per
 * change: reporting every duplicate costs the length of the names involved, not the depth times their number.
 */
class PathSegments {
  private readonly segments: (string | number)[] = [];
  /** pointers[k] renders the first k segments, for every k up to `valid`. */
  private readonly pointers: string[] = [''];
  private valid = 0;

  /** Sets the segment of the container at `depth` (its current member name or element index). */
  set(depth: number, segment: string | number): void {
    this.segments[depth] = segment;
    if (this.valid > depth) this.valid = depth;
  }

  /** The element index of the array at `depth`. */
  index(depth: number): number {
    return this.segments[depth] as number;
  }

  /** The RFC 6901 JSON Pointer of the container at `depth`: its first `depth` segments. */
  pointer(depth: number): string {
    const { pointers, segments } = this;
    for (let k = this.valid; k < depth; k++) {
      const segment = segments[k] as string | number;
      pointers[k + 1] =
        typeof segment === 'number'
          ? `${pointers[k]}/${segment}`
          : `${pointers[k]}/${escapePointerToken(segment)}`;
    }
    if (depth > this.valid) this.valid = depth;
    return pointers[depth] as string;
  }
}

/**
 * Every member name that repeats within its object in `text` from `start`, once per object and name, with the
 * JSON Pointer of the object. The text must be one JSON value that `JSON.parse` accepted and that nests no
 * deeper than the reader's limit, so this walk checks no grammar: it follows only the brackets, commas and
 * string literals (found with `indexOf`), and reads every character a bounded number of times, so its time is
 * linear in the text.
 */
export function findDuplicates(text: string, start: number): DuplicateMember[] {
  const duplicates: DuplicateMember[] = [];
  const names = new MemberNames();
  const path = new PathSegments();
  // inObject[d] tells whether the container at depth d is an object; depth is that of the innermost one.
  const inObject: boolean[] = [];
  let depth = -1;
  // True when the next string literal is a member name: right after `{`, or after `,` in an object.
  let nameNext = false;
  const n = text.length;
  for (let i = start; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const end = closingQuote(text, i);
      if (nameNext) {
        nameNext = false;
        const key = decodeString(text, i + 1, end);
        if (names.add(depth, key)) duplicates.push({ path: path.pointer(depth), key });
        path.set(depth, key);
      }
      i = end;
    } else if (c === 0x2c) {
      if (inObject[depth]) nameNext = true;
      else path.set(depth, path.index(depth) + 1);
    } else if (c === 0x7b) {
      depth++;
      inObject[depth] = true;
      names.open(depth);
      nameNext = true;
    } else if (c === 0x5b) {
      depth++;
      inObject[depth] = false;
      path.set(depth, 0);
    } else if (c === 0x7d) {
      names.close(depth);
      depth--;
      nameNext = false;
    } else if (c === 0x5d) {
      depth--;
    }
  }
  return duplicates;
}

/**
 * Index of the quote that closes the valid string literal opening at `i`: the first quote after it that is
 * not escaped, that is, not preceded by an odd run of backslashes. Each run is counted once, before the one
 * quote that ends it.
 */
function closingQuote(text: string, i: number): number {
  let end = text.indexOf('"', i + 1);
  while (text.charCodeAt(end - 1) === 0x5c) {
    let backslashes = 1;
    while (text.charCodeAt(end - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) break;
    end = text.indexOf('"', end + 1);
  }
  return end;
}
