// The import dialog's pass over a CSV's bytes, with the counter the function's first pass uses
// (lib/csv-records.ts): where the header record ends and how many data rows follow, counted chunk
// by chunk so a 50 MB file is never held whole.

import { RowCounter } from '../csv-records';

export { bomLength, RowCounter } from '../csv-records';

/** SPEC §5: at most 1,000,000 data rows. */
export const MAX_IMPORT_ROWS = 1_000_000;

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
