// The first pass over an uploaded CSV (SPEC §5): counts its data rows without parsing fields (a
// quote-aware newline count, so the 1,000,000-row limit is checked before any row is written) and
// reads the header row: its delimiter (`,` `;` or tab) and column names.
// The record counter (lib/csv-records.ts) and the delimiter rule (lib/csv-delimiter.ts) are shared
// with the import dialog's preview.
import { detectDelimiter, type Delimiter } from '../../../lib/csv-delimiter.ts';
import { RowCounter } from '../../../lib/csv-records.ts';
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

const MAX_HEADER_BYTES = 64 * 1024;

/**
 * Counts records the way the parser will see them (lib/csv-records.ts, the same counter as the
 * import dialog's), stopping as soon as there are more than `maxRows` data rows. A quote never
 * closed fails the whole file here, before any row is written: after it no later line can be read
 * with confidence. Text after a closing quote does not: the record still ends with its line, and
 * the batches skip and report that row (csv-rows.ts textAfterClosingQuote).
 */
export async function scanCsv(body: ReadableStream<Uint8Array>, maxRows: number): Promise<Scan> {
  const counter = new RowCounter();
  const headerChunks: Uint8Array[] = [];
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (counter.header === null) headerChunks.push(value);
      counter.push(value);
      if (counter.header === null && counter.bytes() > MAX_HEADER_BYTES) {
        throw new CsvFileError('The header row is longer than 64 KB.');
      }
      if (counter.rows() > maxRows) {
        await reader.cancel();
        const header = counter.headerAtEnd()!;
        return {
          rows: maxRows + 1,
          headerEnd: header.end,
          headerLine: header.lines,
          header: new Uint8Array(),
          exceeded: true,
        };
      }
    }
  } finally {
    reader.releaseLock();
  }
  const open = counter.openQuote();
  if (open !== null) {
    throw new CsvFileError(
      `The file is not valid CSV: the quoted field opened on line ${open} is never closed.`,
    );
  }
  const header = counter.headerAtEnd();
  if (!header) throw new CsvFileError('The file is empty.');
  return {
    rows: counter.rows(),
    headerEnd: header.end,
    headerLine: header.lines,
    header: concat(headerChunks).subarray(0, header.end),
    exceeded: false,
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
