/** Renders a JSON Pointer for people: the root is shown as `/` rather than an empty string. */
export function showPointer(pointer: string): string {
  return pointer === '' ? '/ (the whole document)' : pointer;
}

/** SHA-256 of some bytes with the browser's Web Crypto, as 64 lowercase hex digits. */
export async function sha256Web(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}
