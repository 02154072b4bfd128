// Unit tests of the automation editor's words for steps and its edit rule (lib/admin/automations.ts).
import { describe, expect, it } from 'vitest';
import { durationLabel, mayEdit, segmentOf, segmentRules, stepSummary } from './automations';

const base = {
  subject: null,
  wait_seconds: null,
  wait_weekday: null,
  wait_hour: null,
  tag_id: null,
  list_id: null,
  rules: null,
};

describe('durationLabel', () => {
  it('names days and hours, minutes only under a day', () => {
    expect(durationLabel(3 * 86400)).toBe('3 days');
    expect(durationLabel(86400 + 6 * 3600)).toBe('1 day 6 hours');
    expect(durationLabel(90 * 60)).toBe('1 hour 30 minutes');
    expect(durationLabel(60)).toBe('1 minute');
  });
});

describe('stepSummary', () => {
  it('says what each kind of step does, with the names of its list or tag', () => {
    expect(stepSummary({ ...base, kind: 'email', subject: 'Hi' })).toBe('Send “Hi”');
    expect(stepSummary({ ...base, kind: 'wait', wait_seconds: 259200 })).toBe('Wait 3 days');
    expect(stepSummary({ ...base, kind: 'wait', wait_weekday: 1, wait_hour: 9 })).toBe(
      'Wait until Monday 09:00 UTC',
    );
    const lists = new Map([['l1', 'News']]);
    const tags = new Map([['t1', 'VIP']]);
    expect(stepSummary({ ...base, kind: 'list_add', list_id: 'l1' }, { lists })).toBe(
      'Add to News',
    );
    expect(stepSummary({ ...base, kind: 'list_remove', list_id: 'gone' }, { lists })).toBe(
      'Remove from a list',
    );
    expect(stepSummary({ ...base, kind: 'tag_add', tag_id: 't1' }, { tags })).toBe(
      'Add the tag VIP',
    );
    const segments = new Map([['s1', 'Engaged']]);
    expect(
      stepSummary({ ...base, kind: 'condition', rules: segmentRules('s1') }, { segments }),
    ).toBe('Continue only if in the segment Engaged');
    expect(stepSummary({ ...base, kind: 'condition', rules: segmentRules('gone') })).toBe(
      'Continue only if in a segment',
    );
    const custom = { match: 'all', rules: [{ field: 'status', op: 'eq', value: 'enabled' }] };
    expect(stepSummary({ ...base, kind: 'condition', rules: custom })).toBe(
      'Continue only if the rules match',
    );
  });
});

describe('segmentRules and segmentOf', () => {
  it('store "in one segment" and read it back; anything else is not one segment', () => {
    expect(segmentOf(segmentRules('s1'))).toBe('s1');
    expect(segmentOf(null)).toBeNull();
    expect(segmentOf({ match: 'all', rules: [] })).toBeNull();
    expect(
      segmentOf({ match: 'all', rules: [{ field: 'segment', op: 'not_in', value: 's1' }] }),
    ).toBeNull();
    expect(
      segmentOf({
        match: 'all',
        rules: [
          { field: 'segment', op: 'in', value: 's1' },
          { field: 'tag', op: 'has', value: 't1' },
        ],
      }),
    ).toBeNull();
  });
});

describe('mayEdit', () => {
  it('mirrors the RLS rule: editors drafts and paused ones, admins and owners all', () => {
    expect(mayEdit('viewer', 'draft')).toBe(false);
    expect(mayEdit('editor', 'draft')).toBe(true);
    expect(mayEdit('editor', 'paused')).toBe(true);
    expect(mayEdit('editor', 'active')).toBe(false);
    expect(mayEdit('admin', 'active')).toBe(true);
    expect(mayEdit('owner', 'active')).toBe(true);
  });
});
