// sitemap.xml and robots.txt: valid XML with the public pages and only the pre-rendered issues.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { robotsTxt, sitemapXml } from './sitemap';

describe('sitemapXml', () => {
  it('lists the home page, the archive and the pre-rendered issues by their pretty URLs', () => {
    const xml = sitemapXml(
      'https://news.example.com/',
      [
        { slug: 'late', finished_at: '2026-11-21T08:00:00Z' },
        { slug: 'built-a-b', finished_at: '2026-11-20T10:00:00.5+00:00' },
      ],
      new Set(['built-a-b']),
    );
    expect(XMLValidator.validate(xml)).toBe(true);
    const urls = new XMLParser().parse(xml).urlset.url;
    expect(urls.map((u: { loc: string }) => u.loc)).toEqual([
      'https://news.example.com/',
      'https://news.example.com/archive/',
      'https://news.example.com/archive/built-a-b/',
    ]);
    expect(urls[2].lastmod).toBe('2026-11-20T10:00:00.500Z');
  });

  it('escapes a site URL with XML characters', () => {
    const xml = sitemapXml('https://example.com/a&b', [], new Set());
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(new XMLParser().parse(xml).urlset.url[0].loc).toBe('https://example.com/a&b/');
  });
});

describe('robotsTxt', () => {
  it('names the sitemap and keeps crawlers out of the admin and token pages', () => {
    const text = robotsTxt('https://news.example.com');
    expect(text).toContain('Sitemap: https://news.example.com/sitemap.xml');
    expect(text).toMatch(/^Disallow: \/admin\/$/m);
    expect(text).toMatch(/^Disallow: \/unsubscribe\/$/m);
    expect(text).not.toMatch(/^Disallow: \/archive/m);
  });
});
