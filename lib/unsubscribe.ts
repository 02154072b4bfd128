// The `unsubscribe` function's page answers: the (masked) address and its lists with their status.
import { isRecord, isString, parseArray } from './functions';

export interface UnsubscribeList {
  slug: string;
  name: string;
  status: 'pending' | 'confirmed' | 'unsubscribed';
}

export interface UnsubscribeView {
  email: string;
  lists: UnsubscribeList[];
  /** The same subscriber's preferences page (`preferences_url`), for the page's link. */
  preferencesUrl: string | null;
}

function parseList(value: unknown): UnsubscribeList | null {
  if (!isRecord(value) || !isString(value.slug) || !isString(value.name)) return null;
  const { status } = value;
  if (status !== 'pending' && status !== 'confirmed' && status !== 'unsubscribed') return null;
  return { slug: value.slug, name: value.name, status };
}

export function parseUnsubscribeView(data: unknown): UnsubscribeView | null {
  if (!isRecord(data) || !isString(data.email)) return null;
  const lists = parseArray(data.lists, parseList);
  if (!lists) return null;
  const url = data.preferences_url;
  // Only a web link is followed; anything else leaves the page without the link.
  const preferencesUrl = isString(url) && /^https?:\/\//.test(url) ? url : null;
  return { email: data.email, lists, preferencesUrl };
}

/** Names of the lists that are still active (pending or confirmed). */
export function activeLists(view: UnsubscribeView): UnsubscribeList[] {
  return view.lists.filter((list) => list.status !== 'unsubscribed');
}
