// How a Postbox CSV import finds its records in raw bytes, shared by the import dialog (lib/admin/
// import-scan.ts: the row count and header it shows before upload) and the import-subscribers
// function's first pass (supabase/functions/_shared/csv-scan.ts: the row limit, the header, broken
// quoting), so both count the same rows. No imports, so Deno loads it as is.

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;
const COMMA = 0x2c;
const SEMICOLON = 0x3b;
const TAB = 0x09;

/** Bytes of a UTF-8 BOM at the start, if any (neither the parser nor the function counts it). */
export function bomLength(bytes: Uint8Array): number {
  return bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
}

/**
 * Counts records chunk by chunk without parsing fields, the way the CSV parser will see them: a
 * newline outside quotes ends a record, only a quote that starts a field opens quoting (elsewhere
 * it is text, the parser's relax_quotes), `""` inside quotes is a quote, blank lines do not count.
 * It also notes what makes a file invalid CSV: text after a closing quote, a quote never closed.
 */
export class RowCounter {
  private inQuotes = false;
  private afterClose = false;
  private fieldStart = true;
  private content = false;
  private records = 0;
  private lines = 1;
  private offset = 0;
  private quoteLine = 0;
  /** Byte offset just after the first record and the physical lines it took (the header). */
  header: { end: number; lines: number } | null = null;
  /** The physical line of the first text after a closing quote (not valid CSV), if any. */
  textAfterQuote: number | null = null;

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
          this.inQuotes = true; // "" inside a quoted field
          continue;
        }
        if (b !== COMMA && b !== SEMICOLON && b !== TAB && b !== CR && b !== LF)
          this.textAfterQuote ??= this.lines;
      }
      if (b === QUOTE) {
        if (this.fieldStart) {
          this.inQuotes = true;
          this.quoteLine = this.lines;
        }
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

  /** Data rows so far (the header excluded, a last record without a newline included). */
  rows(): number {
    return Math.max(0, this.records + (this.content ? 1 : 0) - 1);
  }

  /** Bytes pushed so far. */
  bytes(): number {
    return this.offset;
  }

  /** The line a quoted field opened on when the input so far ends inside it, else null. */
  openQuote(): number | null {
    return this.inQuotes ? this.quoteLine : null;
  }

  /** The header if the input ended here: up to its newline, or the whole input when it has none. */
  headerAtEnd(): { end: number; lines: number } | null {
    return this.header ?? (this.content ? { end: this.offset, lines: this.lines } : null);
  }
}
