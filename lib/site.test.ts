// Unit tests for the site identity shown on public pages.
import { describe, expect, it } from 'vitest';
import { SITE_DEFAULTS, siteIdentity, siteTitle } from './site';

describe('siteIdentity', () => {
  it('is unknown, with no name or tagline, while loading or without a row', () => {
    for (const row of [undefined, null]) {
      expect(siteIdentity(row)).toEqual({
        known: false,
        name: '',
        tagline: '',
        logoSrc: null,
        showSubscriberCount: false,
      });
    }
  });

  it('uses the row; a cleared tagline stays empty, the logo is a media bucket path', () => {
    expect(
      siteIdentity({
        site_name: ' The Letter ',
        tagline: '   ',
        logo_path: '/brand/logo.png',
        show_subscriber_count: true,
      }),
    ).toEqual({
      known: true,
      name: 'The Letter',
      tagline: '',
      logoSrc: 'media/brand/logo.png',
      showSubscriberCount: true,
    });
    expect(
      siteIdentity({ site_name: '', tagline: 'Hi', logo_path: '', show_subscriber_count: false }),
    ).toMatchObject({ known: true, name: SITE_DEFAULTS.name, tagline: 'Hi', logoSrc: null });
  });
});

describe('siteTitle', () => {
  it('joins the known parts', () => {
    expect(siteTitle('Archive', 'The Letter')).toBe('Archive · The Letter');
    expect(siteTitle('Archive', '')).toBe('Archive');
    expect(siteTitle('', 'The Letter')).toBe('The Letter');
  });
});
