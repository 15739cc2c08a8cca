import { deflateSync } from 'node:zlib';
import { crc32 } from '../../unified/providers/aws-event-stream.js';

/** The eight bytes every PNG file starts with. */
const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** One RGB colour, each channel 0–255. */
export type Rgb = readonly [number, number, number];

/** One PNG chunk: its length, type, data and the CRC-32 of type and data. */
function chunkOf(type: string, data: Uint8Array): Uint8Array {
  const chunk = new Uint8Array(12 + data.length);
  const view = new DataView(chunk.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) chunk[4 + i] = type.charCodeAt(i);
  chunk.set(data, 8);
  view.setUint32(8 + data.length, crc32(chunk.subarray(4, 8 + data.length)));
  return chunk;
}

/**
 * Encodes an 8-bit RGB PNG of `width` × `height` pixels, the colour of each given by `pixel`. Every row uses the
 * Sub filter (each byte minus the one three bytes to its left), so smooth gradients deflate to a few kilobytes.
 */
export function encodePng(width: number, height: number, pixel: (x: number, y: number) => Rgb): Uint8Array {
  const stride = width * 3 + 1;
  const raw = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const row = y * stride;
    raw[row] = 1;
    let left: Rgb = [0, 0, 0];
    for (let x = 0; x < width; x++) {
      const colour = pixel(x, y);
      for (let c = 0; c < 3; c++) raw[row + 1 + x * 3 + c] = ((colour[c] ?? 0) - (left[c] ?? 0)) & 0xff;
      left = colour;
    }
  }
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits per channel, truecolour, deflate, adaptive filters, no interlace
  const parts = [
    Uint8Array.from(SIGNATURE),
    chunkOf('IHDR', header),
    chunkOf('IDAT', deflateSync(raw)),
    chunkOf('IEND', new Uint8Array()),
  ];
  const png = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    png.set(part, offset);
    offset += part.length;
  }
  return png;
}
