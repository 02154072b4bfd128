// The head of a pre-rendered issue: description, canonical URL, cards, and the image chosen.
import { renderToStaticMarkup } from 'react-dom/server';
import { createElement, Fragment } from 'react';
import { describe, expect, it } from 'vitest';
import { issueHeadTags } from './archive-head';
import { issuePath, readPrerendered } from './archive-links';
import { firstImage, issueMeta } from './archive-meta';

const issue = {
  slug: 'may-notes',
  subject: 'May notes',
  preheader: 'What we shipped',
  finished_at: '2026-05-01T10:00:00Z',
  body_html: '<p>Hi</p><img src="/media/a.png" alt=""><img src="https://cdn.example/b.png">',
};

describe('firstImage', () => {
  it('is the first http(s) image, resolved against the page', () => {
    expect(firstImage(issue.body_html, 'https://news.example.com/archive/may-notes/')).toBe(
      'https://news.example.com/media/a.png',
    );
    expect(
      firstImage(
        '<img src="javascript:alert(1)"><img src="https://x.example/c.jpg">',
        'https://a.example/',
      ),
    ).toBe('https://x.example/c.jpg');
    expect(firstImage('<p>No image</p>', 'https://a.example/')).toBeNull();
  });
});

describe('issueMeta and its head tags', () => {
  it('describes the issue with its own title, canonical URL and image', () => {
    const meta = issueMeta({
      siteUrl: 'https://news.example.com/',
      siteName: 'Field Notes',
      logoUrl: 'https://p.example/logo.png',
      issue,
    });
    expect(meta.canonical).toBe('https://news.example.com/archive/may-notes/');
    const html = renderToStaticMarkup(createElement(Fragment, null, ...issueHeadTags(meta)));
    expect(html).toContain(
      '<link rel="canonical" href="https://news.example.com/archive/may-notes/"/>',
    );
    expect(html).toContain('<meta property="og:title" content="May notes"/>');
    expect(html).toContain('<meta name="description" content="What we shipped"/>');
    expect(html).toContain(
      '<meta property="og:image" content="https://news.example.com/media/a.png"/>',
    );
    expect(html).toContain('<meta name="twitter:card" content="summary_large_image"/>');
    expect(html).toContain('<meta property="og:site_name" content="Field Notes"/>');
  });

  it('falls back to the logo, then to a text card, and names the site without a preheader', () => {
    const plain = { ...issue, preheader: '', body_html: '<p>Text only</p>' };
    const withLogo = issueMeta({
      siteUrl: 'https://n.example',
      siteName: 'Field Notes',
      logoUrl: 'https://p.example/logo.png',
      issue: plain,
    });
    expect(withLogo.image).toBe('https://p.example/logo.png');
    expect(withLogo.description).toBe('An issue of Field Notes.');
    const bare = issueMeta({
      siteUrl: 'https://n.example',
      siteName: '',
      logoUrl: null,
      issue: plain,
    });
    expect(bare.image).toBeNull();
    const html = renderToStaticMarkup(createElement(Fragment, null, ...issueHeadTags(bare)));
    expect(html).toContain('<meta name="twitter:card" content="summary"/>');
    expect(html).not.toContain('og:image');
  });
});

describe('issuePath', () => {
  it('is pretty only for an issue the build pre-rendered, never for a route', () => {
    const built = readPrerendered({ slugs: ['may-notes', 'issue', 7] });
    expect(issuePath('may-notes', built)).toBe('/archive/may-notes/');
    expect(issuePath('later', built)).toBe('/archive/issue/?slug=later');
    expect(issuePath('issue', built)).toBe('/archive/issue/?slug=issue');
    expect(issuePath('may-notes', null)).toBe('/archive/issue/?slug=may-notes');
    expect(readPrerendered('nonsense').size).toBe(0);
  });
});
