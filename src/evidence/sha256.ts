import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';

/**
 * SHA-256 of some bytes as 64 lowercase hex digits, computed with `@noble/hashes` (audited, synchronous, no
 * platform API), so receipts can be created anywhere without awaiting Web Crypto. In Node, the receipt paths of
 * `verdict/evidence/node` hash with `node:crypto` instead ({@link nodeSha256Hex}), which is several times faster.
 */
export function sha256Hex(bytes: Uint8Array): string {
  return bytesToHex(sha256(bytes));
}
