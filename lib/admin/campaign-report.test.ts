// The report's arithmetic and the small rules of the campaigns list and the media library.
import { describe, expect, it } from 'vitest';
import { duration, isCampaignId, parseRetry, percent } from './campaign-report';
import { campaignHref, canDeleteCampaign, isCampaignFilter } from './campaigns';
import { displayName } from './media';

describe('report arithmetic', () => {
  it('gives whole percentages, one decimal below 1 %, and a dash without a total', () => {
    expect(percent(2, 5)).toBe('40%');
    expect(percent(1, 300)).toBe('0.3%');
    expect(percent(0, 5)).toBe('0%');
    expect(percent(3, 0)).toBe('—');
  });

  it('says how long a send took, or has run so far', () => {
    const start = '2026-11-22T10:00:00.000Z';
    expect(duration(start, '2026-11-22T10:00:12.000Z')).toBe('12 s');
    expect(duration(start, '2026-11-22T10:04:10.000Z')).toBe('4 min 10 s');
    expect(duration(start, '2026-11-22T12:05:59.000Z')).toBe('2 h 5 min');
    expect(duration(start, null, Date.parse('2026-11-22T10:01:00.000Z'))).toBe('1 min 0 s');
    expect(duration(null, null)).toBe('—');
  });

  it('reads the retry answer of send-campaign and nothing else', () => {
    expect(parseRetry({ campaign: {}, retried: 3 })).toEqual({ retried: 3 });
    expect(parseRetry({ retried: '3' })).toBeNull();
    expect(parseRetry(null)).toBeNull();
  });

  it('knows a campaign id from a typo', () => {
    expect(isCampaignId('0b9f7c1e-8a5d-4c3e-9f7a-1b2c3d4e5f60')).toBe(true);
    expect(isCampaignId('nope')).toBe(false);
  });
});

describe('campaign list rules', () => {
  it('lets editors delete drafts and admins also sent and cancelled campaigns, never live ones', () => {
    expect(canDeleteCampaign('draft', true, false)).toBe(true);
    expect(canDeleteCampaign('draft', false, false)).toBe(false);
    expect(canDeleteCampaign('sent', true, false)).toBe(false);
    expect(canDeleteCampaign('sent', true, true)).toBe(true);
    expect(canDeleteCampaign('cancelled', true, true)).toBe(true);
    expect(canDeleteCampaign('sending', true, true)).toBe(false);
    expect(canDeleteCampaign('paused', true, true)).toBe(false);
  });

  it('leads drafts and scheduled campaigns to the editor, the rest to the report', () => {
    expect(campaignHref({ id: 'a', status: 'draft' })).toBe('/admin/campaigns/edit/?id=a');
    expect(campaignHref({ id: 'a', status: 'scheduled' })).toBe('/admin/campaigns/edit/?id=a');
    expect(campaignHref({ id: 'a', status: 'sending' })).toBe('/admin/campaigns/report/?id=a');
    expect(campaignHref({ id: 'a', status: 'sent' })).toBe('/admin/campaigns/report/?id=a');
  });

  it('accepts only the known filters', () => {
    expect(isCampaignFilter('active')).toBe(true);
    expect(isCampaignFilter('sending')).toBe(false);
    expect(isCampaignFilter(null)).toBe(false);
  });
});

describe('media names', () => {
  it('drops the upload time mediaPath() puts in front', () => {
    expect(displayName('1763820000000-hero.png')).toBe('hero.png');
    expect(displayName('logo.png')).toBe('logo.png');
    expect(displayName('2026-plan.png')).toBe('2026-plan.png');
  });
});
