import type { SaxesParser } from "saxes";

/**
 * What the ACES and PIES readers share (docs/imports.md): the file's bytes fed to a `saxes`
 * parser chunk by chunk (never the whole file in memory), its encoding taken from the XML
 * declaration, its size and its longest stretch without markup bounded as it streams, and
 * saxes' own errors told with their line. Each reader keeps its elements to itself.
 */

/** A file the import refuses (nothing is written then), with the line where it went wrong. */
export class ImportFileError extends Error {
  constructor(
    message: string,
    readonly line?: number,
  ) {
    super(message);
  }
}

/**
 * A DOCTYPE refused (no entity of the file is ever read: a `standard` file has none) with the
 * reader's `fail`, and processing instructions passed over.
 */
export function refuseDoctype(
  parser: SaxesParser,
  standard: "ACES" | "PIES",
  fail: (message: string) => never,
): void {
  parser.on("doctype", () =>
    fail(
      `The file has a DOCTYPE: ${standard} files have none, and files with one are refused (no entities are read)`,
    ),
  );
  parser.on("processinginstruction", () => {});
}

/**
 * What a reader has read since the last chunk, handed on as one batch (`tell`, from `streamXml`'s
 * `afterChunk`): the caller's writes go a batch at a time, never once a record; nothing when none.
 */
export function batchesTo<T>(handle: (batch: T[]) => Promise<void>) {
  let pending: T[] = [];
  return {
    add: (record: T) => {
      pending.push(record);
    },
    tell: async () => {
      if (pending.length === 0) return;
      const batch = pending;
      pending = [];
      await handle(batch);
    },
  };
}

/**
 * Longest stretch of the file without a `<` or `>`: a text, comment or attribute longer than this
 * is refused before the parser buffers it (a file of one 200 MB text node would else be held whole).
 */
export const MAX_RUN_WITHOUT_MARKUP = 1024 * 1024;

/** Encodings the file may declare, as TextDecoder labels. */
const ENCODINGS: Record<string, string> = {
  "utf-8": "utf-8",
  utf8: "utf-8",
  "us-ascii": "utf-8",
  ascii: "utf-8",
  "iso-8859-1": "latin1",
  "latin-1": "latin1",
  latin1: "latin1",
  "windows-1252": "windows-1252",
  cp1252: "windows-1252",
};

/** The encoding named by the XML declaration at the file's start (UTF-8 when none). */
function sniffEncoding(head: Buffer): string {
  const text = head.subarray(0, 200).toString("latin1");
  if (text.startsWith("\uFEFF") || head[0] === 0xef) return "utf-8";
  if (head[0] === 0xfe || head[0] === 0xff || (head[0] === 0 && head[1] === 0x3c)) {
    throw new ImportFileError("The file is UTF-16: save it as UTF-8 and upload it again");
  }
  const declared = /^<\?xml[^>]*\bencoding\s*=\s*["']([^"']+)["']/.exec(text)?.[1];
  if (!declared) return "utf-8";
  const label = ENCODINGS[declared.toLowerCase()];
  if (!label) {
    throw new ImportFileError(
      `The file is encoded as ${declared}: save it as UTF-8 and upload it again`,
    );
  }
  return label;
}

/** saxes' error ("3:14: unclosed tag: App") as our own, with its line. */
function asFileError(err: unknown, line: number): ImportFileError {
  if (err instanceof ImportFileError) return err;
  const message = err instanceof Error ? err.message : String(err);
  const m = /^(?:[^:]*:)?(\d+):(\d+): (.*)$/s.exec(message);
  const at = m ? Number(m[1]) : line;
  const reason = (m ? m[3]! : message).replace(/\.$/, "");
  return new ImportFileError(`The file is not well-formed XML (line ${at}): ${reason}`, at);
}

export const formatBytes = (n: number) =>
  n % (1024 * 1024) === 0 ? `${n / 1024 / 1024} MiB` : `${(n / 1024 / 1024).toFixed(1)} MiB`;

export interface XmlStreamOptions {
  /** Bytes read at most; the file is refused as soon as it goes past them. */
  maxBytes: number;
  /** The standard's name, for the refusals ("ACES"). */
  standard: string;
  /** Whether the root element has been closed (the reader's own bookkeeping). */
  rootClosed: () => boolean;
  /** The innermost element still open (undefined: none was ever opened). */
  openElement: () => string | undefined;
  /** Called after each chunk is parsed (and once at the end): the reader hands on what it read. */
  afterChunk: () => Promise<void>;
}

/**
 * Feeds `source` to `parser` chunk by chunk, as described above; throws `ImportFileError` for a
 * file that is too large, empty, not well-formed or cut short (with the line).
 */
export async function streamXml(
  source: AsyncIterable<Buffer | string>,
  parser: SaxesParser,
  opts: XmlStreamOptions,
): Promise<void> {
  let bytes = 0;
  let run = 0;
  let decoder: TextDecoder | undefined;
  const fail = (message: string): never => {
    throw new ImportFileError(message, parser.line);
  };
  const feed = (chunk: string) => {
    // The longest stretch without markup, across chunks.
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i);
      if (c === 60 || c === 62) run = 0;
      else if (++run > MAX_RUN_WITHOUT_MARKUP) {
        fail(
          `The file has a text, comment or attribute longer than ${MAX_RUN_WITHOUT_MARKUP / 1024 / 1024} MiB: not an ${opts.standard} file`,
        );
      }
    }
    try {
      parser.write(chunk);
    } catch (err) {
      throw asFileError(err, parser.line);
    }
  };
  for await (const piece of source) {
    const buf = typeof piece === "string" ? Buffer.from(piece) : piece;
    bytes += buf.length;
    if (bytes > opts.maxBytes) {
      throw new ImportFileError(
        `The file is larger than ${formatBytes(opts.maxBytes)}, the most one import takes`,
      );
    }
    decoder ??= new TextDecoder(sniffEncoding(buf), { fatal: false });
    feed(decoder.decode(buf, { stream: true }));
    await opts.afterChunk();
  }
  if (decoder) feed(decoder.decode());
  if (bytes === 0) throw new ImportFileError("The file is empty");
  if (!opts.rootClosed()) {
    const open = opts.openElement();
    if (open === undefined) fail(`This is not an ${opts.standard} file: it has no root element`);
    fail(
      `The file ends before its ${open} element is closed: it may have been cut short (upload it again)`,
    );
  }
  try {
    parser.close();
  } catch (err) {
    throw asFileError(err, parser.line);
  }
  await opts.afterChunk();
}
