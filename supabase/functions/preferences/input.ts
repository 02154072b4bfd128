// Checks a preferences POST body (SPEC §5) before anything reaches the database.
import { invalidInput } from '../_shared/errors.ts';

export type PreferencesRequest =
  | { kind: 'update'; name: string | null; lists: Record<string, boolean> | null }
  | { kind: 'unsubscribe_all' | 'export' | 'delete' };

const ACTIONS = ['unsubscribe_all', 'export', 'delete'] as const;
// SPEC §5: no control characters (C0, DEL and C1), as private.is_valid_name checks in SQL.
// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/** A UTF-16 surrogate without its pair: JSON can carry it (`"\ud800"`), Postgres text cannot. */
const LONE_SURROGATE = /\p{Cs}/u;
const MAX_LISTS = 200;

export function parsePreferencesRequest(body: Record<string, unknown>): PreferencesRequest {
  if (body.action !== undefined) {
    const action = ACTIONS.find((a) => a === body.action);
    if (!action) throw invalidInput('action', `must be one of ${ACTIONS.join(', ')}`);
    if (body.name !== undefined || body.lists !== undefined) {
      throw invalidInput('action', 'cannot be combined with name or lists');
    }
    return { kind: action };
  }
  return { kind: 'update', name: parseName(body.name), lists: parseLists(body.lists) };
}

function parseName(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw invalidInput('name', 'must be text');
  const name = value.trim();
  // Characters (code points), as SQL's char_length counts them: an emoji is one, not two.
  if ([...name].length > 100) throw invalidInput('name', 'at most 100 characters');
  if (CONTROL.test(name)) throw invalidInput('name', 'no control characters');
  if (LONE_SURROGATE.test(name)) throw invalidInput('name', 'must be valid Unicode text');
  return name;
}

function parseLists(value: unknown): Record<string, boolean> | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw invalidInput('lists', 'must be an object of {slug: true | false}');
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > MAX_LISTS) throw invalidInput('lists', `at most ${MAX_LISTS} lists`);
  for (const [slug, on] of entries) {
    if (typeof on !== 'boolean') throw invalidInput('lists', 'every value must be true or false');
    if (LONE_SURROGATE.test(slug)) throw invalidInput('lists', 'keys must be valid Unicode text');
  }
  return Object.fromEntries(entries) as Record<string, boolean>;
}
