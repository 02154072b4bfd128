// What the import dialog knows about a CSV before uploading it (SPEC §5): the file checks, the
// delimiter and header read the way import-subscribers reads them, the first rows, which column
// becomes email, name or an attribute, and a quote-aware row count for the 1,000,000-row limit.
import { detectDelimiter, type Delimiter } from '../csv-delimiter';
import { bomLength, headerEnd } from './import-scan';

/** SPEC §5: at most 50 MB (the `imports` bucket's file_size_limit is 52428800 bytes). */
export const MAX_IMPORT_BYTES = 50 * 1024 * 1024;
/** How much of the file the preview reads (the function refuses a header over 64 KB too). */
export const PREVIEW_BYTES = 64 * 1024;
export const PREVIEW_ROWS = 5;
/** What the bucket accepts; the upload is always sent as text/csv. */
export const IMPORT_ACCEPT = '.csv,text/csv';

export { detectDelimiter, type Delimiter };

export { bomLength, countRows, headerEnd, MAX_IMPORT_ROWS, RowCounter } from './import-scan';

export interface FileLike {
  name: string;
  size: number;
}

/** Null when the file may be imported, else the message to show at the file field. */
export function checkImportFile(file: FileLike): string | null {
  if (!/\.csv$/i.test(file.name)) return 'Choose a .csv file.';
  if (file.size === 0) return 'That file is empty.';
  if (file.size > MAX_IMPORT_BYTES) {
    return `That file is ${formatBytes(file.size)}; an import may be at most 50 MB.`;
  }
  return null;
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}

/** Which column is which, by index; `null` when there is none. */
export interface ColumnMapping {
  email: number | null;
  name: number | null;
}

/** The function's rule: columns named `email` and `name` (any case, trimmed); the rest attributes. */
export function defaultMapping(columns: string[]): ColumnMapping {
  const lower = columns.map((c) => c.trim().toLowerCase());
  const email = lower.indexOf('email');
  const name = lower.indexOf('name');
  return { email: email >= 0 ? email : null, name: name >= 0 ? name : null };
}

/** Header names meaning "the address" and "the name" in other tools' exports, compared squashed. */
const EMAIL_NAMES = ['email', 'emailaddress', 'mail', 'mailaddress', 'courriel', 'emailadresse'];
const NAME_NAMES = ['name', 'fullname', 'displayname', 'subscribername', 'contactname', 'yourname'];
const FIRST_NAME_NAMES = ['firstname', 'first', 'givenname', 'forename', 'prenom', 'vorname'];

/** "E-mail Address" → "emailaddress": lower case, letters and digits only (accents dropped). */
function squash(column: string): string {
  return column
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
}

/**
 * The mapping the preview starts with: the function's rule first, then the headers other tools
 * write ("E-mail", "Email Address", "Full name", "First Name"…), so most files need no choosing.
 * A full name wins over a first name.
 */
export function suggestedMapping(columns: string[]): ColumnMapping {
  const plain = defaultMapping(columns);
  const squashed = columns.map(squash);
  const find = (names: string[]) => {
    for (const name of names) {
      const index = squashed.indexOf(name);
      if (index >= 0) return index;
    }
    return null;
  };
  const email = plain.email ?? find(EMAIL_NAMES);
  let name = plain.name ?? find(NAME_NAMES) ?? find(FIRST_NAME_NAMES);
  if (name === email) name = null;
  return { email, name };
}

export type ColumnRole = 'email' | 'name' | 'attribute';

/** Every column with what it becomes: email, name, or the attribute key it is stored under. */
export function describeColumns(
  columns: string[],
  mapping: ColumnMapping,
): Array<{ index: number; column: string; role: ColumnRole; key: string }> {
  const names = uploadedNames(columns, mapping);
  return columns.map((column, index) => {
    const key = names[index]!;
    const role: ColumnRole =
      index === mapping.email ? 'email' : index === mapping.name ? 'name' : 'attribute';
    return { index, column, role, key };
  });
}

/** The attribute key of a column: its trimmed name, or `column_<n>` when it has none. */
function attributeKey(column: string, index: number): string {
  return column.trim() || `column_${index + 1}`;
}

function isDefault(columns: string[], mapping: ColumnMapping): boolean {
  const plain = defaultMapping(columns);
  return plain.email === mapping.email && plain.name === mapping.name;
}

