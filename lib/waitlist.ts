// A waitlist place as the `waitlist` and `confirm` functions answer it, and how the pages word it.
import { formatCount } from './format-count';
import { isCount, isRecord, isString, parseListRef, type ListRef } from './functions';

export interface WaitlistStanding {
  list: ListRef;
  status: 'pending' | 'confirmed';
  /** 1-based place in line; null while the address is not confirmed. */
  position: number | null;
  total: number;
  referrals: number;
  code: string;
  /** The referral link to share (`/?ref=<code>&list=<slug>`). */
  url: string;
}

/** `waitlist` answers `status`; `confirm` leaves it out because the place is confirmed by then. */
export function parseWaitlistStanding(data: unknown): WaitlistStanding | null {
  if (!isRecord(data)) return null;
  const list = parseListRef(data.list);
  const status = data.status ?? 'confirmed';
  const position = data.position ?? null;
  if (
    !list ||
    (status !== 'pending' && status !== 'confirmed') ||
    (position !== null && !(isCount(position) && position >= 1)) ||
    !isCount(data.total) ||
    !isCount(data.referrals) ||
    !isString(data.code) ||
    !isString(data.url)
  ) {
    return null;
  }
  return {
    list,
    status,
    position,
    total: data.total,
    referrals: data.referrals,
    code: data.code,
    url: data.url,
  };
}

export { formatCount };

/** "1 referral" / "3 referrals". */
export function referralsText(count: number): string {
  return `${formatCount(count)} ${count === 1 ? 'referral' : 'referrals'}`;
}

/** "#3 of 120" (or "#3" when the total is not larger, which only happens mid-update). */
export function positionText(standing: Pick<WaitlistStanding, 'position' | 'total'>): string {
  if (standing.position === null) return 'Not in line yet';
  const place = `#${formatCount(standing.position)}`;
  return standing.total >= standing.position ? `${place} of ${formatCount(standing.total)}` : place;
}

/** The waitlist page of a code (`/waitlist/?code=`), with the list when it is known. */
export function waitlistPagePath(code: string, list?: string | null): string {
  const search = new URLSearchParams({ code });
  if (list) search.set('list', list);
  return `/waitlist/?${search.toString()}`;
}

/** How many people a referral moves past: everyone ahead, so this is only a rough encouragement. */
export function peopleAhead(standing: Pick<WaitlistStanding, 'position'>): number | null {
  return standing.position === null ? null : Math.max(0, standing.position - 1);
}
