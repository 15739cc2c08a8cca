/**
 * Base64 and base64url (RFC 4648) without `node:` Buffer, so that the normalizers, the gateway and the console
 * run in browsers and edge runtimes alike. Padding is optional when reading.
 */

/** The bytes of base64 text, or `undefined` when it is not base64. */
export function fromBase64(text: string): Uint8Array | undefined {
  let binary: string;
  try {
    binary = atob(text);
  } catch {
    return undefined;
  }
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

/** Base64 of some bytes, padded. */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  const chunk = 0x8000;
  for (let index = 0; index < bytes.length; index += chunk) {
    binary += String.fromCharCode(...bytes.subarray(index, index + chunk));
  }
  return btoa(binary);
}

/** The bytes of base64url text (`-` and `_`, padding optional), or `undefined` when it is not base64url. */
export function fromBase64Url(text: string): Uint8Array | undefined {
  if (/[+/]/.test(text)) return undefined;
  return fromBase64(text.replaceAll('-', '+').replaceAll('_', '/'));
}

/** Base64url of some bytes, without padding (as URLs, cursors and keys carry it). */
export function toBase64Url(bytes: Uint8Array): string {
  return toBase64(bytes).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}
