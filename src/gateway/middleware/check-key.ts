/**
 * Gateway keys: `Authorization: Bearer <key>`, compared in constant time. Both sides are hashed with SHA-256
 * first, so the comparison always covers 32 bytes whatever the lengths, and it runs against every configured
 * key without stopping early.
 */

const encoder = new TextEncoder();

async function digest(text: string): Promise<Uint8Array> {
  return new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', encoder.encode(text)));
}

/** Prepare the configured keys; the returned check says whether an `Authorization` header carries one of them. */
export function createKeyCheck(
  keys: readonly string[],
): (authorization: string | undefined) => Promise<boolean> {
  const digests = Promise.all(keys.map(digest));
  return async (authorization) => {
    const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization ?? '');
    const offered = await digest(match?.[1] ?? '');
    let found = 0;
    for (const key of await digests) {
      let difference = 0;
      for (let index = 0; index < key.length; index++)
        difference |= (key[index] ?? 0) ^ (offered[index] ?? 0);
      found |= difference === 0 ? 1 : 0;
    }
    return match !== null && found === 1;
  };
}
