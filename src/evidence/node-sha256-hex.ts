import { createHash } from 'node:crypto';

/** SHA-256 of some bytes as 64 lowercase hex digits, computed by Node's `node:crypto` (OpenSSL). */
export function nodeSha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
