// A function called by RPC may shape its own HTTP response through two transaction-local
// settings, as PostgREST reads them after the query: `response.headers`, a JSON array of objects
// of one header each, and `response.status`, a status code.
import type { PlainResponse } from '../gateway/plain.js';
import { RestError } from './errors.js';

/** Select-list items reading both settings; placed after the call, so they see what it set. */
export const RESPONSE_GUCS = `current_setting('response.headers', true) as pgrst_resp_headers, current_setting('response.status', true) as pgrst_resp_status`;

export interface ResponseGucs {
  pgrst_resp_headers: string | null;
  pgrst_resp_status: string | null;
}

function gucHeaders(text: string): Array<[string, string]> {
  const invalid = () =>
    new RestError(
      500,
      'PGRST111',
      'response.headers guc must be a JSON array composed of objects with a single key and a string value',
    );
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalid();
  }
  if (!Array.isArray(value)) throw invalid();
  return value.map((item: unknown) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) throw invalid();
    const entries = Object.entries(item);
    if (entries.length !== 1 || typeof entries[0]![1] !== 'string') throw invalid();
    return entries[0] as [string, string];
  });
}

/** The response with the function's headers (replacing same-named ones) and status applied. */
export function applyResponseGucs(response: PlainResponse, gucs: ResponseGucs): PlainResponse {
  const { pgrst_resp_headers: headers, pgrst_resp_status: status } = gucs;
  let result = response;
  if (headers) {
    const merged = { ...response.headers };
    for (const [name, value] of gucHeaders(headers)) {
      for (const key of Object.keys(merged)) {
        if (key.toLowerCase() === name.toLowerCase()) delete merged[key];
      }
      merged[name.toLowerCase()] = value;
    }
    result = { ...result, headers: merged };
  }
  if (status) {
    const code = /^\d{3}$/.test(status.trim()) ? Number(status) : NaN;
    if (!(code >= 100 && code <= 599)) {
      throw new RestError(500, 'PGRST112', 'response.status guc must be a valid status code');
    }
    result = { ...result, status: code };
  }
  return result;
}
