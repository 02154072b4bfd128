// The public lists of the signup form: which is the main list, and which boxes start checked.
export interface PublicList {
  slug: string;
  name: string;
  description: string;
  optin: 'single' | 'double';
  waitlist: boolean;
  created_at: string;
}

export const PUBLIC_LIST_COLUMNS = 'slug, name, description, optin, waitlist, created_at';

/**
 * Oldest first, then plain lists before waitlists, then by slug: the order the `subscribe`
 * function uses to pick the main list (migration 20261122110000, `order by created_at, waitlist, slug`).
 */
export function sortLists(lists: readonly PublicList[]): PublicList[] {
  return [...lists].sort(
    (a, b) =>
      Date.parse(a.created_at) - Date.parse(b.created_at) ||
      Number(a.waitlist) - Number(b.waitlist) ||
      (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0),
  );
}

/** The main list: the oldest public list (README of supabase/functions, `subscribe`). */
export function mainList(lists: readonly PublicList[]): PublicList | null {
  return sortLists(lists)[0] ?? null;
}

/**
 * Slugs checked when the form appears: the list named in a referral link (`?list=`) when it is
 * public, otherwise the main list.
 */
export function initialSelection(lists: readonly PublicList[], wanted?: string | null): string[] {
  if (wanted && lists.some((list) => list.slug === wanted)) return [wanted];
  const main = mainList(lists);
  return main ? [main.slug] : [];
}

/** What a successful signup will ask of the visitor: a confirmation email unless every list is single opt-in. */
export function needsConfirmation(
  lists: readonly PublicList[],
  chosen: readonly string[],
): boolean {
  return chosen.some((slug) => lists.find((list) => list.slug === slug)?.optin !== 'single');
}
