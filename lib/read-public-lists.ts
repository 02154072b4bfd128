// The public lists as the anon role reads them, oldest first (anon sees only public ones; members
// see all, so the filter is explicit). React-free: the home page's hook (lib/use-public-lists.ts)
// and the embed page's script (components/embed/client.ts) both read them with it.
import { PUBLIC_LIST_COLUMNS, sortLists, type PublicList } from './public-lists';
import type { SupabaseResult } from './query';
import { publicRest } from './supabase-public';

type ListRow = Omit<PublicList, 'optin'> & { optin: string };

export function readPublicLists(): Promise<SupabaseResult<ListRow[]>> {
  return publicRest.select<ListRow[]>('lists', {
    select: PUBLIC_LIST_COLUMNS.replace(/\s+/g, ''),
    visibility: 'eq.public',
    order: 'created_at.asc,slug.asc',
  });
}

/** The rows as the forms use them: opt-in narrowed, in the order the `subscribe` function picks. */
export function toPublicLists(rows: readonly ListRow[]): PublicList[] {
  return sortLists(
    rows.map((row) => ({ ...row, optin: row.optin === 'single' ? 'single' : 'double' })),
  );
}
