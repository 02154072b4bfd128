// Opt-in open and click tracking of campaign and automation messages (settings.track_opens /
// track_clicks): the signed pixel and click links campaign-mail.ts and automation-mail.ts put into
// each message, and the checks the `track` function makes on them.
import { createHash } from 'node:crypto';
import { adminClient } from './db.ts';
import { env } from './env.ts';
import { AppError } from './errors.ts';
import { escapeHtml } from './subscriber-mail.ts';
import { signToken, verifyToken } from './tokens.ts';
import { isUuid } from '../../../lib/uuid.ts';

export interface TrackingSettings {
  opens: boolean;
  clicks: boolean;
}

/** The tracking switches as they are now (read when a worker prepares a campaign: "at send time"). */
export async function loadTracking(): Promise<TrackingSettings> {
  const { data, error } = await adminClient()
    .from('settings')
    .select('track_opens, track_clicks')
    .single();
  if (error || !data) {
    console.error('the site settings could not be read', error);
    throw new AppError('internal');
  }
  return { opens: data.track_opens === true, clicks: data.track_clicks === true };
}

/** SHA-256 of a URL, base64url: what a click token signs instead of the (long) URL itself. */
// node:crypto rather than crypto.subtle, for the reason tokens.ts gives: with click tracking on,
// every link of every message is hashed.
export function urlHash(url: string): string {
  return createHash('sha256').update(url).digest('base64url');
}

/**
 * What sent the message: a campaign (`c` in the token) or an automation's email step (`a`), so the
 * event counts in that campaign's or that step's report.
 */
export type TrackSource = { campaignId: string } | { stepId: string };

function sourceClaim(source: TrackSource): { c: string } | { a: string } {
  return 'campaignId' in source ? { c: source.campaignId } : { a: source.stepId };
}

export function openPixelUrl(source: TrackSource, subscriberId: string): string {
  const token = signToken({ p: 'open', s: subscriberId, ...sourceClaim(source) });
  return `${env.functionUrl('track')}?t=${token}`;
}

export function clickUrl(source: TrackSource, subscriberId: string, url: string): string {
  const token = signToken({
    p: 'click',
    s: subscriberId,
    ...sourceClaim(source),
    h: urlHash(url),
  });
  return `${env.functionUrl('track')}?t=${token}&u=${encodeURIComponent(url)}`;
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Attribute text → the URL it stands for (sanitize-html writes `&amp;` for `&`). */
function decodeAttribute(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (entity, name: string) => {
    if (name[0] === '#') {
      const code =
        name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : +name.slice(1);
      return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
    }
    return NAMED[name.toLowerCase()] ?? entity;
  });
}

/** Links that must keep working without us in between: the subscriber's own self-service links. */
function keepAsIs(url: string): boolean {
  const site = env.siteUrl();
  return (
    !/^https?:\/\//i.test(url) ||
    url.startsWith(`${site}/unsubscribe/`) ||
    url.startsWith(`${site}/preferences/`) ||
    url.startsWith(env.functionUrl('unsubscribe')) ||
    url.startsWith(env.functionUrl('track'))
  );
}

const LINK = /(<a\b[^>]*?\shref=")([^"]*)(")/gi;

/**
 * The message body for one recipient: with click tracking, every http(s) link goes through
 * `track` with a token binding campaign (or automation step), subscriber and URL; with open
 * tracking, a 1×1 pixel is appended. Only the HTML part: the plain-text part keeps the original
 * links.
 */
export function trackedBodyHtml(
  html: string,
  message: { source: TrackSource; subscriberId: string; tracking: TrackingSettings },
): string {
  const { source, subscriberId, tracking } = message;
  let out = html;
  if (tracking.clicks) {
    const parts: string[] = [];
    let last = 0;
    for (const match of html.matchAll(LINK)) {
      const url = decodeAttribute(match[2]!);
      parts.push(html.slice(last, match.index), match[1]!);
      parts.push(keepAsIs(url) ? match[2]! : escapeHtml(clickUrl(source, subscriberId, url)));
      parts.push(match[3]!);
      last = match.index! + match[0].length;
    }
    parts.push(html.slice(last));
    out = parts.join('');
  }
  if (tracking.opens) {
    const src = escapeHtml(openPixelUrl(source, subscriberId));
    out +=
      `<img src="${src}" width="1" height="1" alt="" ` +
      `style="display:block;width:1px;height:1px;border:0;overflow:hidden">`;
  }
  return out;
}

export interface TrackToken {
  kind: 'open' | 'click';
  subscriberId: string;
  source: TrackSource;
  /** Clicks: the URL the token was signed for. */
  url?: string;
}

/**
 * Checks a `track` request's token: an open token without `u`, a click token whose signed URL
 * hash matches `u` (so the redirect goes nowhere the message did not link to). Anything else is
 * `token_invalid`.
 */
export function readTrackToken(token: unknown, url: string | null): TrackToken {
  const payload = verifyToken(token, url === null ? 'open' : 'click');
  // Exactly one of `c` (a campaign's message) and `a` (an automation step's).
  const source: TrackSource | null =
    isUuid(payload.c) && payload.a === undefined
      ? { campaignId: payload.c }
      : isUuid(payload.a) && payload.c === undefined
        ? { stepId: payload.a }
        : null;
  if (!isUuid(payload.s) || !source) {
    throw new AppError('token_invalid');
  }
  if (url === null) return { kind: 'open', subscriberId: payload.s, source };
  if (typeof payload.h !== 'string' || !/^https?:\/\//i.test(url) || payload.h !== urlHash(url)) {
    throw new AppError('token_invalid');
  }
  return { kind: 'click', subscriberId: payload.s, source, url };
}

/**
 * Opens that are not a person reading, judged from the User-Agent (the IP ranges of Apple's relay
 * are not known here): no User-Agent; Gmail's image proxy (GoogleImageProxy, ggpht.com) and Yahoo's
 * (YahooMailProxy), which fetch through their own servers; a bare `Mozilla/5.0`, which Apple Mail
 * Privacy Protection's prefetch sends; and self-declared bots. record_tracking_event adds the other
 * rule: an open within 10 seconds of the send.
 */
export function isMachineUserAgent(userAgent: string | null): boolean {
  const ua = (userAgent ?? '').trim();
  if (ua === '' || ua === 'Mozilla/5.0') return true;
  return /GoogleImageProxy|ggpht\.com|YahooMailProxy|\b(bot|crawler|spider)\b/i.test(ua);
}
