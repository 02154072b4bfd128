// What a verified confirm token must carry before it reaches SQL (pure, so vitest tests it too):
// a subscriber id, at least one list id and the single-use nonce. Anything else is token_invalid.
import { AppError } from '../_shared/errors.ts';
import { isUuid } from '../../../lib/uuid.ts';

export interface ConfirmPayload {
  subscriberId: string;
  listIds: string[];
  nonce: string;
}

export function confirmPayload(payload: { s: unknown; l?: unknown; n?: unknown }): ConfirmPayload {
  const { s, l, n } = payload;
  if (
    !isUuid(s) ||
    !Array.isArray(l) ||
    l.length === 0 ||
    l.length > 20 ||
    !l.every(isUuid) ||
    typeof n !== 'string' ||
    !/^[0-9a-f]{32}$/.test(n)
  ) {
    throw new AppError('token_invalid');
  }
  return { subscriberId: s, listIds: l as string[], nonce: n };
}

/** The referral link a waitlist member shares (README: `/?ref=<code>&list=<slug>`). */
export function referralUrl(siteUrl: string, code: string, listSlug: string): string {
  return `${siteUrl}/?ref=${encodeURIComponent(code)}&list=${encodeURIComponent(listSlug)}`;
}

/** The live place-in-line page (`/waitlist/?code=<code>&list=<slug>`), as lib/waitlist builds it. */
export function placeUrl(siteUrl: string, code: string, listSlug: string): string {
  return `${siteUrl}/waitlist/?code=${encodeURIComponent(code)}&list=${encodeURIComponent(listSlug)}`;
}
