// The archive's RSS 2.0 and Atom feeds, written with the `feed` library and read back with
// fast-xml-parser: titles, links (pretty only for pre-rendered issues), ids, dates and content.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { Feed } from 'feed';
import { describe, expect, it } from 'vitest';
import { FEED_ISSUES, archiveFeed, type FeedIssue } from './feeds';

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@' });
const site = {
  name: 'Field Notes & Co',
  tagline: 'Weekly <notes>',
  siteUrl: 'https://news.example.com/',
  logoUrl: 'https://project.example.com/storage/v1/object/public/media/logo.png',
};
const issues: FeedIssue[] = [
  {
    slug: 'second',
    subject: 'Second: "quotes" & <brackets>',
    preheader: 'Two',
    finished_at: '2026-11-20T10:00:00.123456+00:00',
    body_html: '<p>Body with ]]> inside &amp; an <a href="https://x.example/">link</a></p>',
  },
  { slug: 'first', subject: '', preheader: '', finished_at: '2026-11-01T09:00:00+00:00' },
];
const make = (list = issues, prerendered = new Set(['second'])) =>
  archiveFeed((options) => new Feed(options), site, list, prerendered);

describe('archiveFeed', () => {
  it('writes RSS 2.0 that parses back with every issue, newest first', () => {
    const xml = make().rss2();
    expect(XMLValidator.validate(xml)).toBe(true);
    const channel = parser.parse(xml).rss.channel;
    expect(parser.parse(xml).rss['@version']).toBe('2.0');
    expect(channel.title).toBe('Field Notes & Co');
    expect(channel.description).toBe('Weekly <notes>');
    expect(channel.link).toBe('https://news.example.com/archive/');
    const items = channel.item;
    expect(items).toHaveLength(2);
    expect(items[0].title).toBe('Second: "quotes" & <brackets>');
    // Pre-rendered: the pretty URL; published after the build: the page that reads it live.
    expect(items[0].link).toBe('https://news.example.com/archive/second/');
    expect(items[1].link).toBe('https://news.example.com/archive/issue/?slug=first');
    expect(items[1].title).toBe('Untitled issue');
    // The guid does not change when the build starts pre-rendering the issue.
    expect(items[0].guid['#text']).toBe('https://news.example.com/archive/issue/?slug=second');
    expect(items[0].guid['@isPermaLink']).toBe('false');
    expect(new Date(items[0].pubDate).toISOString()).toBe('2026-11-20T10:00:00.000Z');
    expect(items[0]['content:encoded']).toContain('Body with ]]> inside');
    expect(items[0].description).toBe('Two');
  });

  it('writes Atom that parses back with the same entries', () => {
    const xml = make().atom1();
    expect(XMLValidator.validate(xml)).toBe(true);
    const feed = parser.parse(xml).feed;
    expect(feed['@xmlns']).toBe('http://www.w3.org/2005/Atom');
    expect(feed.title).toBe('Field Notes & Co');
    expect(feed.updated).toBe('2026-11-20T10:00:00.123Z');
    const self = feed.link.find((l: Record<string, string>) => l['@rel'] === 'self');
    expect(self['@href']).toBe('https://news.example.com/atom.xml');
    const entries = feed.entry;
    expect(entries.map((e: { link: Record<string, string> }) => e.link['@href'])).toEqual([
      'https://news.example.com/archive/second/',
      'https://news.example.com/archive/issue/?slug=first',
    ]);
    expect(entries[0].id).toBe('https://news.example.com/archive/issue/?slug=second');
    expect(entries[0].content['#text']).toContain('Body with ]]> inside');
  });

  it('keeps the newest issues only, and an empty archive is still a valid feed', () => {
    const many = Array.from({ length: FEED_ISSUES + 5 }, (_, i) => ({
      slug: `issue-${i}`,
      subject: `Issue ${i}`,
      preheader: '',
      finished_at: new Date(Date.UTC(2026, 0, 30 - i)).toISOString(),
    }));
    expect(parser.parse(make(many).rss2()).rss.channel.item).toHaveLength(FEED_ISSUES);
    const empty = make([]).rss2();
    expect(XMLValidator.validate(empty)).toBe(true);
    expect(parser.parse(empty).rss.channel.item).toBeUndefined();
  });

  it('never gives a reserved slug its pretty URL', () => {
    const xml = make([{ ...issues[1]!, slug: 'issue' }], new Set(['issue'])).rss2();
    expect(parser.parse(xml).rss.channel.item.link).toBe(
      'https://news.example.com/archive/issue/?slug=issue',
    );
  });
});