/**
 * The column names the function will read: the chosen columns become `email` and `name`, and a
 * column that was named `email` or `name` but was not chosen keeps its data as an attribute
 * under `<name> (column <n>)`, since the function knows columns only by those two names.
 */
function uploadedNames(columns: string[], mapping: ColumnMapping): string[] {
  const taken = new Set(columns.map((c) => c.trim().toLowerCase()));
  return columns.map((column, index) => {
    if (index === mapping.email) return 'email';
    if (index === mapping.name) return 'name';
    const key = attributeKey(column, index);
    const lower = key.toLowerCase();
    if (lower !== 'email' && lower !== 'name') return key;
    const base = `${key} (column ${index + 1})`;
    let renamed = base;
    for (let n = 2; taken.has(renamed.toLowerCase()); n++) renamed = `${base} ${n}`;
    taken.add(renamed.toLowerCase());
    return renamed;
  });
}

/** One header field, quoted when it holds the delimiter, a quote or a line break. */
function csvField(value: string, delimiter: Delimiter): string {
  return value.includes(delimiter) || /["\r\n]/.test(value)
    ? `"${value.replace(/"/g, '""')}"`
    : value;
}

/**
 * The header to upload in place of the file's when the user picked other columns for email or
 * name than the header names (see uploadedNames). Null when the file's own header already says
 * what the user chose, so the file goes up untouched.
 */
export function rewrittenHeader(
  columns: string[],
  mapping: ColumnMapping,
  delimiter: Delimiter,
): string | null {
  if (isDefault(columns, mapping)) return null;
  const names = uploadedNames(columns, mapping);
  return names.map((n) => csvField(n, delimiter)).join(delimiter) + '\r\n';
}

/** The first rows of the file as the parser reads them, for the preview table. */
export interface CsvPreview {
  delimiter: Delimiter;
  columns: string[];
  rows: string[][];
  /** Byte offset where the data starts (after the header line) and the header's line count. */
  dataStart: number;
  headerLines: number;
}

export type ParseSync = (
  input: string,
  options: Record<string, unknown>,
) => string[][] | Array<Record<string, unknown>>;

/**
 * Reads the head of a file (the first PREVIEW_BYTES) with csv-parse and the function's options.
 * `complete` says the head is the whole file; otherwise the last, possibly cut, line is dropped.
 * Throws an Error with a message for the user when there is no header to read.
 */
export function previewCsv(head: Uint8Array, complete: boolean, parse: ParseSync): CsvPreview {
  const header = headerEnd(head);
  if (!header && !complete) throw new Error('The header row is longer than 64 KB.');
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(head);
  } catch {
    // A multi-byte character cut at the end of the head is fine; anything else is not UTF-8.
    if (complete) throw new Error('The file is not UTF-8 text.');
    text = new TextDecoder('utf-8').decode(head);
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (!complete) text = text.slice(0, Math.max(text.lastIndexOf('\n') + 1, 0));
  // The function detects the delimiter on the header record's own bytes (it may span lines).
  const headerText = header
    ? new TextDecoder('utf-8').decode(head.subarray(bomLength(head), header.end))
    : text;
  const delimiter = detectDelimiter(headerText);
  let records: string[][];
  try {
    records = parse(text, {
      delimiter,
      relax_column_count: true,
      skip_empty_lines: true,
      relax_quotes: true,
      // Only the rows shown: the rest of the head (perhaps cut inside a quoted field) is not read.
      to: PREVIEW_ROWS + 1,
    }) as string[][];
  } catch (error) {
    throw new Error(`The file is not valid CSV: ${(error as Error).message}`, { cause: error });
  }
  const columns = (records[0] ?? []).map((c) => c.trim());
  if (columns.length === 0 || columns.every((c) => c === '')) {
    throw new Error('The file is empty.');
  }
  return {
    delimiter,
    columns,
    rows: records.slice(1, PREVIEW_ROWS + 1),
    dataStart: header?.end ?? head.length,
    headerLines: header?.lines ?? 1,
  };
}

/** The name of a delimiter for people. */
export function delimiterName(delimiter: Delimiter): string {
  return delimiter === ',' ? 'comma' : delimiter === ';' ? 'semicolon' : 'tab';
}
