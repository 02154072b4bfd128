// The import dialog's pass over a CSV's bytes, with the rules of the function's first pass
// (supabase/functions/_shared/csv-scan.ts): where the header record ends and how many data rows
// follow, counted chunk by chunk so a 50 MB file is never held whole.

/** SPEC §5: at most 1,000,000 data rows. */
export const MAX_IMPORT_ROWS = 1_000_000;

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;

/** Bytes of a UTF-8 BOM at the start, if any (neither the parser nor the function counts it). */
export function bomLength(bytes: Uint8Array): number {
  return bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
}

const COMMA = 0x2c;
const SEMICOLON = 0x3b;
const TAB = 0x09;

/**
 * Counts data rows (non-empty records after the header) chunk by chunk with the function's first
 * pass rules (csv-scan.ts): a newline outside quotes ends a record, only a quote that starts a
 * field opens quoting (elsewhere it is text), `""` inside quotes is a quote, blank lines do not count.
 */
export class RowCounter {
  private inQuotes = false;
  private afterClose = false;
  private fieldStart = true;
  private content = false;
  private records = 0;
  private lines = 1;
  private offset = 0;
  /** Byte offset just after the first record and the physical lines it took (the header). */
  header: { end: number; lines: number } | null = null;

  push(chunk: Uint8Array): void {
    const start = this.offset === 0 ? bomLength(chunk) : 0;
    for (let i = start; i < chunk.length; i++) {
      const b = chunk[i]!;
      if (this.inQuotes) {
        if (b === QUOTE) {
          this.inQuotes = false;
          this.afterClose = true;
        } else if (b === LF) this.lines++;
        continue;
      }
      if (this.afterClose) {
        this.afterClose = false;
        if (b === QUOTE) {
          this.inQuotes = true;
          continue;
        }
      }
      if (b === QUOTE) {
        if (this.fieldStart) this.inQuotes = true;
        this.fieldStart = false;
        this.content = true;
      } else if (b === LF) {
        if (this.content) {
          this.records++;
          this.header ??= { end: this.offset + i + 1, lines: this.lines };
        }
        this.content = false;
        this.fieldStart = true;
        this.lines++;
      } else if (b === COMMA || b === SEMICOLON || b === TAB) {
        this.fieldStart = true;
        this.content = true;
      } else if (b !== CR) {
        this.fieldStart = false;
        this.content = true;
      }
    }
    this.offset += chunk.length;
  }

  /** Data rows so far (the header excluded); call after the last chunk for the total. */
  rows(): number {
    return Math.max(0, this.records + (this.content ? 1 : 0) - 1);
  }
}

/**
 * Where the header record ends: the byte just after its newline (blank lines before it skipped)
 * and the physical lines it takes. Null when the head holds no complete header line.
 */
export function headerEnd(bytes: Uint8Array): { end: number; lines: number } | null {
  const counter = new RowCounter();
  counter.push(bytes);
  return counter.header;
}

/** Counts the rows of a file, stopping early once it is over `max` (the answer is then max + 1). */
export async function countRows(
  stream: ReadableStream<Uint8Array>,
  max = MAX_IMPORT_ROWS,
): Promise<number> {
  const counter = new RowCounter();
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      counter.push(value);
      if (counter.rows() > max) return max + 1;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return counter.rows();
}
