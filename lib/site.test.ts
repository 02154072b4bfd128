// Unit tests for the site identity shown on public pages.
import { describe, expect, it } from 'vitest';
import { SITE_DEFAULTS, siteIdentity } from './site';

describe('siteIdentity', () => {
  it('falls back to the defaults while loading or without a row', () => {
    for (const row of [undefined, null]) {
      expect(siteIdentity(row)).toEqual({
        name: SITE_DEFAULTS.name,
        tagline: SITE_DEFAULTS.tagline,
        logoSrc: null,
        showSubscriberCount: false,
      });
    }
  });

  it('uses the row, blank fields falling back, and the logo as a media bucket path', () => {
    expect(
      siteIdentity({
        site_name: ' The Letter ',
        tagline: '   ',
        logo_path: '/brand/logo.png',
        show_subscriber_count: true,
      }),
    ).toEqual({
      name: 'The Letter',
      tagline: SITE_DEFAULTS.tagline,
      logoSrc: 'media/brand/logo.png',
      showSubscriberCount: true,
    });
    expect(
      siteIdentity({ site_name: '', tagline: 'Hi', logo_path: '', show_subscriber_count: false }),
    ).toMatchObject({ name: SITE_DEFAULTS.name, tagline: 'Hi', logoSrc: null });
  });
});
