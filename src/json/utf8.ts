/** The outcome of decoding bytes strictly: the text, or the byte offset where the input stops being UTF-8. */
export type DecodeUtf8Result = { ok: true; text: string } | { ok: false; offset: number; message: string };

let decoder: TextDecoder | undefined;

/** Decodes UTF-8 bytes without ever substituting U+FFFD, keeping a leading BOM in the text. */
export function decodeUtf8(bytes: Uint8Array): DecodeUtf8Result {
  const encoding = detectUtf16Or32(bytes);
  if (encoding !== undefined) {
    return { ok: false, offset: 0, message: `The input looks like ${encoding}, not UTF-8.` };
  }
  // ignoreBOM keeps U+FEFF in the text so that string offsets map back to byte offsets one to one.
  decoder ??= new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  try {
    return { ok: true, text: decoder.decode(bytes) };
  } catch {
    const offset = findInvalidUtf8(bytes);
    // Browsers refuse views of a SharedArrayBuffer; valid bytes there are decoded from a copy.
    if (offset === bytes.length) return { ok: true, text: decoder.decode(bytes.slice()) };
    return { ok: false, offset, message: `The input is not valid UTF-8 at byte ${offset}.` };
  }
}

/**
 * Names the encoding when the bytes carry a UTF-16/UTF-32 BOM or the NUL pattern of RFC 4627 §3 (a JSON text
 * starts with an ASCII character, so a NUL in its first two bytes means a wider encoding).
 */
function detectUtf16Or32(bytes: Uint8Array): string | undefined {
  if (bytes.length < 2) return undefined;
  const b0 = bytes[0];
  const b1 = bytes[1];
  if (b0 === 0xfe && b1 === 0xff) return 'UTF-16BE (byte order mark)';
  if (b0 === 0xff && b1 === 0xfe) {
    return bytes[2] === 0 && bytes[3] === 0 ? 'UTF-32LE (byte order mark)' : 'UTF-16LE (byte order mark)';
  }
  if (b0 === 0 && b1 === 0)
    return bytes[2] === 0xfe && bytes[3] === 0xff ? 'UTF-32BE (byte order mark)' : 'UTF-32BE';
  if (b0 === 0) return 'UTF-16BE';
  if (b1 === 0) return bytes[2] === 0 && bytes[3] === 0 ? 'UTF-32LE' : 'UTF-16LE';
  return undefined;
}

/** Byte offset of the first ill-formed UTF-8 sequence (Unicode Table 3-7), or the length when there is none. */
export function findInvalidUtf8(bytes: Uint8Array): number {
  const n = bytes.length;
  let i = 0;
  while (i < n) {
    const b = bytes[i] as number;
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      if (b === 0xe0) lo = 0xa0; // overlong
      if (b === 0xed) hi = 0x9f; // UTF-16 surrogates
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      if (b === 0xf0) lo = 0x90; // overlong
      if (b === 0xf4) hi = 0x8f; // above U+10FFFF
    } else return i;
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || c < lo || c > hi) return i;
      lo = 0x80;
      hi = 0xbf;
    }
    i += need + 1;
  }
  return n;
}

/** Number of UTF-8 bytes that encode `text` from index 0 up to `end` (UTF-16 code units). */
export function utf8Length(text: string, end: number): number {
  let bytes = 0;
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < end) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

/** Index of the first unpaired surrogate in `text`, or -1 when the string is well-formed UTF-16. */
export function findLoneSurrogate(text: string): number {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    if (c <= 0xdbff) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        i++;
        continue;
      }
    }
    return i;
  }
  return -1;
}
