import v8 from "node:v8";

/**
 * V8's heap growing percentage while a file streams (docs/imports.md, "Memory"): the old
 * generation may grow to 1.5 times what the last full collection kept, instead of V8's own
 * factor (up to 4 when collecting is cheap). Parsing an ACES file of 100,000 applications makes
 * about 1.5 GB of short-lived objects; with V8's factor the heap grew over that garbage to a
 * resident 305–340 MiB before a full collection, with it 180–190 MiB, the import no slower
 * (bench/README.md). It is the process's setting, so only while a file is read: full
 * collections run more often then, for every request.
 */
const GROWING_PERCENT_WHILE_READING = 50;

let readers = 0;

/** Runs `read` with V8 collecting sooner, until the last of the files read at once is done. */
export async function collectingSooner<T>(read: () => Promise<T>): Promise<T> {
  if (readers++ === 0) {
    v8.setFlagsFromString(`--heap-growing-percent=${GROWING_PERCENT_WHILE_READING}`);
  }
  try {
    return await read();
  } finally {
    // 0 is V8's default: its own factor.
    if (--readers === 0) v8.setFlagsFromString("--heap-growing-percent=0");
  }
}
