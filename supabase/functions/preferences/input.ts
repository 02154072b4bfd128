// Checks a preferences POST body (SPEC §5) before anything reaches the database.
import { invalidInput } from '../_shared/errors.ts';
import { isStorable, parseName } from '../_shared/text.ts';

export type PreferencesRequest =
  | { kind: 'update'; name: string | null; lists: Record<string, boolean> | null }
  | { kind: 'unsubscribe_all' | 'export' | 'delete' };

const ACTIONS = ['unsubscribe_all', 'export', 'delete'] as const;
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

function parseLists(value: unknown): Record<string, boolean> | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw invalidInput('lists', 'must be an object of {slug: true | false}');
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > MAX_LISTS) throw invalidInput('lists', `at most ${MAX_LISTS} lists`);
  for (const [slug, on] of entries) {
    if (typeof on !== 'boolean') throw invalidInput('lists', 'every value must be true or false');
    if (!isStorable(slug)) throw invalidInput('lists', 'keys must be valid Unicode text');
  }
  return Object.fromEntries(entries) as Record<string, boolean>;
}
