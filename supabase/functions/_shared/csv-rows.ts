// One CSV record to one subscriber row (SPEC §5): the same email, name and attributes rules as the
// database's checks, so a batch never fails on a constraint; a bad record gets a line and a reason.
import { isValidNormalizedEmail, normalizeEmail } from './email.ts';

export interface ImportRow {
  line: number;
  email: string;
  name: string;
  attributes: Record<string, string>;
}

export interface BadRow {
  line: number;
  reason: string;
}

export interface ColumnPlan {
  count: number;
  email: number;
  name: number;
  /** [index, attribute key] of every other column. */
  attributes: Array<[number, string]>;
}

export const MAX_NAME_CHARS = 100;
export const MAX_ATTRIBUTES_BYTES = 4096;
// private.is_valid_name: no C0 or C1 control characters.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x1f\x7f-\x9f]/;
const encoder = new TextEncoder();

/** Which column is which: `email` and `name` by name (case-insensitive), the rest attributes. */
export function planColumns(columns: string[]): ColumnPlan {
  const lower = columns.map((c) => c.toLowerCase());
  const email = lower.indexOf('email');
  const name = lower.indexOf('name');
  const attributes: Array<[number, string]> = [];
  columns.forEach((column, index) => {
    if (index !== email && index !== name)
      attributes.push([index, column || `column_${index + 1}`]);
  });
  return { count: columns.length, email, name, attributes };
}

/**
 * The size Postgres gives the object as text (`{"a": "b", "c": "d"}`: a space after every colon
 * and comma), which is what private.is_valid_attributes measures.
 */
export function attributesSize(attributes: Record<string, string>): number {
  const keys = Object.keys(attributes).length;
  const compact = encoder.encode(JSON.stringify(attributes)).length;
  return keys === 0 ? compact : compact + 2 * keys - 1;
}

/**
 * A field our export (and other careful tools) guarded against spreadsheet formulas: one apostrophe
 * before =, +, -, @, a tab or a carriage return (private.csv_field). Spreadsheets hide it; the
 * import drops it so an export read back in round-trips.
 */
const FORMULA_GUARD = /^'[-=+@\t\r]/;

export function unguardField(field: string): string {
  return FORMULA_GUARD.test(field) ? field.slice(1) : field;
}

export function toRow(raw: string[], line: number, plan: ColumnPlan): ImportRow | BadRow {
  if (raw.length !== plan.count) {
    return { line, reason: `expected ${plan.count} columns, found ${raw.length}` };
  }
  if (raw.some((field) => field.includes('\u0000'))) {
    return { line, reason: 'contains a NUL character' };
  }
  const record = raw.map(unguardField);
  const email = normalizeEmail(record[plan.email] ?? '');
  if (!email) return { line, reason: 'missing email address' };
  if (!isValidNormalizedEmail(email)) return { line, reason: 'invalid email address' };
  const name = plan.name >= 0 ? (record[plan.name] ?? '').trim() : '';
  if ([...name].length > MAX_NAME_CHARS) return { line, reason: 'name over 100 characters' };
  if (CONTROL.test(name)) return { line, reason: 'name contains control characters' };
  const attributes: Record<string, string> = {};
  for (const [index, key] of plan.attributes) {
    const value = record[index] ?? '';
    // Empty cells add nothing, so a sparse column does not fill every subscriber with "".
    if (value !== '') attributes[key] = value;
  }
  if (attributesSize(attributes) > MAX_ATTRIBUTES_BYTES) {
    return { line, reason: 'attributes over 4 KB' };
  }
  return { line, email, name, attributes };
}

/** Newlines inside a record's fields, to find the line it starts on from the line it ends on. */
export function newlinesIn(record: string[]): number {
  let count = 0;
  for (const field of record) {
    if (field.indexOf('\n') < 0) continue;
    for (let i = 0; i < field.length; i++) if (field.charCodeAt(i) === 10) count++;
  }
  return count;
}

/**
 * True when a record's raw text has text right after the closing quote of a quoted field
 * (`"Ann"x`), which is not CSV. The parser reads such a field as text (relax_quotes), and the
 * record still ends where the file's line does; the import skips that one row and reports it
 * instead of guessing what the field meant (issue 23).
 */
export function textAfterClosingQuote(raw: string, delimiter: string): boolean {
  let inQuotes = false;
  let fieldStart = true;
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i]!;
    if (inQuotes) {
      if (ch !== '"') continue;
      if (raw[i + 1] === '"') {
        i++; // "" inside a quoted field
        continue;
      }
      inQuotes = false;
      const next = raw[i + 1];
      if (next !== undefined && next !== delimiter && next !== '\r' && next !== '\n') return true;
      continue;
    }
    if (ch === '"' && fieldStart) inQuotes = true;
    fieldStart = ch === delimiter || ch === '\n';
  }
  return false;
}
