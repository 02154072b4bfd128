// Request bodies as PostgREST reads them (ApiRequest/Payload.hs): JSON, form-urlencoded and CSV.
import { RestError } from './errors.js';

const invalid = (message: string) => new RestError(400, 'PGRST102', message);

/** RFC 4180 CSV with a header row → objects of strings; `NULL` is SQL null, as upstream. */
export function csvToObjects(text: string): Array<Record<string, string | null>> {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += ch;
  }
  if (field !== '' || row.length) {
    row.push(field);
    rows.push(row);
  }
  const [header, ...body] = rows;
  if (!header) return [];
  return body.map((values) => {
    if (values.length !== header.length) throw invalid('All lines must have same number of fields');
    return Object.fromEntries(
      header.map((name, i) => [name, values[i] === 'NULL' ? null : values[i]!]),
    );
  });
}

/** The media type of a Content-Type header, lower case; JSON when none is given. */
const mediaType = (contentType: string | null) =>
  (contentType ?? 'application/json').split(';')[0]!.trim().toLowerCase();

const isJsonType = (type: string) =>
  type === 'application/json' || type === '' || type.endsWith('+json');

/**
 * A JSON body's own text, for Postgres to read as sent (PostgREST hands the body over unchanged,
 * so a number keeps digits JSON.parse would round); null for an empty body or another type.
 */
export function jsonText(text: string, contentType: string | null): string | null {
  return isJsonType(mediaType(contentType)) && text.trim() !== '' ? text : null;
}

/**
 * Parses a POST/PATCH/PUT body by its Content-Type. `isRpc` allows an empty JSON body (no
 * arguments); for tables an empty body is "Empty or invalid json" like upstream.
 */
export function parsePayload(text: string, contentType: string | null, isRpc: boolean): unknown {
  const type = mediaType(contentType);
  if (isJsonType(type)) {
    if (text.trim() === '' && isRpc) return {};
    try {
      return JSON.parse(text) as unknown;
    } catch {
      // PostgREST drops the parser's message for a generic one (postgrest#2344).
      throw invalid('Empty or invalid json');
    }
  }
  if (type === 'application/x-www-form-urlencoded') {
    return Object.fromEntries(new URLSearchParams(text));
  }
  if (type === 'text/csv') return csvToObjects(text);
  if (isRpc && ['text/plain', 'text/xml', 'application/octet-stream'].includes(type)) {
    throw new RestError(
      501,
      'PGRST501',
      `The emulator does not implement raw ${type} bodies for functions with a single unnamed parameter`,
    );
  }
  throw invalid(`Content-Type not acceptable: ${type}`);
}
