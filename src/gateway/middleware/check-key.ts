/**
 * Gateway keys: `Authorization: Bearer <key>`, `x-api-key: <key>` or `api-key: <key>` (docs/gateway.md,
 * "Security"), compared in constant time. Both sides are hashed with SHA-256 first, so the comparison always
 * covers 32 bytes whatever the lengths, and it runs against every configured key without stopping early.
 */

const encoder = new TextEncoder();

async function digest(text: string): Promise<Uint8Array> {
  return new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', encoder.encode(text)));
}

/**
 * The gateway key a request offers: the bearer token of `Authorization`, else `x-api-key` (the Anthropic SDKs'
 * header), else `api-key` (Azure-style OpenAI clients). The first carrier present decides, so an `Authorization`
 * header that is not a bearer token offers no key even beside an `x-api-key`.
 */
export function offeredKey(header: (name: string) => string | undefined): string | undefined {
  const authorization = header('authorization');
  if (authorization !== undefined) return /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization)?.[1];
  const plain = header('x-api-key') ?? header('api-key');
  return plain === undefined ? undefined : /^[ \t]*(\S+)[ \t]*$/.exec(plain)?.[1];
}

/** Prepare the configured keys; the returned check says whether an offered key is one of them. */
export function createKeyCheck(keys: readonly string[]): (offered: string | undefined) => Promise<boolean> {
  const digests = Promise.all(keys.map(digest));
  return async (offered) => {
    const hashed = await digest(offered ?? '');
    let found = 0;
    for (const key of await digests) {
      let difference = 0;
      for (let index = 0; index < key.length; index++) difference |= (key[index] ?? 0) ^ (hashed[index] ?? 0);
      found |= difference === 0 ? 1 : 0;
    }
    return offered !== undefined && found === 1;
  };
}
