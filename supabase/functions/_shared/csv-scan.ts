// The first pass over an uploaded CSV (SPEC §5): counts its data rows without parsing fields (a
// quote-aware newline count, so the 1,000,000-row limit is checked before any row is written) and
// reads the header row: its delimiter (`,` `;` or tab) and column names.
// The delimiter rule lives in lib/csv-delimiter.ts, shared with the import dialog's preview.
import { detectDelimiter, type Delimiter } from '../../../lib/csv-delimiter.ts';
import { parseCsvSync } from './deps.ts';

export type { Delimiter };

export interface Scan {
  /** Data rows (non-empty records after the header). */
  rows: number;
  /** Byte offset just after the header record, where the first batch starts. */
  headerEnd: number;
  /** Physical line on which the header record ends. */
  headerLine: number;
  /** The header record's bytes (BOM included). */
  header: Uint8Array;
  /** True when the scan stopped because `maxRows` was exceeded (rows is then maxRows + 1). */
  exceeded: boolean;
}

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;
const COMMA = 0x2c;
const SEMICOLON = 0x3b;
const TAB = 0x09;
/** What may follow a closing quote: a delimiter, a line end or the quote of a doubled quote. */
const ENDS_FIELD = new Set([COMMA, SEMICOLON, TAB, CR, LF]);
const MAX_HEADER_BYTES = 64 * 1024;

/**
 * Counts records the way the parser will see them: a newline outside quotes ends a record, empty
 * lines are skipped. Stops reading as soon as there are more than `maxRows` data rows. Broken
 * quoting (text after a closing quote, a quote never closed) fails the whole file here, before
 * any row is written: after it no later line can be read with confidence.
 */
export async function scanCsv(body: ReadableStream<Uint8Array>, maxRows: number): Promise<Scan> {
  let inQuotes = false;
  let afterClose = false;
  let fieldStart = true;
  let quoteLine = 0;
  let content = false;
  let records = 0;
  let line = 1;
  let offset = 0;
  let headerEnd = -1;
  let headerLine = 0;
  const headerChunks: Uint8Array[] = [];
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const inHeader = headerEnd < 0;
      // A UTF-8 BOM is not part of the first field (the parser drops it too).
      const bom = offset === 0 && value[0] === 0xef && value[1] === 0xbb && value[2] === 0xbf;
      for (let i = bom ? 3 : 0; i < value.length; i++) {
        const b = value[i]!;
        if (inQuotes) {
          if (b === QUOTE) {
            inQuotes = false;
            afterClose = true;
          } else if (b === LF) line++;
          continue;
        }
        if (afterClose) {
          afterClose = false;
          if (b === QUOTE) {
            inQuotes = true; // "" inside a quoted field
            continue;
          }
          if (!ENDS_FIELD.has(b)) {
            throw new CsvFileError(
              `The file is not valid CSV at line ${line}: text after the closing quote of a field.`,
            );
          }
        }
        if (b === QUOTE) {
          // Only a quote that starts a field opens one; elsewhere it is text (relax_quotes).
          if (fieldStart) {
            inQuotes = true;
            quoteLine = line;
          }
          fieldStart = false;
          content = true;
        } else if (b === LF) {
          if (content) {
            records++;
            if (headerEnd < 0) {
              headerEnd = offset + i + 1;
              headerLine = line;
            }
          }
          content = false;
          fieldStart = true;
          line++;
        } else if (b === COMMA || b === SEMICOLON || b === TAB) {
          fieldStart = true;
          content = true;
        } else if (b !== CR) {
          fieldStart = false;
          content = true;
        }
      }
      if (inHeader) {
        headerChunks.push(value);
        if (headerEnd < 0 && offset + value.length > MAX_HEADER_BYTES) {
          throw new CsvFileError('The header row is longer than 64 KB.');
        }
      }
      offset += value.length;
      if (records - 1 > maxRows) {
        await reader.cancel();
        return {
          rows: maxRows + 1,
          headerEnd,
          headerLine,
          header: new Uint8Array(),
          exceeded: true,
        };
      }
    }
  } finally {
    reader.releaseLock();
  }
  if (inQuotes) {
    throw new CsvFileError(
      `The file is not valid CSV: the quoted field opened on line ${quoteLine} is never closed.`,
    );
  }
  if (content) {
    records++;
    if (headerEnd < 0) {
      headerEnd = offset;
      headerLine = line;
    }
  }
  if (headerEnd < 0) throw new CsvFileError('The file is empty.');
  const header = concat(headerChunks).subarray(0, headerEnd);
  return {
    rows: Math.max(0, records - 1),
    headerEnd,
    headerLine,
    header,
    exceeded: records - 1 > maxRows,
  };
}

/** A problem with the file as a whole: the import fails with this message, nothing written. */
export class CsvFileError extends Error {}

function concat(chunks: Uint8Array[]): Uint8Array {
  const all = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.length;
  }
  return all;
}

/** Decodes and parses the header row; fails without an `email` column (SPEC §5). */
export function readHeader(header: Uint8Array): { columns: string[]; delimiter: Delimiter } {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(header);
  } catch {
    throw new CsvFileError('The file is not UTF-8 text.');
  }
  const delimiter = detectDelimiter(text);
  let records: string[][];
  try {
    records = parseCsvSync(text, { delimiter, relax_column_count: true, skip_empty_lines: true });
  } catch (error) {
    throw new CsvFileError(`The header row is not valid CSV: ${(error as Error).message}`);
  }
  const columns = (records[0] ?? []).map((c) => c.trim());
  if (!columns.some((c) => c.toLowerCase() === 'email')) {
    throw new CsvFileError('The header row has no "email" column.');
  }
  return { columns, delimiter };
}
