import zlib from "node:zlib";
import type { Page } from "@playwright/test";

// Images for the photo journeys (a return's, a warranty claim's).

/** A `size`×`size` PNG of one colour, built here: signature, IHDR, IDAT (zlib), IEND. */
export function solidPng(size: number, [r, g, b]: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(zlib.crc32(body), body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB, deflate, no filter, no interlace
  // Each row: filter byte 0, then RGB per pixel.
  const row = Buffer.from([0, ...Array.from({ length: size }, () => [r, g, b]).flat()]);
  const pixels = Buffer.concat(Array.from({ length: size }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", zlib.deflateSync(pixels)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** Waits until the image has loaded and answers its natural width (0: it did not load). */
export const loadedWidth = (img: ReturnType<Page["locator"]>) =>
  img.evaluate(async (el: HTMLImageElement) => {
    await el.decode().catch(() => undefined);
    return el.naturalWidth;
  });
