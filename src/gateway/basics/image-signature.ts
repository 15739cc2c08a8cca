/**
 * Whether bytes a provider handed over as an image are one (docs/gateway.md, "Security"): a download on a
 * provider's word may fetch anything, and an HTML page or a JSON document must not reach a client as
 * `image/png`. Checked by the formats' own magic bytes.
 */

const SIGNATURES: readonly (readonly (number | undefined)[])[] = [
  [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], // PNG
  [0xff, 0xd8, 0xff], // JPEG
  [0x47, 0x49, 0x46, 0x38], // GIF8
  [0x52, 0x49, 0x46, 0x46, undefined, undefined, undefined, undefined, 0x57, 0x45, 0x42, 0x50], // RIFF….WEBP
  [0x42, 0x4d], // BMP
  [0x49, 0x49, 0x2a, 0x00], // TIFF, little-endian
  [0x4d, 0x4d, 0x00, 0x2a], // TIFF, big-endian
  [undefined, undefined, undefined, undefined, 0x66, 0x74, 0x79, 0x70], // ISO media (AVIF, HEIC): ….ftyp
];

/** True when `bytes` open with the signature of PNG, JPEG, GIF, WebP, BMP, TIFF or AVIF/HEIC. */
export function isImageBytes(bytes: Uint8Array): boolean {
  return SIGNATURES.some(
    (signature) =>
      bytes.length >= signature.length &&
      signature.every((byte, index) => byte === undefined || bytes[index] === byte),
  );
}
