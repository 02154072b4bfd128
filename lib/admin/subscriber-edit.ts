// Editing one subscriber (issue 23): attributes as typed key/value rows or raw JSON, the checks of
// SPEC §5 before saving, and the save itself (one PostgREST update; the database normalises the
// address and records the change with who made it, 20261127400000).
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Json } from '../database.types';
import { checkEmail } from '../email';
import { nameProblem } from '../subscribe';
import { toQueryError, unwrap } from '../use-query';

export type AttributeType = 'text' | 'number' | 'boolean' | 'date';

export interface AttributeRow {
  key: string;
  type: AttributeType;
  /** As typed: numbers and dates as text, booleans as "true"/"false". */
  value: string;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** SPEC §5: attributes are a JSON object of at most 4 KB. */
export const ATTRIBUTES_MAX_BYTES = 4096;
export const NOTES_MAX = 10_000;

/**
 * The rows of an attributes object, or null when a value is not a text, number, true/false (an
 * object or a list): those are edited as raw JSON only, so nothing is lost in the round trip.
 */
export function rowsFromAttributes(attributes: unknown): AttributeRow[] | null {
  if (typeof attributes !== 'object' || attributes === null || Array.isArray(attributes)) return [];
  const rows: AttributeRow[] = [];
  for (const [key, value] of Object.entries(attributes)) {
    if (typeof value === 'number') rows.push({ key, type: 'number', value: String(value) });
    else if (typeof value === 'boolean') rows.push({ key, type: 'boolean', value: String(value) });
    else if (typeof value === 'string')
      rows.push({ key, type: DATE.test(value) ? 'date' : 'text', value });
    else return null;
  }
  return rows;
}

export type RowsResult =
  { ok: true; attributes: Record<string, Json> } | { ok: false; problems: Record<number, string> };

/** The rows as an attributes object, or what is wrong with each row (by index). */
export function attributesFromRows(rows: readonly AttributeRow[]): RowsResult {
  const attributes: Record<string, Json> = {};
  const problems: Record<number, string> = {};
  const seen = new Set<string>();
  rows.forEach((row, i) => {
    const key = row.key.trim();
    if (!key) {
      if (row.value.trim() !== '') problems[i] = 'Give this value a name.';
      return;
    }
    if (seen.has(key)) {
      problems[i] = `"${key}" is already used above.`;
      return;
    }
    seen.add(key);
    if (row.type === 'number') {
      const n = Number(row.value.trim());
      if (row.value.trim() === '' || !Number.isFinite(n)) problems[i] = 'Enter a number.';
      else attributes[key] = n;
    } else if (row.type === 'boolean') {
      attributes[key] = row.value === 'true';
    } else if (row.type === 'date') {
      const value = row.value.trim();
      if (!DATE.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`)))
        problems[i] = 'Enter a date as YYYY-MM-DD.';
      else attributes[key] = value;
    } else {
      attributes[key] = row.value;
    }
  });
  return Object.keys(problems).length ? { ok: false, problems } : { ok: true, attributes };
}

/** Raw JSON: an object of at most 4 KB, or the message to show under the field. */
export function parseRawAttributes(
  text: string,
): { ok: true; attributes: Record<string, Json> } | { ok: false; message: string } {
  let value: unknown;
  try {
    value = JSON.parse(text.trim() === '' ? '{}' : text);
  } catch {
    return { ok: false, message: 'This is not valid JSON.' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { ok: false, message: 'Attributes must be a JSON object, like {"plan": "pro"}.' };
  return { ok: true, attributes: value as Record<string, Json> };
}

export interface SubscriberEdit {
  email: string;
  name: string;
  attributes: Record<string, Json>;
  notes: string;
}

export type EditField = 'email' | 'name' | 'attributes' | 'notes';
export type EditResult = { ok: true } | { ok: false; field: EditField | null; message: string };

/** SPEC §5 on the whole edit, first problem per field; empty when it may be saved. */
export function editProblems(edit: SubscriberEdit): Partial<Record<EditField, string>> {
  const problems: Partial<Record<EditField, string>> = {};
  if (!checkEmail(edit.email).ok) problems.email = 'Enter a valid email address.';
  const name = nameProblem(edit.name.trim());
  if (name) problems.name = name;
  if (new TextEncoder().encode(JSON.stringify(edit.attributes)).length > ATTRIBUTES_MAX_BYTES)
    problems.attributes = 'Attributes may take at most 4 KB.';
  if (edit.notes.length > NOTES_MAX) problems.notes = 'Notes may have at most 10,000 characters.';
  return problems;
}

/** Saves the edit; a taken address or a refused value comes back at its field. */
export async function updateSubscriber(
  client: SupabaseClient,
  id: string,
  edit: SubscriberEdit,
): Promise<EditResult> {
  const problems = editProblems(edit);
  const first = (Object.keys(problems) as EditField[])[0];
  if (first) return { ok: false, field: first, message: problems[first]! };
  const email = checkEmail(edit.email);
  const result = await client
    .from('subscribers')
    .update({
      email: email.ok ? email.email : edit.email,
      name: edit.name.trim(),
      attributes: edit.attributes,
      notes: edit.notes,
    })
    .eq('id', id)
    .select('id');
  if (result.error) {
    const error = toQueryError(result.error, result.status);
    if (error.code === '23505')
      return { ok: false, field: 'email', message: 'Another subscriber has this address.' };
    if (error.code === '23514') {
      const field = (['email', 'name', 'attributes', 'notes'] as const).find((f) =>
        error.message.includes(f),
      );
      return { ok: false, field: field ?? null, message: 'This value is not allowed here.' };
    }
    return { ok: false, field: null, message: error.message };
  }
  const rows = unwrap(result) as unknown[] | null;
  if (!rows || rows.length === 0)
    return { ok: false, field: null, message: 'You do not have permission to do that.' };
  return { ok: true };
}
