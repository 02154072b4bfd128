// The share buttons' links: each service's own share URL with the message and link encoded.
import { describe, expect, it } from 'vitest';
import { newsletterMessage, shareTargets, waitlistMessage } from './ShareButtons.links';

describe('shareTargets', () => {
  const message = waitlistMessage('Beta & Friends', 'https://news.example.com/?ref=AB12&list=beta');
  const byId = Object.fromEntries(shareTargets(message).map((t) => [t.id, new URL(t.href)]));

  it('fills in the message and the link, encoded', () => {
    expect(byId.x!.origin).toBe('https://x.com');
    expect(byId.x!.searchParams.get('text')).toBe(
      'I just joined the waitlist for Beta & Friends. Join through my link:',
    );
    expect(byId.x!.searchParams.get('url')).toBe('https://news.example.com/?ref=AB12&list=beta');
    expect(byId.linkedin!.searchParams.get('url')).toBe(
      'https://news.example.com/?ref=AB12&list=beta',
    );
    expect(byId.whatsapp!.host).toBe('wa.me');
    expect(byId.whatsapp!.searchParams.get('text')).toMatch(
      /Join through my link: https:\/\/news\.example\.com\/\?ref=AB12&list=beta$/,
    );
  });

  it('writes an email with a subject and the link in the body, spaces as %20', () => {
    const mail = shareTargets(message).find((t) => t.id === 'email')!.href;
    expect(mail.startsWith('mailto:?subject=Join%20me%20on%20the%20Beta%20%26%20Friends')).toBe(
      true,
    );
    expect(mail).not.toContain('+');
    expect(decodeURIComponent(mail.split('&body=')[1]!)).toBe(
      'I just joined the waitlist for Beta & Friends. Join through my link:\n\nhttps://news.example.com/?ref=AB12&list=beta',
    );
  });

  it('names the newsletter, or says "this newsletter" while the name is unknown', () => {
    expect(newsletterMessage('Field Notes', 'https://n.example/').text).toBe(
      'I just subscribed to Field Notes. You might like it too:',
    );
    expect(newsletterMessage(' ', 'https://n.example/').subject).toBe(
      'You might like this newsletter',
    );
  });
});
