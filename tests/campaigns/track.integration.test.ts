// Opt-in tracking over HTTP (SPEC §3, §7): with the switches on, a campaign message caught in
// MailDev carries a signed pixel and signed click links that record opened/clicked with the
// campaign; tampered links are refused; with the switches off nothing is added or recorded.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index';
import { sql, waitForMail, type CaughtMail } from '../functions/kit';
import { listWithSubscribers, member, startCampaignEmulator, type Member } from './kit';
import { eventsOf, sentCampaign } from './feedback-kit';

const POST = 'https://example.com/post?a=1&b=two';
const BODY = `# News\n\nRead [the post](${POST}) or [write to us](mailto:team@example.com).\n`;
const HUMAN =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_1) AppleWebKit/605.1.15 (KHTML, like Gecko)';

let emu: RunningEmulator;
let admin: Member;

beforeAll(async () => {
  emu = await startCampaignEmulator({ POSTBOX_SEND_RATE: 'unlimited' });
  admin = await member(emu, 'admin');
});
afterAll(async () => {
  await emu?.stop();
});

async function setTracking(opens: boolean, clicks: boolean): Promise<void> {
  await sql(emu, `update public.settings set track_opens = $1, track_clicks = $2`, [opens, clicks]);
}

const decode = (html: string) => html.replace(/&amp;/g, '&');

/** Every src/href in a message's HTML that points at the track function. */
function trackUrls(mail: CaughtMail): { pixel: string[]; links: string[] } {
  const find = (attribute: string) =>
    [
      ...mail.html.matchAll(new RegExp(`${attribute}="([^"]*/functions/v1/track\\?[^"]*)"`, 'g')),
    ].map((m) => decode(m[1]!));
  return { pixel: find('src'), links: find('href') };
}

/** A GET as a mail client makes it: no apikey, no JWT, a browser's User-Agent. */
function fetchAs(url: string, userAgent = HUMAN) {
  return fetch(url, { redirect: 'manual', headers: { 'User-Agent': userAgent } });
}

