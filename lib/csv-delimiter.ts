// How a Postbox CSV import picks its delimiter, shared by the import dialog's preview and the
// import-subscribers function (supabase/functions/_shared/csv-scan.ts): no imports, so Deno loads it as is.

export type Delimiter = ',' | ';' | '\t';

/** The delimiter used most often outside quotes on the header row (comma when none is). */
export function detectDelimiter(headerText: string): Delimiter {
  const counts: Record<Delimiter, number> = { ',': 0, ';': 0, '\t': 0 };
  let inQuotes = false;
  for (const ch of headerText) {
    if (ch === '"') inQuotes = !inQuotes;
    else if (!inQuotes && (ch === ',' || ch === ';' || ch === '\t')) counts[ch]++;
  }
  let best: Delimiter = ',';
  for (const candidate of [';', '\t'] as const) {
    if (counts[candidate] > counts[best]) best = candidate;
  }
  return best;
}