describe('with tracking on', () => {
  let campaignId: string;
  let email: string;
  let mail: CaughtMail;

  beforeAll(async () => {
    await setTracking(true, true);
    const tag = `track${Date.now()}`;
    const slug = await listWithSubscribers(emu, tag, 1);
    email = `${tag}-1@example.com`;
    campaignId = await sentCampaign(emu, admin, slug, { body_md: BODY });
    mail = (await waitForMail(emu, email))[0]!;
  });

  it('puts a pixel and signed links in the HTML; the text part and the footer keep their links', () => {
    const { pixel, links } = trackUrls(mail);
    expect(pixel).toHaveLength(1);
    expect(links).toHaveLength(1);
    expect(new URL(links[0]!).searchParams.get('u')).toBe(POST);
    expect(mail.html).toContain('href="mailto:team@example.com"');
    expect(mail.html).toMatch(/href="http[^"]*\/unsubscribe\/\?token=/);
    expect(mail.html).toMatch(/href="http[^"]*\/preferences\/\?token=/);
    expect(mail.text).toContain(`(${POST})`);
    expect(mail.text).not.toContain('/functions/v1/track');
  });

  it('answers the pixel with an uncacheable GIF and records opens, telling machines apart', async () => {
    const [pixel] = trackUrls(mail).pixel;
    // Long after the send: a person's browser is a person, the known proxies are machines.
    await sql(
      emu,
      `update public.deliveries set sent_at = now() - interval '1 hour' where campaign_id = $1`,
      [campaignId],
    );
    const res = await fetchAs(pixel!);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/gif');
    expect(res.headers.get('cache-control')).toContain('no-store');
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(new TextDecoder().decode(bytes.slice(0, 6))).toBe('GIF89a');
    // Width and height (little-endian 16-bit) of a 1×1 image.
    expect([...bytes.slice(6, 10)]).toEqual([1, 0, 1, 0]);
    await fetchAs(
      pixel!,
      'Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)',
    );
    await fetchAs(pixel!, 'Mozilla/5.0');
    // Within seconds of the send: a prefetch, whatever the User-Agent says.
    await sql(emu, `update public.deliveries set sent_at = now() where campaign_id = $1`, [
      campaignId,
    ]);
    await fetchAs(pixel!);
    expect(await eventsOf(emu, email, ['opened'])).toEqual(
      [false, true, true, true].map((machine) => ({
        type: 'opened',
        campaign_id: campaignId,
        data: { machine },
      })),
    );
  });

  it('redirects a click to the linked URL and records it', async () => {
    const [link] = trackUrls(mail).links;
    const res = await fetchAs(link!);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(POST);
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(await eventsOf(emu, email, ['clicked'])).toEqual([
      { type: 'clicked', campaign_id: campaignId, data: { url: POST } },
    ]);
  });

  it('signs the SHA-256 of the URL, base64url, in a click token (links already sent keep working)', () => {
    const [link] = trackUrls(mail).links;
    const [body] = new URL(link!).searchParams.get('t')!.split('.');
    const payload = JSON.parse(Buffer.from(body!, 'base64url').toString('utf8')) as { h?: string };
    expect(payload.h).toBe(createHash('sha256').update(POST).digest('base64url'));
  });

  it('refuses a changed URL or token with token_invalid and records nothing', async () => {
    const link = new URL(trackUrls(mail).links[0]!);
    const pixel = new URL(trackUrls(mail).pixel[0]!);
    const before = (await eventsOf(emu, email, ['opened', 'clicked'])).length;
    const token = link.searchParams.get('t')!;
    const tampered = [
      // The open redirect: a valid token with another target.
      `${link.origin}${link.pathname}?t=${token}&u=${encodeURIComponent('https://evil.example/')}`,
      `${link.origin}${link.pathname}?t=${token}&u=${encodeURIComponent(`${POST}&c=3`)}`,
      `${link.origin}${link.pathname}?t=${token}`,
      `${link.origin}${link.pathname}?t=${token.slice(0, -2)}xx&u=${encodeURIComponent(POST)}`,
      // A pixel token does not make a redirect.
      `${pixel.href}&u=${encodeURIComponent(POST)}`,
      `${link.origin}${link.pathname}`,
    ];
    for (const url of tampered) {
      const res = await fetchAs(url);
      expect([res.status, res.headers.get('location')], url).toEqual([400, null]);
      expect((await res.json()).error.code).toBe('token_invalid');
    }
    expect(await eventsOf(emu, email, ['opened', 'clicked'])).toHaveLength(before);
  });

  it('still answers old links once tracking is switched off, and records nothing', async () => {
    await setTracking(false, false);
    const before = (await eventsOf(emu, email, ['opened', 'clicked'])).length;
    const { pixel, links } = trackUrls(mail);
    expect((await fetchAs(pixel[0]!)).status).toBe(200);
    const click = await fetchAs(links[0]!);
    expect([click.status, click.headers.get('location')]).toEqual([302, POST]);
    expect(await eventsOf(emu, email, ['opened', 'clicked'])).toHaveLength(before);
  });
});

describe('with tracking off', () => {
  it('sends the message without pixel or rewritten links and records nothing', async () => {
    await setTracking(false, false);
    const tag = `notrack${Date.now()}`;
    const slug = await listWithSubscribers(emu, tag, 1);
    const email = `${tag}-1@example.com`;
    await sentCampaign(emu, admin, slug, { body_md: BODY });
    const [mail] = await waitForMail(emu, email);
    expect(mail!.html).not.toContain('/functions/v1/track');
    expect(mail!.html).toContain(`href="${POST.replace(/&/g, '&amp;')}"`);
    expect(await eventsOf(emu, email, ['opened', 'clicked'])).toEqual([]);
  });

  it('adds only what is switched on: clicks without opens', async () => {
    await setTracking(false, true);
    const tag = `clicksonly${Date.now()}`;
    const slug = await listWithSubscribers(emu, tag, 1);
    await sentCampaign(emu, admin, slug, { body_md: BODY });
    const [mail] = await waitForMail(emu, `${tag}-1@example.com`);
    const { pixel, links } = trackUrls(mail!);
    expect([pixel.length, links.length]).toEqual([0, 1]);
  });
});
